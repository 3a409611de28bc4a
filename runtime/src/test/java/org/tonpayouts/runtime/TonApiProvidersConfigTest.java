package org.tonpayouts.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ton.api.urls}: several providers, each with its own key file and rate, in order of
 * preference; {@code ton.api.url} alone works as before; both set, an inline key, an unknown
 * attribute or two providers of one name stop the configuration with one line that never shows a key.
 */
class TonApiProvidersConfigTest {
  private static final String KEY_A = "key-a-0123456789abcdef";
  private static final String KEY_B = "key-b-0123456789abcdef";

  @TempDir
  Path tmp;

  private static PayoutsConfig load(Map<String, String> env) {
    return PayoutsConfig.load(Optional.empty(), env);
  }

  private static String env(String key) {
    return PayoutsConfig.envName(key);
  }

  private Path keyFile(String name, String key) throws Exception {
    Path file = tmp.resolve(name);
    Files.writeString(file, key + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
  }

  @Test
  void shouldKeepTheSingleUrlAsOneProvider() {
    PayoutsConfig config = load(Map.of(env(PayoutsConfig.TON_API_URL_CONFIG), "http://127.0.0.1:9999",
        env(PayoutsConfig.TON_API_KEY_CONFIG), KEY_A));

    List<PayoutsConfig.TonApiProvider> providers = config.tonApiProviders();

    assertThat(providers).singleElement().satisfies(p -> {
      assertThat(p.name()).isEqualTo("127.0.0.1:9999");
      assertThat(p.api()).isEqualTo(config.tonApi());
      assertThat(p.api().apiKey()).contains(KEY_A);
    });
  }

  @Test
  void shouldReadEveryProviderWithItsOwnKeyAndRateInOrder() throws Exception {
    Path a = keyFile("a.key", KEY_A);
    Path b = keyFile("b.key", KEY_B);
    PayoutsConfig config = load(Map.of(env(PayoutsConfig.TON_API_URLS_CONFIG),
        "https://toncenter.com|key.file=" + a + "|rate=25 , https://ton.example.net/api/v2|name=own|key.file=" + b,
        env(PayoutsConfig.TON_API_RPS_CONFIG), "7",
        env(PayoutsConfig.TON_API_PROVIDER_SET_ASIDE_MS_CONFIG), "5000",
        env(PayoutsConfig.TON_API_PROVIDER_LAG_BLOCKS_CONFIG), "4"));

    List<PayoutsConfig.TonApiProvider> providers = config.tonApiProviders();

    assertThat(providers).extracting(PayoutsConfig.TonApiProvider::name).containsExactly("toncenter.com", "own");
    assertThat(providers.get(0).api().baseUrl()).hasToString("https://toncenter.com");
    assertThat(providers.get(0).api().apiKey()).contains(KEY_A);
    assertThat(providers.get(0).api().requestsPerSecond()).isEqualTo(25);
    assertThat(providers.get(1).api().apiKey()).contains(KEY_B);
    assertThat(providers.get(1).api().requestsPerSecond()).as("ton.api.requests.per.second").isEqualTo(7);
    assertThat(config.tonApi()).as("the preferred provider").isEqualTo(providers.get(0).api());
    assertThat(config.providerPoolSettings().setAsideFor()).isEqualTo(Duration.ofSeconds(5));
    assertThat(config.providerPoolSettings().lagBlocks()).isEqualTo(4);
    assertThat(config.providerPoolSettings().lagCheckEvery()).as("the default").isEqualTo(Duration.ofSeconds(10));
    assertThat(providers.toString()).doesNotContain(KEY_A).doesNotContain(KEY_B);
  }

  @Test
  void shouldRefuseBothTheSingleUrlAndTheList() {
    assertThatThrownBy(() -> load(Map.of(env(PayoutsConfig.TON_API_URL_CONFIG), "http://127.0.0.1:1",
        env(PayoutsConfig.TON_API_URLS_CONFIG), "http://127.0.0.1:2")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("ton.api.urls and ton.api.url are both set");
  }

  @Test
  void shouldRefuseAKeyWrittenInTheListWithoutShowingIt() {
    assertThatThrownBy(() -> load(Map.of(env(PayoutsConfig.TON_API_URLS_CONFIG),
        "https://toncenter.com|key=" + KEY_A)))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("key.file")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(KEY_A));
  }

  @Test
  void shouldRefuseAMalformedList() {
    assertThatThrownBy(() -> load(Map.of(env(PayoutsConfig.TON_API_URLS_CONFIG),
        "https://a.example.net|weight=3")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("unknown attribute 'weight'");
    assertThatThrownBy(() -> load(Map.of(env(PayoutsConfig.TON_API_URLS_CONFIG),
        "https://a.example.net,https://a.example.net/other")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("two providers are named 'a.example.net'");
    assertThatThrownBy(() -> load(Map.of(env(PayoutsConfig.TON_API_URLS_CONFIG),
        "https://a.example.net|rate=fast")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("rate=fast");
    assertThatThrownBy(() -> load(Map.of(env(PayoutsConfig.TON_API_URLS_CONFIG),
        "https://a.example.net,http://b.example.net")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("plain http to b.example.net");
  }

  @Test
  void shouldRefuseAKeyFileOthersMayRead() throws Exception {
    Path loose = keyFile("loose.key", KEY_A);
    Files.setPosixFilePermissions(loose, PosixFilePermissions.fromString("rw-r--r--"));
    PayoutsConfig config = load(Map.of(env(PayoutsConfig.TON_API_URLS_CONFIG), "https://a.example.net|key.file=" + loose));

    assertThatThrownBy(config::tonApiProviders)
        .isInstanceOf(ConfigException.class).hasMessageContaining("chmod 600")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(KEY_A));
  }
}
