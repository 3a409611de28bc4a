package org.tonpayouts.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.ton.api.TonApiConfig;
import org.tonpayouts.ton.keys.SecretFiles;
import org.tonpayouts.ton.keys.WalletKey;
import org.tonpayouts.ton.keys.WalletSecrets;

/**
 * Every secret has a file variant read one way: a file group or others may read stops the
 * configuration with a message naming the file and {@code chmod 600}, never the secret; the wallet
 * key inline in the environment is refused unless the laptop demo allows it; plain http to a TON
 * API host that is not loopback is refused unless allowed.
 */
class PayoutsConfigSecretsTest {
  private static final String SECRET = "s3cret-0123456789abcdef-0123456789abcdef";
  private static final String VERDICT_KEYS = "k1:" + "ab".repeat(32);
  private static final String SEED = "07".repeat(32);

  @TempDir
  Path tmp;

  /** A secret key's file variant and how the configuration hands the secret out. */
  private record SecretKey(String fileKey, String content, Function<PayoutsConfig, Object> read, Object expected) {}

  private static final List<SecretKey> SECRETS = List.of(
      new SecretKey(PayoutsConfig.POSTGRES_PASSWORD_FILE_CONFIG, SECRET, PayoutsConfig::postgresPassword, SECRET),
      new SecretKey(PayoutsConfig.TON_API_KEY_FILE_CONFIG, SECRET, c -> c.tonApi().apiKey(), Optional.of(SECRET)),
      new SecretKey(PayoutsConfig.ADMIN_TOKEN_FILE_CONFIG, SECRET, PayoutsConfig::adminToken, Optional.of(SECRET)),
      new SecretKey(PayoutsConfig.VERDICT_MAC_KEYS_FILE_CONFIG, VERDICT_KEYS, c -> c.verdictMacKeys().orElseThrow()
          .value(), VERDICT_KEYS),
      new SecretKey(PayoutsConfig.WALLET_SECRET_FILE_CONFIG, SEED, c -> c.walletKey(Map.of()),
          WalletKey.fromSeedHex(SEED)));

  @Test
  void shouldReadEverySecretFromAnOwnerOnlyFile() throws Exception {
    for (SecretKey secret : SECRETS) {
      Path file = tmp.resolve(secret.fileKey());
      SecretFiles.writeOwnerOnly(file, "  " + secret.content() + "\n");

      PayoutsConfig config = load(Map.of(PayoutsConfig.envName(secret.fileKey()), file.toString()));

      assertThat(secret.read().apply(config)).as(secret.fileKey()).isEqualTo(secret.expected());
    }
  }

  @Test
  void shouldRefuseEverySecretFileGroupOrOthersMayReadNamingTheFileAndTheFix() throws Exception {
    for (SecretKey secret : SECRETS) {
      for (String mode : List.of("rw-r-----", "rw-r--r--")) {
        Path file = Files.writeString(tmp.resolve(secret.fileKey() + "-" + mode), secret.content());
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
        PayoutsConfig config = load(Map.of(PayoutsConfig.envName(secret.fileKey()), file.toString()));

        assertThatThrownBy(() -> secret.read().apply(config)).as(secret.fileKey() + " " + mode)
            .isInstanceOf(ConfigException.class)
            .hasMessageContaining(file + "' may be read or written by group or others (" + mode + "): chmod 600 " + file)
            .hasMessageNotContaining(secret.content());
      }
    }
  }

