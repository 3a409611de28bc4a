package org.tonpayouts.local.stack;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Everything needed to start one child JVM (streams-app or chain-poller) and read what it left.
 *
 * @param name process name, also the stem of its files
 * @param jar the shaded jar to run
 * @param configFile PayoutsConfig properties file (no secrets)
 * @param logFile the application log (Logback)
 * @param apiCallLog one line per TON API HTTP request (the client's DEBUG line), for counting calls
 * @param gcLog {@code -Xlog:gc} output, for the peak heap
 * @param consoleFile stdout and stderr of the JVM (anything outside Logback)
 * @param env environment variables added for the child; holds the secrets, never written to disk
 * @param metricsPort the child's {@code metrics.port} (metrics and health on 127.0.0.1), 0 for none
 */
public record ChildSpec(String name, Path jar, Path configFile, Path logbackFile, Path logFile, Path apiCallLog,
                        Path gcLog, Path consoleFile, Map<String, String> env, int metricsPort) {
  public static final String MAX_HEAP = "-Xmx256m";
  /** The environment variable that replaces {@link #DEFAULT_JAVA_OPTS} for the local stack's JVMs ({@code payouts} reads it too). */
  public static final String JAVA_OPTS_ENV = "PAYOUTS_JAVA_OPTS";
  /**
   * The local stack's JVMs compile with C1 only. On the 2-core machines it runs on, five processes
   * share the cores, and C2 compiling the broker's, devnet's and the apps' hot code kept about a
   * core busy for minutes after start: {@code ./payouts bench --wallets 100} measured 0.8 of a core
   * in the three JVMs' compiler threads during the measured load, starving the pipeline (67
   * transfers/s, p99 8.5 s); with C1 only, 0.01 of a core and 137 transfers/s, p99 1.6 s, at the same
   * CPU per transfer once warm. They collect with the parallel collector: with heaps of a few
   * hundred MB its young pauses stay within tens of milliseconds, and it spares G1's concurrent
   * marking and costlier write barriers. {@code ./payouts bench --wallets 1000}, run alternately:
   * streams-app + chain-poller 2.15 and 2.18 ms of CPU per transfer with G1, 1.91 and 1.87 with
   * the parallel collector (W=100: 2.79, 2.60 against 2.31, 2.42, latency unchanged). A deployment
   * with cores to spare keeps the JVM's defaults; so can this stack: {@code PAYOUTS_JAVA_OPTS=}
   * (empty) or any other options.
   */
  public static final String DEFAULT_JAVA_OPTS = "-XX:TieredStopAtLevel=1 -XX:+UseParallelGC";

  public ChildSpec {
    env = Map.copyOf(env);
  }

  /** The command line: {@code java -Xmx256m ... -jar <jar> --config <file>}; never carries a secret. */
  public List<String> command(Path javaBinary) {
    List<String> command = new java.util.ArrayList<>(List.of(javaBinary.toString(), MAX_HEAP,
        "-XX:+ExitOnOutOfMemoryError"));
    command.addAll(javaOptions(System.getenv()));
    command.addAll(List.of("-Xlog:gc:file=" + gcLog, "-Dlogback.configurationFile=" + logbackFile,
        "-jar", jar.toString(), "--config", configFile.toString()));
    return List.copyOf(command);
  }

  /** {@link #DEFAULT_JAVA_OPTS}, or what {@link #JAVA_OPTS_ENV} says when it is set (empty: none). */
  public static List<String> javaOptions(Map<String, String> env) {
    String options = env.getOrDefault(JAVA_OPTS_ENV, DEFAULT_JAVA_OPTS).strip();
    return options.isEmpty() ? List.of() : List.of(options.split("\\s+"));
  }

  /** {@code http://127.0.0.1:<metricsPort><path>}, e.g. for {@code /metrics} or {@code /health/ready}. */
  public String opsUrl(String path) {
    if (metricsPort == 0) {
      throw new IllegalStateException(name + " has no metrics port");
    }
    return "http://127.0.0.1:" + metricsPort + path;
  }

  /** Shows the environment's names only: values may be secrets. */
  @Override
  public String toString() {
    return "ChildSpec[name=" + name + ", jar=" + jar + ", config=" + configFile + ", env=" + env.keySet() + "]";
  }
}
