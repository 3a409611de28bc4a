package org.tonpayouts.local.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.ton.keys.WalletSecrets;

/** One child JVM of the local stack: started from a {@link ChildSpec}, stopped with SIGTERM (then SIGKILL). */
public final class ChildProcess implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ChildProcess.class);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(40);

  private final ChildSpec spec;
  private final Process process;
  private Integer exitCode;

  private ChildProcess(ChildSpec spec, Process process) {
    this.spec = spec;
    this.process = process;
  }

  /**
   * Starts the child with the launcher's JDK. Its environment is the launcher's minus any wallet
   * secret or PAYOUTS_* setting the operator's shell has (the child must see exactly ours), plus
   * {@link ChildSpec#env()}.
   */
  public static ChildProcess start(ChildSpec spec) {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    ProcessBuilder builder = new ProcessBuilder(spec.command(java))
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(spec.consoleFile().toFile()));
    Map<String, String> env = builder.environment();
    env.keySet().removeIf(name -> name.startsWith(PayoutsConfig.ENV_PREFIX) || isWalletSecretVariable(name));
    env.putAll(spec.env());
    try {
      Process process = builder.start();
      log.info("child started name={} pid={} jar={} config={} env_names={}", spec.name(), process.pid(), spec.jar(),
          spec.configFile(), spec.env().keySet());
      return new ChildProcess(spec, process);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + spec.name() + " (" + spec.jar() + ")", e);
    }
  }

  private static boolean isWalletSecretVariable(String name) {
    return List.of(WalletSecrets.MNEMONIC_ENV, WalletSecrets.MNEMONIC_FILE_ENV, WalletSecrets.SEED_ENV,
        WalletSecrets.SEED_FILE_ENV).contains(name);
  }

  public ChildSpec spec() {
    return spec;
  }

  public String name() {
    return spec.name();
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** The exit code once the process has ended. */
  public Optional<Integer> exitCode() {
    return process.isAlive() ? Optional.empty() : Optional.of(process.exitValue());
  }

  /** The last {@code n} lines of the application log (or of the console file when the log is empty). */
  public List<String> tail(int n) {
    List<String> lines = readLines(spec.logFile());
    if (lines.isEmpty()) {
      lines = readLines(spec.consoleFile());
    }
    return lines.subList(Math.max(0, lines.size() - n), lines.size());
  }

  private static List<String> readLines(Path file) {
    try {
      return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
    } catch (IOException e) {
      return List.of("(cannot read " + file + ": " + e.getMessage() + ")");
    }
  }

  /**
   * SIGKILL at once, as a crash or the OOM killer would: nothing is closed, committed or flushed.
   * Returns when the process is gone. Idempotent.
   */
  public synchronized void kill() {
    if (exitCode != null) {
      return;
    }
    process.destroyForcibly(); // SIGKILL on Unix
    try {
      if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException(spec.name() + " pid " + process.pid() + " survived SIGKILL");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while killing " + spec.name(), e);
    }
    exitCode = process.exitValue();
    log.info("child killed name={} pid={} signal=KILL exit={}", spec.name(), process.pid(), exitCode);
  }

  /**
   * SIGSTOP: the whole JVM freezes (every thread, heartbeats included), as in a long GC pause or
   * a VM stall, and {@link #resume()} lets it go on where it was. Java has no signal API, so this
   * runs {@code kill -STOP <pid>}.
   */
  public void pause() {
    signal("STOP");
  }

  /** SIGCONT: a {@link #pause() paused} process goes on where it stopped. */
  public void resume() {
    signal("CONT");
  }

  private void signal(String name) {
    if (!process.isAlive()) {
      throw new IllegalStateException("cannot send SIG" + name + " to " + spec.name() + ": it has exited");
    }
    try {
      Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
          .redirectErrorStream(true).start();
      String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed: " + output);
      }
      log.info("child signalled name={} pid={} signal={}", spec.name(), process.pid(), name);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run kill -" + name + " for " + spec.name(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while signalling " + spec.name(), e);
    }
  }

  /** SIGTERM (the apps close their streams cleanly), then SIGKILL after a timeout. Idempotent. */
  @Override
  public synchronized void close() {
    if (exitCode != null) {
      return;
    }
    long started = System.nanoTime();
    process.destroy();
    try {
      if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        log.warn("child did not stop in time, killing it name={} pid={}", spec.name(), process.pid());
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
    exitCode = process.isAlive() ? -1 : process.exitValue();
    log.info("child stopped name={} pid={} exit={} took_ms={}", spec.name(), process.pid(), exitCode,
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
  }
}
