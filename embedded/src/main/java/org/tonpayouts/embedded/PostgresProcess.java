package org.tonpayouts.embedded;

import io.zonky.test.db.postgres.util.LinuxUtils;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Takes a running embedded server away and brings it back in place (same binaries, data directory,
 * port and settings), as an operator's {@code pg_ctl} would: what a test of "the ledger went away"
 * needs. zonky exposes none of this, so the server's own files say where everything is: {@code
 * postmaster.opts} holds the binary's path and the exact options it was started with, {@code
 * postmaster.pid} the postmaster's process id. Linux only, like the binaries this module ships.
 */
final class PostgresProcess {
  private static final long TIMEOUT_S = 60;

  private final Path dataDir;
  private final Path pgCtl;
  /** The postmaster's arguments as {@code postmaster.opts} quotes them, for {@code pg_ctl -o}. */
  private final String options;

  private PostgresProcess(Path dataDir, Path pgCtl, String options) {
    this.dataDir = dataDir;
    this.pgCtl = pgCtl;
    this.options = options;
  }

  /** Reads the running server's start-up line from {@code dataDir}. */
  static PostgresProcess of(Path dataDir) {
    String opts = read(dataDir.resolve("postmaster.opts")).strip();
    // written as: /path/bin/postgres "-D" "/data" "-p" "5432" ... (the binary unquoted, every argument quoted)
    int firstArgument = opts.indexOf(" \"");
    if (firstArgument < 0) {
      throw new IllegalStateException("unexpected postmaster.opts in " + dataDir + ": " + opts);
    }
    Path postgres = Path.of(opts.substring(0, firstArgument));
    return new PostgresProcess(dataDir, postgres.resolveSibling("pg_ctl"), opts.substring(firstArgument + 1));
  }

  /** Fast shutdown (sessions are disconnected, nothing committed is lost); returns once it is down. */
  void stop() {
    pgCtl("-D", dataDir.toString(), "-m", "fast", "-w", "-t", Long.toString(TIMEOUT_S), "stop");
  }

  /** Starts the server again with the options it had; returns once it accepts connections. */
  void start() {
    pgCtl("-D", dataDir.toString(), "-w", "-t", Long.toString(TIMEOUT_S),
        "-l", dataDir.resolve("restarted.log").toString(), "-o", options, "start");
  }

  /**
   * SIGSTOP to the postmaster, then to its children: connections already open and new ones alike
   * get no answer (a new one is accepted by the kernel and then hangs), like a server frozen by
   * the machine it runs on.
   */
  void pause() {
    long postmaster = postmasterPid();
    signal("STOP", postmaster); // first, so that it forks no child we would miss
    children(postmaster).forEach(pid -> signal("STOP", pid));
  }

  /** SIGCONT to the children, then to the postmaster. */
  void resume() {
    long postmaster = postmasterPid();
    children(postmaster).forEach(pid -> signal("CONT", pid));
    signal("CONT", postmaster);
  }

  private long postmasterPid() {
    return Long.parseLong(read(dataDir.resolve("postmaster.pid")).lines().findFirst().orElseThrow().strip());
  }

  private static List<Long> children(long pid) {
    return ProcessHandle.of(pid).orElseThrow(() -> new IllegalStateException("no postmaster process " + pid))
        .children().map(ProcessHandle::pid).toList();
  }

  private static void signal(String signal, long pid) {
    run(List.of("kill", "-" + signal, Long.toString(pid)));
  }

  private void pgCtl(String... args) {
    List<String> command = new ArrayList<>();
    if (LinuxUtils.isUnshareAvailable()) {
      // as zonky does: pg_ctl refuses to run as root, and in a user namespace of its own it is not root
      command.addAll(List.of("unshare", "-U"));
    }
    command.add(pgCtl.toString());
    command.addAll(List.of(args));
    run(command);
  }

  private static void run(List<String> command) {
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      process.getOutputStream().close();
      if (!process.waitFor(TIMEOUT_S + 5, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException("timed out: " + String.join(" ", command));
      }
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (process.exitValue() != 0) {
        throw new IllegalStateException("failed (exit " + process.exitValue() + "): " + String.join(" ", command)
            + ": " + output);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not run " + command.get(0), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted running " + command.get(0), e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
