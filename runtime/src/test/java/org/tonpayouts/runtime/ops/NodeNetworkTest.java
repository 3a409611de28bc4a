package org.tonpayouts.runtime.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.StartupException;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;
import org.tonpayouts.ton.network.TonNetwork;

/** The API node's network (its global id, configuration parameter 19) against ton.network, on devnet. */
class NodeNetworkTest {
  private static Devnet devnet;
  private static TonApiClient api;

  @BeforeAll
  static void start() {
    devnet = Devnet.builder().blockInterval(Duration.ofMillis(100)).start();
    api = new TonApiClient(TonApiConfig.of(devnet.baseUrl()).withRequestsPerSecond(1000));
  }

  @AfterAll
  static void stop() {
    api.close();
    devnet.close();
  }

  private static NodeNetwork expecting(TonApiClient client, URI url, TonNetwork network) {
    return new NodeNetwork(client, url, network, Duration.ofSeconds(5));
  }

  @Test
  void shouldAcceptTheNodeOfTheConfiguredNetwork() {
    assertThat(expecting(api, devnet.baseUrl(), TonNetwork.DEVNET).verify()).isEqualTo(TonNetwork.DEVNET);
    assertThat(expecting(api, devnet.baseUrl(), TonNetwork.DEVNET).readGlobalId()).isEqualTo(TonNetwork.DEVNET_GLOBAL_ID);
  }

  @Test
  void shouldRefuseANodeOfAnotherNetworkNamingBothNetworksAndIds() {
    assertThatThrownBy(() -> expecting(api, devnet.baseUrl(), TonNetwork.MAINNET).verify())
        .isInstanceOf(NodeNetwork.NodeNetworkException.class)
        .isInstanceOf(StartupException.class)
        .hasMessage("TON API " + devnet.baseUrl() + " serves the network with global id -42 (devnet), but"
            + " ton.network=mainnet expects global id -239 (mainnet). Point ton.api.url at a mainnet node, or set"
            + " ton.network to the network you mean to pay on.");
    assertThatThrownBy(() -> expecting(api, devnet.baseUrl(), TonNetwork.TESTNET).verify())
        .hasMessageContaining("global id -42 (devnet), but ton.network=testnet expects global id -3 (testnet)");
  }

  @Test
  void shouldAskAgainAtStartWhileTheNodeSaysNotNow() {
    long limited = devnet.faults().counts().rateLimited();
    try (TonApiClient patient = new TonApiClient(TonApiConfig.of(devnet.baseUrl()).withMaxReadAttempts(1))) {
      devnet.faults().rateLimitNext(2); // more than the client's own retries (one attempt here)

      assertThat(expecting(patient, devnet.baseUrl(), TonNetwork.DEVNET).verify()).isEqualTo(TonNetwork.DEVNET);

      assertThat(devnet.faults().counts().rateLimited() - limited).as("both 429s answered, then a reading").isEqualTo(2);
    } finally {
      devnet.faults().clear();
    }
  }

  @Test
  void shouldNameTheUrlAndTheCauseWhenTheNodeCannotBeReached() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    URI url = URI.create("http://127.0.0.1:" + closedPort);
    try (TonApiClient nowhere = new TonApiClient(TonApiConfig.of(url).withMaxReadAttempts(1))) {
      assertThatThrownBy(() -> expecting(nowhere, url, TonNetwork.MAINNET).verify())
          .isInstanceOf(NodeNetwork.NodeNetworkException.class)
          .hasMessageStartingWith("cannot read the network's global id (getConfigParam, parameter 19) from TON API "
              + url + ": TransportException: getConfigParam: cannot connect to " + url + "/api/v2/getConfigParam");
    }
  }

  @Test
  void shouldRefuseToStartWithoutTonNetworkSayingWhatToSet() {
    PayoutsConfig unset = new PayoutsConfig(Map.of(PayoutsConfig.TON_API_URL_CONFIG, devnet.baseUrl().toString(),
        PayoutsConfig.TON_TESTNET_CONFIG, "true"));
    try (ProcessMetrics metrics = new ProcessMetrics("test")) {
      PayoutProcess process = new PayoutProcess("chain-poller", unset, Optional.empty(), metrics,
          java.time.Clock.systemUTC());

      assertThatThrownBy(() -> process.verifyNetwork(api))
          .isInstanceOf(StartupException.class)
          .hasMessage("ton.network is not set: set it to mainnet, testnet or devnet, the network ton.api.url ("
              + devnet.baseUrl() + ") serves; the process checks the node's global id against it before it signs or"
              + " reads anything (ton.testnet=true only chooses how addresses are shown: for testnet set"
              + " ton.network=testnet)");
    }
  }
}
