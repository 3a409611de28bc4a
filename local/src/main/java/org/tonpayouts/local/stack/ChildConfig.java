package org.tonpayouts.local.stack;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.ton.keys.SecretFiles;
import org.tonpayouts.ton.network.TonNetwork;

/**
 * Writes the configuration of the two child processes into the run directory: a PayoutsConfig
 * properties file and a Logback file each. The wallet seed and the verdict key go into files of the
 * run directory only their owner can read (as production gives them: an inline key is refused), the
 * other secrets (API key, database password, admin token) into the child's environment; none into
 * a properties file, a command line or a log.
 */
public final class ChildConfig {
  public static final String STREAMS_APP = "streams-app";
  public static final String CHAIN_POLLER = "chain-poller";

  private final Settings settings;
  private final Secrets secrets;
  private final RunDirectory run;
  private final Map<String, String> overrides;
  private final boolean apiCallLog;

  /**
   * What both children share.
   *
   * @param network the network the children pay on ({@code ton.network}): devnet, or the external API's
   * @param walletSecretFile operator's secret file (external API); empty: the seed comes from {@link Secrets}
   */
  public record Settings(String bootstrapServers, String postgresUrl, String postgresUser, URI tonApiUrl,
                         double apiRequestsPerSecond, boolean testnet, TonNetwork network, long subwalletMin,
                         long subwalletMax, Optional<Path> walletSecretFile) {}

  /** The secret values; {@link #toString()} never shows them. */
  public record Secrets(Optional<String> walletSeedHex, Optional<String> apiKey, String postgresPassword) {
    @Override
    public String toString() {
      return "Secrets[walletSeedHex=" + walletSeedHex.map(s -> "<set>").orElse("<none>")
          + ", apiKey=" + apiKey.map(s -> "<set>").orElse("<none>") + ", postgresPassword=<set>]";
    }
  }

  /**
   * streams-app's admin API: its port and bearer token (the token goes into the child's environment only).
   *
   * @param tokenFile where the launcher keeps the token for {@code payouts admin --token-file}
   */
  public record AdminAccess(int port, String token, Path tokenFile) {
    public String url() {
      return "http://127.0.0.1:" + port;
    }

    @Override
    public String toString() {
      return "AdminAccess[port=" + port + ", token=<set>, tokenFile=" + tokenFile + "]";
    }
  }

  public ChildConfig(Settings settings, Secrets secrets, RunDirectory run) {
    this(settings, secrets, run, Map.of());
  }

  /**
   * Children that log one line per TON API request to their API-call log.
   *
   * @param overrides configuration keys set for both children on top of the launcher's ({@code --set})
   */
  public ChildConfig(Settings settings, Secrets secrets, RunDirectory run, Map<String, String> overrides) {
    this(settings, secrets, run, overrides, true);
  }

  /**
   * @param overrides configuration keys set for both children on top of the launcher's ({@code --set})
   * @param apiCallLog whether the children log one line per TON API request (the benchmark turns it
   *     off: it counts requests from the children's meters, and a file write per request would be
   *     work the measurement adds)
   */
  public ChildConfig(Settings settings, Secrets secrets, RunDirectory run, Map<String, String> overrides,
      boolean apiCallLog) {
    this.settings = settings;
    this.secrets = secrets;
    this.run = run;
    this.overrides = Map.copyOf(overrides);
    this.apiCallLog = apiCallLog;
  }

  /**
   * The run's verdict keys file (verdict.mac.keys.file), made once per run with a fresh random key:
   * the children of a run, and only they, can make and check each other's verdicts.
   */
  private synchronized Path verdictKeysFile() {
    Path file = run.file("verdict-keys");
    if (!Files.exists(file)) {
      byte[] key = new byte[32];
      new java.security.SecureRandom().nextBytes(key);
      writeOwnerOnly(file, "# the verdict key of this local run (verdict.mac.keys.file of both children)\nlocal:"
          + java.util.HexFormat.of().formatHex(key) + "\n");
    }
    return file;
  }

  /** The run's wallet seed file (wallet.secret.file of streams-app), written once; devnet runs only. */
  private synchronized Path walletSeedFile(String seedHex) {
    Path file = run.file("wallet-seed");
    if (!Files.exists(file)) {
      writeOwnerOnly(file, seedHex + "\n");
    }
    return file;
  }

  /** Writes streams-app's files; the wallet seed (devnet runs) goes into an owner-only file. No metrics endpoint. */
  public ChildSpec streamsApp(Path jar) {
    return streamsApp(jar, 0);
  }

