package org.tonpayouts.local;

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

  public ChildSpec {
    env = Map.copyOf(env);
  }

  /** The command line: {@code java -Xmx256m ... -jar <jar> --config <file>}; never carries a secret. */
  public List<String> command(Path javaBinary) {
    return List.of(javaBinary.toString(), MAX_HEAP, "-XX:+ExitOnOutOfMemoryError",
        "-Xlog:gc:file=" + gcLog, "-Dlogback.configurationFile=" + logbackFile,
        "-jar", jar.toString(), "--config", configFile.toString());
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
