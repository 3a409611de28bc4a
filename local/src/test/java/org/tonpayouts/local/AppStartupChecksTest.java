package org.tonpayouts.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.embedded.EmbeddedKafkaBroker;
import org.tonpayouts.embedded.EmbeddedPostgresServer;
import org.tonpayouts.embedded.SharedTestInfrastructure;
import org.tonpayouts.local.stack.BuiltJars;
import org.tonpayouts.local.stack.Home;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.StartupException;
import org.tonpayouts.ton.keys.SecretFiles;
import org.tonpayouts.ton.keys.WalletSecrets;

/**
 * The two jars as an operator runs them against a Kafka nobody prepared: each refuses to start
 * (exit 2) with one line naming the missing topics and the command that creates them;
 * {@code streams-app.jar topics} creates them, and a second run creates nothing; a TON API node
 * of another network than {@code ton.network} is refused naming both, and so is a start without it; a TON API node
 * whose clock is off is refused, naming its URL; so are a secret file others may read, the wallet
 * key inline in the environment and plain http to a TON API host that is not loopback, each with
 * one line naming the file, variable or key and the fix.
 */
class AppStartupChecksTest {
  private static final Duration EXIT_DEADLINE = Duration.ofSeconds(90);
  private static EmbeddedKafkaBroker kafka;
  private static Devnet devnet;
  private static Devnet devnetInThePast;
  private static String jdbcUrl;

  @TempDir
  Path tmp;

  @BeforeAll
  static void start() {
    kafka = EmbeddedKafkaBroker.start();
    devnet = Devnet.builder().blockInterval(Duration.ofMillis(200)).start();
    devnetInThePast = Devnet.builder().blockInterval(Duration.ofMillis(200))
        .clock(Clock.offset(Clock.systemUTC(), Duration.ofMinutes(-5))).start();
    EmbeddedPostgresServer postgres = SharedTestInfrastructure.postgres();
    String database = SharedTestInfrastructure.databaseName(AppStartupChecksTest.class);
    postgres.createDatabase(database);
    jdbcUrl = postgres.jdbcUrl(database);
  }

  @AfterAll
  static void stop() {
    devnetInThePast.close();
    devnet.close();
    kafka.close();
  }

  @Test
  void shouldRefuseToStartWithoutTopicsThenRunTheTopicsCommandIdempotently() throws Exception {
    Home home = Home.locate();
    BuiltJars.requireChildren(home);
    Path config = config(devnet.baseUrl().toString());

    Run streamsApp = run(home.streamsAppJar(), config, "--config", config.toString());
    assertThat(streamsApp.exitCode()).as(streamsApp.output()).isEqualTo(StartupException.EXIT_CODE);
    assertThat(streamsApp.output()).contains("streams-app: cannot start: missing topics on Kafka at "
        + kafka.bootstrapServers() + ": payout.requests, payout.confirmations, payout.rejected, payout.settlements,"
        + " payout.submissions, payout.audit. Create them with: java -jar streams-app.jar topics --config " + config);

    Run poller = run(home.chainPollerJar(), config, "--config", config.toString());
    assertThat(poller.exitCode()).as(poller.output()).isEqualTo(StartupException.EXIT_CODE);
    assertThat(poller.output()).contains("chain-poller: cannot start: missing topics on Kafka at "
        + kafka.bootstrapServers() + ": payout.submissions, payout.confirmations. Create them with: java -jar"
        + " streams-app.jar topics --config " + config);

    Run first = run(home.streamsAppJar(), config, "topics", "--config", config.toString());
    assertThat(first.exitCode()).as(first.output()).isZero();
    assertThat(first.output()).contains("created   payout.requests partitions=2 replication=broker-default")
        .contains("6 created, 0 updated, 0 conflicts");
    Run second = run(home.streamsAppJar(), config, "topics", "--config", config.toString());
    assertThat(second.exitCode()).as(second.output()).isZero();
    assertThat(second.output()).contains("ok        payout.requests partitions=2 replication=1")
        .contains("0 created, 0 updated, 0 conflicts");
  }

  @Test
  void shouldRefuseATonApiNodeWhoseClockIsOffNamingItsUrl() throws Exception {
    Home home = Home.locate();
    BuiltJars.require(home.chainPollerJar());
    Path config = config(devnetInThePast.baseUrl().toString());

    Run poller = run(home.chainPollerJar(), config, "--config", config.toString());

    assertThat(poller.exitCode()).as(poller.output()).isEqualTo(StartupException.EXIT_CODE);
    assertThat(poller.output()).contains("chain-poller: cannot start: TON API " + devnetInThePast.baseUrl()
        + " node time ").contains("more than transfer.clock.skew.seconds=10");
  }