  @Test
  void shouldTakeTheSecretFromTheEnvironmentBeforeItsFile() throws Exception {
    Path file = tmp.resolve("password");
    SecretFiles.writeOwnerOnly(file, "from-the-file");

    PayoutsConfig config = load(Map.of(PayoutsConfig.envName(PayoutsConfig.POSTGRES_PASSWORD_CONFIG), SECRET,
        PayoutsConfig.envName(PayoutsConfig.POSTGRES_PASSWORD_FILE_CONFIG), file.toString()));

    assertThat(config.postgresPassword()).isEqualTo(SECRET);
    assertThat(config.secret(PayoutsConfig.POSTGRES_PASSWORD_CONFIG, PayoutsConfig.POSTGRES_PASSWORD_FILE_CONFIG)
        .orElseThrow().toString()).isEqualTo("Secret[from PAYOUTS_POSTGRES_PASSWORD]");
    assertThat(load(Map.of()).postgresPassword()).isEmpty();
    assertThat(load(Map.of()).tonApi().apiKey()).isEmpty();
  }

  @Test
  void shouldRefuseTheWalletKeyInlineUnlessTheDemoAllowsIt() {
    Map<String, String> inline = Map.of(WalletSecrets.SEED_ENV, SEED);

    assertThatThrownBy(() -> load(Map.of()).walletKey(inline)).isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("TON_WALLET_SEED_HEX holds the wallet secret itself in the environment, which is refused"
            + " outside the laptop demo")
        .hasMessageContaining("chmod 600").hasMessageContaining("set TON_WALLET_SEED_FILE to its path")
        .hasMessageNotContaining(SEED);
    PayoutsConfig demo = load(Map.of(PayoutsConfig.envName(PayoutsConfig.WALLET_SECRET_INLINE_ALLOWED_CONFIG), "true"));
    assertThat(demo.walletKey(inline)).isEqualTo(WalletKey.fromSeedHex(SEED));
  }

  @Test
  void shouldRefusePlainHttpToAHostThatIsNotLoopbackUnlessAllowed() {
    String url = PayoutsConfig.envName(PayoutsConfig.TON_API_URL_CONFIG);

    assertThatThrownBy(() -> load(Map.of(url, "http://10.0.0.7:8081"))).isInstanceOf(ConfigException.class)
        .hasMessage("ton.api.url http://10.0.0.7:8081 is plain http to 10.0.0.7, which is not a loopback address:"
            + " anyone on the path could read the API key and forge the answers verdicts rest on. Use https://, or set"
            + " ton.api.insecure.http.allowed=true for a network nobody else can read or change");
    assertThatThrownBy(() -> load(Map.of(url, "http://localhost.example.com"))).isInstanceOf(ConfigException.class);
    for (String loopback : List.of("http://localhost:8081", "http://127.0.0.1:8081", "http://127.8.9.10",
        "http://[::1]:8081", "https://toncenter.com")) {
      assertThat(load(Map.of(url, loopback)).tonApi().baseUrl()).hasToString(loopback);
    }
    TonApiConfig allowed = load(Map.of(url, "http://devnet:8081",
        PayoutsConfig.envName(PayoutsConfig.TON_API_INSECURE_HTTP_ALLOWED_CONFIG), "true")).tonApi();
    assertThat(allowed.plainHttpAllowed()).isTrue();
    assertThat(allowed.baseUrl()).hasToString("http://devnet:8081");
  }

  @Test
  void shouldCapTheTonApiAnswersAtSixteenMebibytesUnlessConfigured() {
    assertThat(load(Map.of()).tonApi().maxResponseBytes()).isEqualTo(16L * 1024 * 1024);
    assertThat(load(Map.of(PayoutsConfig.envName(PayoutsConfig.TON_API_MAX_RESPONSE_BYTES_CONFIG), "1048576")).tonApi()
        .maxResponseBytes()).isEqualTo(1_048_576);
    assertThatThrownBy(() -> load(Map.of(PayoutsConfig.envName(PayoutsConfig.TON_API_MAX_RESPONSE_BYTES_CONFIG), "10")))
        .isInstanceOf(ConfigException.class).hasMessageContaining(PayoutsConfig.TON_API_MAX_RESPONSE_BYTES_CONFIG);
  }

  private static PayoutsConfig load(Map<String, String> env) {
    return PayoutsConfig.load(Optional.empty(), env);
  }
}
