package org.tonpayouts.local.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.ton.keys.WalletKey;
import org.tonpayouts.ton.keys.WalletSecrets;
import org.tonpayouts.ton.network.TonNetwork;

/** What the launcher writes for its children: usable configuration, and secrets only in the environment. */
class ChildConfigTest {
  /** Test-only values; never real secrets. */
  private static final String SEED = "11b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f92";
  private static final String API_KEY = "test-api-key-5d41402abc4b2a76b9719d911017c592";
  private static final String DB_PASSWORD = "test-db-password-7c6a180b";

  @TempDir
  Path tmp;

  private final Clock clock = Clock.fixed(Instant.parse("2026-11-21T12:00:00Z"), ZoneOffset.UTC);

  private ChildConfig childConfig(RunDirectory run) {
    ChildConfig.Settings settings = new ChildConfig.Settings("127.0.0.1:9092", "jdbc:postgresql://localhost:5432/payouts",
        "postgres", URI.create("http://127.0.0.1:8081"), 1_000_000, false, TonNetwork.DEVNET, 698983191L, 698993190L,
        Optional.empty());
    return new ChildConfig(settings, new ChildConfig.Secrets(Optional.of(SEED), Optional.of(API_KEY), DB_PASSWORD), run);
  }

  @Test
  void shouldWriteSecretsOnlyIntoOwnerOnlyFilesAndNoneIntoACommandLine() throws Exception {
    RunDirectory run = RunDirectory.create(tmp, clock);
    ChildConfig config = childConfig(run);

    List<ChildSpec> specs = List.of(config.streamsApp(tmp.resolve("streams-app.jar")),
        config.chainPoller(tmp.resolve("chain-poller.jar")));

    try (Stream<Path> files = Files.walk(run.dir())) {
      List<Path> written = files.filter(Files::isRegularFile).toList();
      assertThat(written).extracting(p -> p.getFileName().toString())
          .contains("streams-app.properties", "chain-poller.properties", "streams-app-logback.xml");
      assertThat(written).extracting(p -> p.getFileName().toString()).contains("wallet-seed", "verdict-keys");
      for (Path file : written) {
        if (List.of("wallet-seed", "verdict-keys").contains(file.getFileName().toString())) {
          assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).as(file.toString())
              .isEqualTo("rw-------");
          continue;
        }
        assertThat(Files.readString(file, StandardCharsets.UTF_8)).as(file.toString())
            .doesNotContain(SEED).doesNotContain(API_KEY).doesNotContain(DB_PASSWORD);
      }
    }
    for (ChildSpec spec : specs) {
      assertThat(String.join(" ", spec.command(Path.of("/usr/bin/java"))))
          .doesNotContain(SEED).doesNotContain(API_KEY).doesNotContain(DB_PASSWORD)
          .contains("-Xmx256m", "-jar", "--config " + spec.configFile());
      assertThat(spec.toString()).doesNotContain(SEED).doesNotContain(API_KEY).doesNotContain(DB_PASSWORD);
    }
    assertThat(new ChildConfig.Secrets(Optional.of(SEED), Optional.of(API_KEY), DB_PASSWORD).toString())
        .doesNotContain(SEED).doesNotContain(API_KEY).doesNotContain(DB_PASSWORD);
  }

  @Test
  void shouldHandTheSeedOnlyToStreamsAppAsAFileAndTheRestToBothThroughTheirEnvironment() {
    RunDirectory run = RunDirectory.create(tmp, clock);
    ChildConfig config = childConfig(run);

    ChildSpec streamsApp = config.streamsApp(tmp.resolve("streams-app.jar"));
    ChildSpec poller = config.chainPoller(tmp.resolve("chain-poller.jar"));

    PayoutsConfig streamsAppConfig = PayoutsConfig.load(Optional.of(streamsApp.configFile()), streamsApp.env());
    assertThat(streamsAppConfig.getBoolean(PayoutsConfig.WALLET_SECRET_INLINE_ALLOWED_CONFIG))
        .as("the local stack needs no inline key").isFalse();
    assertThat(streamsAppConfig.walletKey(streamsApp.env())).isEqualTo(WalletKey.fromSeedHex(SEED));
    assertThat(streamsApp.env()).doesNotContainKey(WalletSecrets.SEED_ENV);
    assertThat(poller.env()).doesNotContainKey(WalletSecrets.SEED_ENV);
    assertThat(PayoutsConfig.load(Optional.of(poller.configFile()), poller.env()).walletSecretFile())
        .as("chain-poller never signs").isEmpty();
    for (ChildSpec spec : List.of(streamsApp, poller)) {
      PayoutsConfig loaded = PayoutsConfig.load(Optional.of(spec.configFile()), spec.env());
      assertThat(loaded.bootstrapServers()).isEqualTo("127.0.0.1:9092");
      assertThat(loaded.requiredTonNetwork()).as("the local stack names its network").isEqualTo(TonNetwork.DEVNET);
      assertThat(loaded.postgresPassword()).isEqualTo(DB_PASSWORD);
      assertThat(loaded.tonApi().apiKey()).contains(API_KEY);
      assertThat(loaded.tonApi().requestsPerSecond()).isEqualTo(1_000_000);
      assertThat(loaded.getString(PayoutsConfig.STREAMS_STATE_DIR_CONFIG)).startsWith(run.dir().toString());
    }
  }
}