  @Test
  void shouldRefuseANodeOfAnotherNetworkNamingBothAndAMissingNetworkSayingWhatToSet() throws Exception {
    Home home = Home.locate();
    BuiltJars.requireChildren(home);
    Path config = config(devnet.baseUrl().toString());

    Run poller = run(home.chainPollerJar(), config, Map.of(PayoutsConfig.envName(PayoutsConfig.TON_NETWORK_CONFIG),
        "mainnet"), "--config", config.toString());
    assertThat(poller.exitCode()).as(poller.output()).isEqualTo(StartupException.EXIT_CODE);
    assertThat(poller.output()).contains("chain-poller: cannot start: TON API " + devnet.baseUrl() + " serves the"
        + " network with global id -42 (devnet), but ton.network=mainnet expects global id -239 (mainnet). Point"
        + " ton.api.url at a mainnet node, or set ton.network to the network you mean to pay on.");

    Files.writeString(config, Files.readString(config).replaceAll("(?m)^" + java.util.regex.Pattern.quote(
        PayoutsConfig.TON_NETWORK_CONFIG) + "=.*$", ""), StandardCharsets.UTF_8);
    Run streamsApp = run(home.streamsAppJar(), config, "--config", config.toString());
    assertThat(streamsApp.exitCode()).as(streamsApp.output()).isEqualTo(StartupException.EXIT_CODE);
    assertThat(streamsApp.output()).contains("streams-app: cannot start: ton.network is not set: set it to mainnet,"
        + " testnet or devnet, the network ton.api.url (" + devnet.baseUrl() + ") serves");
  }

  @Test
  void shouldRefuseToStartWithoutVerdictKeysSayingHowToMakeThem() throws Exception {
    Home home = Home.locate();
    BuiltJars.require(home.chainPollerJar());
    Path config = config(devnet.baseUrl().toString());
    Files.writeString(config, Files.readString(config).replaceAll("(?m)^" + java.util.regex.Pattern.quote(
        PayoutsConfig.VERDICT_MAC_KEYS_CONFIG) + "=.*$", ""), StandardCharsets.UTF_8);

    Run poller = run(home.chainPollerJar(), config, "--config", config.toString());

    assertThat(poller.exitCode()).as(poller.output()).isEqualTo(StartupException.EXIT_CODE);
    assertThat(poller.output()).contains("chain-poller: cannot start: no verdict keys")
        .contains(PayoutsConfig.VERDICT_MAC_KEYS_FILE_CONFIG).contains("openssl rand -hex 32");
  }

  @Test
  void shouldRefuseASecretFileOthersMayReadOrAnInlineWalletKeyNamingTheFix() throws Exception {
    Home home = Home.locate();
    BuiltJars.requireChildren(home);
    Path config = config(devnet.baseUrl().toString());

    Path looseKey = Files.writeString(tmp.resolve("api-key"), "not-a-real-key-0123456789");
    Files.setPosixFilePermissions(looseKey, PosixFilePermissions.fromString("rw-r-----"));
    Run poller = run(home.chainPollerJar(), config, Map.of(PayoutsConfig.envName(PayoutsConfig.TON_API_KEY_FILE_CONFIG),
        looseKey.toString()), "--config", config.toString());
    assertThat(poller.exitCode()).as(poller.output()).isEqualTo(StartupException.EXIT_CODE);
    assertThat(poller.output()).contains("chain-poller: cannot start: ton.api.key.file '" + looseKey
        + "' may be read or written by group or others (rw-r-----): chmod 600 " + looseKey)
        .doesNotContain("not-a-real-key-0123456789");

    Path loosePassword = Files.writeString(tmp.resolve("db-password"), SharedTestInfrastructure.postgres().password());
    Files.setPosixFilePermissions(loosePassword, PosixFilePermissions.fromString("rw-r--r--"));
    Run streamsApp = run(home.streamsAppJar(), config, Map.of(
        PayoutsConfig.envName(PayoutsConfig.POSTGRES_PASSWORD_CONFIG), "",
        PayoutsConfig.envName(PayoutsConfig.POSTGRES_PASSWORD_FILE_CONFIG), loosePassword.toString()),
        "--config", config.toString());
    assertThat(streamsApp.exitCode()).as(streamsApp.output()).isEqualTo(StartupException.EXIT_CODE);
    assertThat(streamsApp.output()).contains("streams-app: cannot start: postgres.password.file '" + loosePassword
        + "' may be read or written by group or others (rw-r--r--): chmod 600 " + loosePassword);

    Run inline = run(home.streamsAppJar(), config, Map.of(WalletSecrets.SEED_FILE_ENV, "",
        WalletSecrets.SEED_ENV, "07".repeat(32)), "--config", config.toString());
    assertThat(inline.exitCode()).as(inline.output()).isEqualTo(StartupException.EXIT_CODE);
    assertThat(inline.output()).contains("streams-app: cannot start: TON_WALLET_SEED_HEX holds the wallet secret"
        + " itself in the environment").contains("set TON_WALLET_SEED_FILE to its path")
        .doesNotContain("07".repeat(32));
  }