  /**
   * Writes streams-app's files; the wallet seed (devnet runs) goes into an owner-only file.
   *
   * @param metricsPort its {@code metrics.port} (metrics and health), 0 for none
   */
  public ChildSpec streamsApp(Path jar, int metricsPort) {
    return streamsApp(jar, metricsPort, Optional.empty());
  }

  /** streams-app's files with its admin API on {@code admin.port()}; the token goes into its environment. */
  public ChildSpec streamsApp(Path jar, int metricsPort, Optional<AdminAccess> admin) {
    return streamsApp(STREAMS_APP, jar, metricsPort, admin, Map.of());
  }

  /**
   * One of several streams-app instances (same application id, shared topics): its files, state
   * directory and logs are named after {@code instance} (e.g. {@code streams-app-2}).
   *
   * @param instanceSettings keys for this instance only, on top of the shared ones (e.g. its own API node)
   */
  public ChildSpec streamsApp(String instance, Path jar, int metricsPort, Optional<AdminAccess> admin,
      Map<String, String> instanceSettings) {
    Map<String, String> props = common(instance, metricsPort);
    putInstanceSettings(props, instanceSettings);
    settings.walletSecretFile().or(() -> secrets.walletSeedHex().map(this::walletSeedFile))
        .ifPresent(f -> props.put(PayoutsConfig.WALLET_SECRET_FILE_CONFIG, f.toString()));
    Map<String, String> env = commonEnv();
    admin.ifPresent(a -> {
      props.put(PayoutsConfig.ADMIN_PORT_CONFIG, Integer.toString(a.port()));
      env.put(PayoutsConfig.envName(PayoutsConfig.ADMIN_TOKEN_CONFIG), a.token());
    });
    return write(instance, jar, props, env, metricsPort);
  }

  /** Writes chain-poller's files; it never signs, so it gets no wallet secret. No metrics endpoint. */
  public ChildSpec chainPoller(Path jar) {
    return chainPoller(jar, 0);
  }

  /** Writes chain-poller's files with {@code metrics.port} {@code metricsPort} (0: none). */
  public ChildSpec chainPoller(Path jar, int metricsPort) {
    return chainPoller(CHAIN_POLLER, jar, metricsPort, Map.of());
  }

  /**
   * One of several chain-poller instances, its files named after {@code instance}; see
   * {@link #streamsApp(String, Path, int, Optional, Map)}.
   */
  public ChildSpec chainPoller(String instance, Path jar, int metricsPort, Map<String, String> instanceSettings) {
    Map<String, String> props = common(instance, metricsPort);
    putInstanceSettings(props, instanceSettings);
    return write(instance, jar, props, commonEnv(), metricsPort);
  }

  /**
   * An instance's own settings over the common ones; an instance given a provider list ({@code
   * ton.api.urls}) drops the common {@code ton.api.url}, which may not be set beside it.
   */
  private static void putInstanceSettings(Map<String, String> props, Map<String, String> instanceSettings) {
    props.putAll(instanceSettings);
    if (instanceSettings.containsKey(PayoutsConfig.TON_API_URLS_CONFIG)) {
      props.remove(PayoutsConfig.TON_API_URL_CONFIG);
    }
  }

