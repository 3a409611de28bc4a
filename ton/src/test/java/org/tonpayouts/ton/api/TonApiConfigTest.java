package org.tonpayouts.ton.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class TonApiConfigTest {
  private static final URI TONCENTER = URI.create("https://toncenter.com");

  @Test
  void shouldHaveSaneDefaults() {
    TonApiConfig config = TonApiConfig.of(TONCENTER);

    assertThat(config.apiKey()).isEmpty();
    assertThat(config.requestsPerSecond()).isEqualTo(10.0);
    assertThat(config.callTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.maxReadAttempts()).isEqualTo(3);
    assertThat(config.retryBackoff()).isEqualTo(Duration.ofMillis(200));
  }

  @Test
  void shouldNeverShowTheKey() {
    TonApiConfig config = TonApiConfig.of(TONCENTER).withApiKey("super-secret-key-123");

    assertThat(config.apiKey()).contains("super-secret-key-123");
    assertThat(config.toString()).doesNotContain("super-secret-key-123").contains("apiKey=<set>");
    assertThat(TonApiConfig.of(TONCENTER).toString()).contains("apiKey=<none>");
  }

  @Test
  void shouldTreatABlankKeyAsNoKey() {
    assertThat(TonApiConfig.of(TONCENTER).withApiKey("  ").apiKey()).isEmpty();
  }

  @Test
  void shouldRejectCredentialsInTheUrlAndNonsenseLimits() {
    assertThatThrownBy(() -> TonApiConfig.of(URI.create("https://toncenter.com/?api_key=abc")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageNotContaining("abc");
    assertThatThrownBy(() -> TonApiConfig.of(URI.create("ftp://toncenter.com"))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> TonApiConfig.of(TONCENTER).withRequestsPerSecond(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> TonApiConfig.of(TONCENTER).withRequestsPerSecond(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> TonApiConfig.of(TONCENTER).withCallTimeout(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> TonApiConfig.of(TONCENTER).withMaxReadAttempts(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> TonApiConfig.of(TONCENTER).withRetryBackoff(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> TonApiConfig.of(TONCENTER).withMaxInFlight(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxInFlight");
  }

  @Test
  void shouldRefusePlainHttpToAHostThatIsNotLoopbackUnlessAllowed() {
    assertThatThrownBy(() -> TonApiConfig.of(URI.create("http://toncenter.com")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("baseUrl http://toncenter.com is plain http to toncenter.com, which is not a loopback address:"
            + " anyone on the path could read the API key and forge the answers verdicts rest on. Use https, or allow"
            + " plain http explicitly for a network you trust");
    for (String host : new String[] {"localhost", "LOCALHOST", "127.0.0.1", "127.255.0.9", "[::1]"}) {
      assertThat(TonApiConfig.of(URI.create("http://" + host + ":8081")).plainHttpAllowed()).as(host).isFalse();
    }
    for (String host : new String[] {"10.0.0.1", "128.0.0.1", "localhost.evil.example", "[::2]", "0.0.0.0"}) {
      assertThat(TonApiConfig.isPlainHttpToRemoteHost(URI.create("http://" + host + ":8081"))).as(host).isTrue();
    }
    TonApiConfig remote = new TonApiConfig(URI.create("http://devnet:8081"), java.util.Optional.empty(), 10,
        Duration.ofSeconds(1), 1, Duration.ZERO, 1, 4096, true);
    assertThat(remote.plainHttpAllowed()).isTrue();
    assertThat(remote.toString()).contains("plainHttpAllowed");
  }

  @Test
  void shouldCapAnswersAtSixteenMebibytesByDefault() {
    assertThat(TonApiConfig.of(TONCENTER).maxResponseBytes()).isEqualTo(16L * 1024 * 1024);
    assertThat(TonApiConfig.of(TONCENTER).withMaxResponseBytes(4096).maxResponseBytes()).isEqualTo(4096);
    assertThatThrownBy(() -> TonApiConfig.of(TONCENTER).withMaxResponseBytes(100))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxResponseBytes");
  }
}
