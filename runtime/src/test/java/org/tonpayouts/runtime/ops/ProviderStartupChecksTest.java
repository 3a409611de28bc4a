package org.tonpayouts.runtime.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.StartupException;
import org.tonpayouts.ton.api.ProviderPool;
import org.tonpayouts.ton.cell.TonCell;
import org.tonpayouts.ton.network.TonNetwork;

/**
 * The start-up checks with several providers: network and clock are checked on every provider of
 * the pool (its answers carry its own time, and calls go to it whenever the others fail), and one
 * that cannot be read refuses the start naming its URL, even when the preferred one is fine.
 */
class ProviderStartupChecksTest {
  private Devnet devnet;
  private ProcessMetrics metrics;

  @BeforeEach
  void start() {
    devnet = Devnet.builder().blockInterval(Duration.ofMillis(100)).start();
    metrics = new ProcessMetrics("test");
  }

  @AfterEach
  void stop() {
    metrics.close();
    devnet.close();
  }

  private PayoutProcess process(String urls) {
    PayoutsConfig config = new PayoutsConfig(Map.of(PayoutsConfig.TON_API_URLS_CONFIG, urls,
        PayoutsConfig.TON_NETWORK_CONFIG, TonNetwork.DEVNET.name().toLowerCase(java.util.Locale.ROOT)));
    return new PayoutProcess("chain-poller", config, Optional.empty(), metrics, Clock.systemUTC());
  }

  private ProviderPool pool(String urls) {
    PayoutsConfig config = new PayoutsConfig(Map.of(PayoutsConfig.TON_API_URLS_CONFIG, urls));
    List<PayoutsConfig.TonApiProvider> providers = config.tonApiProviders().stream()
        .map(p -> new PayoutsConfig.TonApiProvider(p.name(), p.api().withCallTimeout(Duration.ofSeconds(2))))
        .toList();
    return TonApiPools.open(providers, config.providerPoolSettings(), null, Clock.systemUTC());
  }

  @Test
  void shouldCheckEveryProvider() {
    String urls = devnet.apiUrl() + "|name=a," + devnet.node("b").apiUrl() + "|name=b";
    PayoutProcess process = process(urls);
    try (ProviderPool pool = pool(urls)) {
      assertThat(process.verifyNetwork(pool)).isEqualTo(TonNetwork.DEVNET);
      assertThat(process.verifyNodeClock(pool).withinLimit()).isTrue();
    }
  }

  /**
   * A node of testnet: the one answer the check asks for, in toncenter's shape. devnet serves only
   * its own network, so this stands in for a provider pointed at the wrong network.
   */
  private static HttpServer testnetNode() throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    String cell = TonCell.builder().storeInt(TonNetwork.TESTNET.globalId(), 32).endCell().toBase64();
    byte[] body = ("{\"ok\":true,\"result\":{\"@type\":\"configInfo\",\"config\":{\"@type\":\"tvm.cell\","
        + "\"bytes\":\"" + cell + "\"}}}").getBytes(StandardCharsets.UTF_8);
    server.createContext("/api/v2/getConfigParam", exchange -> {
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
    return server;
  }

  @Test
  void shouldRefuseTheStartNamingAProviderOfAnotherNetwork() throws IOException {
    HttpServer testnet = testnetNode();
    try {
      URI wrong = URI.create("http://127.0.0.1:" + testnet.getAddress().getPort());
      String urls = devnet.apiUrl() + "|name=a," + wrong + "|name=wrong";
      PayoutProcess process = process(urls);
      try (ProviderPool pool = pool(urls)) {
        assertThatThrownBy(() -> process.verifyNetwork(pool))
            .isInstanceOf(StartupException.class)
            .hasMessageContaining("TON API " + wrong + " serves the network with global id -3 (testnet), but"
                + " ton.network=devnet expects global id -42 (devnet)")
            .hasMessageContaining("Point provider 'wrong' of ton.api.urls at a devnet node");
      }
    } finally {
      testnet.stop(0);
    }
  }

  @Test
  void shouldRefuseTheStartNamingAProviderThatCannotBeRead() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    URI nowhere = URI.create("http://127.0.0.1:" + closedPort);
    String urls = devnet.apiUrl() + "|name=a," + nowhere + "|name=gone";
    PayoutProcess process = process(urls);
    try (ProviderPool pool = pool(urls)) {
      assertThatThrownBy(() -> process.verifyNetwork(pool))
          .isInstanceOf(StartupException.class)
          .hasMessageContaining("TON API " + nowhere);
    }
  }
}