  @Test
  void shouldRefusePlainHttpToATonApiHostThatIsNotLoopbackUnlessAllowed() throws Exception {
    Home home = Home.locate();
    BuiltJars.require(home.chainPollerJar());
    Path config = config("http://ton-node.example:8081");

    Run poller = run(home.chainPollerJar(), config, Map.of(), "--config", config.toString());

    assertThat(poller.exitCode()).as(poller.output()).isEqualTo(StartupException.EXIT_CODE);
    assertThat(poller.output()).contains("chain-poller: cannot start: ton.api.url http://ton-node.example:8081 is plain"
        + " http to ton-node.example, which is not a loopback address")
        .contains("Use https://, or set ton.api.insecure.http.allowed=true");
  }

  private Path config(String tonApiUrl) throws IOException {
    Map<String, String> props = new LinkedHashMap<>();
    props.put(PayoutsConfig.KAFKA_BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    props.put(PayoutsConfig.POSTGRES_URL_CONFIG, jdbcUrl);
    props.put(PayoutsConfig.POSTGRES_USER_CONFIG, SharedTestInfrastructure.postgres().user());
    props.put(PayoutsConfig.TON_API_URL_CONFIG, tonApiUrl);
    props.put(PayoutsConfig.TON_NETWORK_CONFIG, "devnet");
    props.put(PayoutsConfig.TON_API_RPS_CONFIG, "1000");
    props.put(PayoutsConfig.STREAMS_STATE_DIR_CONFIG, tmp.resolve("state").toString());
    props.put(PayoutsConfig.TOPICS_PARTITIONS_CONFIG, "2");
    props.put(PayoutsConfig.VERDICT_MAC_KEYS_CONFIG, "startup:" + "5e".repeat(32));
    StringBuilder text = new StringBuilder();
    props.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
    Path file = tmp.resolve("payouts.properties");
    Files.writeString(file, text, StandardCharsets.UTF_8);
    return file;
  }

  record Run(int exitCode, String output) {}

  /** Runs a jar as an operator would, with a clean PAYOUTS_* environment and a throwaway wallet seed. */
  private Run run(Path jar, Path config, String... args) throws Exception {
    return run(jar, config, Map.of(), args);
  }

  /**
   * Runs a jar as an operator would, with a clean PAYOUTS_* environment, a throwaway wallet seed in
   * an owner-only file and {@code env} on top (an empty value removes a variable).
   */
  private Run run(Path jar, Path config, Map<String, String> env, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-jar", jar.toString()));
    command.addAll(List.of(args));
    Path output = Files.createTempFile(tmp, "out", ".txt");
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(output.toFile());
    builder.environment().keySet().removeIf(name -> name.startsWith(PayoutsConfig.ENV_PREFIX)
        || name.startsWith("TON_WALLET_"));
    Path seed = tmp.resolve("wallet-seed");
    SecretFiles.writeOwnerOnly(seed, "07".repeat(32));
    builder.environment().put(WalletSecrets.SEED_FILE_ENV, seed.toString());
    builder.environment().put(PayoutsConfig.envName(PayoutsConfig.POSTGRES_PASSWORD_CONFIG),
        SharedTestInfrastructure.postgres().password());
    env.forEach((name, value) -> {
      if (value.isEmpty()) {
        builder.environment().remove(name);
      } else {
        builder.environment().put(name, value);
      }
    });
    long started = System.nanoTime();
    Process process = builder.start();
    if (!process.waitFor(EXIT_DEADLINE.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(jar.getFileName() + " did not exit within " + EXIT_DEADLINE + ":\n"
          + Files.readString(output, StandardCharsets.UTF_8));
    }
    System.out.printf("%s %s: exit %d after %d ms%n", jar.getFileName(), args[0], process.exitValue(),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    return new Run(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
  }
}