  private Map<String, String> common(String name, int metricsPort) {
    Map<String, String> props = new LinkedHashMap<>();
    props.put(PayoutsConfig.METRICS_PORT_CONFIG, Integer.toString(metricsPort));
    // the launcher and its tools read metrics and health on this machine: nothing else needs to reach them
    props.put(PayoutsConfig.METRICS_BIND_ADDRESS_CONFIG, "127.0.0.1");
    props.put(PayoutsConfig.KAFKA_BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
    props.put(PayoutsConfig.STREAMS_STATE_DIR_CONFIG, run.subdir(name + "-state").toString());
    props.put(PayoutsConfig.POSTGRES_URL_CONFIG, settings.postgresUrl());
    props.put(PayoutsConfig.POSTGRES_USER_CONFIG, settings.postgresUser());
    props.put(PayoutsConfig.TON_API_URL_CONFIG, settings.tonApiUrl().toString());
    props.put(PayoutsConfig.TON_API_RPS_CONFIG, Double.toString(settings.apiRequestsPerSecond()));
    props.put(PayoutsConfig.TON_NETWORK_CONFIG, settings.network().configName());
    if (settings.network() == TonNetwork.DEVNET) {
      props.put(PayoutsConfig.TON_TESTNET_CONFIG, Boolean.toString(settings.testnet())); // the form follows the others
    }
    props.put(PayoutsConfig.WALLET_WORKCHAIN_CONFIG, "0");
    props.put(PayoutsConfig.WALLET_SUBWALLET_MIN_CONFIG, Long.toString(settings.subwalletMin()));
    props.put(PayoutsConfig.WALLET_SUBWALLET_MAX_CONFIG, Long.toString(settings.subwalletMax()));
    props.put(PayoutsConfig.VERDICT_MAC_KEYS_FILE_CONFIG, verdictKeysFile().toString());
    props.putAll(overrides);
    return props;
  }

  private Map<String, String> commonEnv() {
    Map<String, String> env = new LinkedHashMap<>();
    env.put(PayoutsConfig.envName(PayoutsConfig.POSTGRES_PASSWORD_CONFIG), secrets.postgresPassword());
    secrets.apiKey().ifPresent(key -> env.put(PayoutsConfig.envName(PayoutsConfig.TON_API_KEY_CONFIG), key));
    return env;
  }

  private ChildSpec write(String name, Path jar, Map<String, String> props, Map<String, String> env,
      int metricsPort) {
    // validate now, with the secrets the child will see, so a bad setting fails here and not in a child log
    Map<String, String> check = new LinkedHashMap<>();
    env.forEach((k, v) -> check.put(k, v));
    PayoutsConfig.load(Optional.empty(), withEnvNames(props, check));
    Path config = run.file(name + ".properties");
    Path logback = run.file(name + "-logback.xml");
    Path log = run.file(name + ".log");
    Path apiLog = run.file(name + "-api-calls.log");
    writeProperties(config, props, name);
    writeString(logback, apiCallLog ? logbackXml(log, apiLog) : logbackXml(log));
    return new ChildSpec(name, jar, config, logback, log, apiLog, run.file(name + "-gc.log"),
        run.file(name + ".out"), env, metricsPort);
  }

  private static Map<String, String> withEnvNames(Map<String, String> props, Map<String, String> env) {
    Map<String, String> all = new LinkedHashMap<>(env);
    props.forEach((k, v) -> all.put(PayoutsConfig.envName(k), v));
    return all;
  }

  /**
   * The children's Logback set-up: the application log in one file; the TON API client's DEBUG
   * line (one per HTTP request) in another, which is how the launcher counts API calls without
   * touching the apps; Kafka's own chatter at WARN.
   */
  public static String logbackXml(Path log, Path apiLog) {
    return logbackXml(log, """
          <appender name="API_CALLS" class="ch.qos.logback.core.FileAppender">
            <file>%s</file>
            <encoder><pattern>%%d{HH:mm:ss.SSS} %%msg%%n</pattern></encoder>
          </appender>
          <logger name="org.tonpayouts.ton.api.TonApiClient" level="DEBUG" additivity="false">
            <appender-ref ref="API_CALLS"/>
          </logger>
        """.formatted(xmlEscape(apiLog.toString())));
  }

  /** The children's Logback set-up without the API-call log: the TON API client logs at INFO like the rest. */
  public static String logbackXml(Path log) {
    return logbackXml(log, "");
  }

  private static String logbackXml(Path log, String apiCallLogging) {
    return """
        <configuration>
          <appender name="FILE" class="ch.qos.logback.core.FileAppender">
            <file>%s</file>
            <encoder><pattern>%%d{HH:mm:ss.SSS} %%-5level [%%thread] %%logger{36} - %%msg%%n</pattern></encoder>
          </appender>
        %s  <logger name="org.apache.kafka" level="WARN"/>
          <logger name="org.apache.kafka.streams.KafkaStreams" level="INFO"/>
          <root level="INFO">
            <appender-ref ref="FILE"/>
          </root>
        </configuration>
        """.formatted(xmlEscape(log.toString()), apiCallLogging);
  }

  private static String xmlEscape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  private static void writeProperties(Path file, Map<String, String> props, String name) {
    Properties p = new Properties();
    p.putAll(props);
    try (OutputStream out = Files.newOutputStream(file)) {
      p.store(out, name + " configuration written by the local stack launcher; secrets are in owner-only files or"
          + " the environment");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  private static void writeOwnerOnly(Path file, String content) {
    try {
      SecretFiles.writeOwnerOnly(file, content);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  private static void writeString(Path file, String content) {
    try {
      Files.writeString(file, content, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
