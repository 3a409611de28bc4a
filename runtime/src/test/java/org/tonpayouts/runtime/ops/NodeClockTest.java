package org.tonpayouts.runtime.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;

/** The API node's clock against ours, read from devnet's sync_utime. */
class NodeClockTest {
  private static final Duration SKEW = Duration.ofSeconds(10);
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

  private static NodeClock nodeClock(TonApiClient client, URI url, Clock clock) {
    return new NodeClock(client, url, clock, SKEW, Duration.ofSeconds(5));
  }

  @Test
  void shouldAcceptANodeInStepWithOurClock() {
    NodeClock.Reading reading = nodeClock(api, devnet.baseUrl(), Clock.systemUTC()).verify();

    assertThat(reading.skew()).isLessThan(Duration.ofSeconds(2));
    assertThat(reading.describe()).startsWith("TON API " + devnet.baseUrl() + " node time ");
  }

  @Test
  void shouldRefuseToStartWhenOurClockIsBeyondTheSkewNamingTheUrl() {
    Clock ahead = Clock.offset(Clock.systemUTC(), Duration.ofSeconds(60));

    assertThatThrownBy(() -> nodeClock(api, devnet.baseUrl(), ahead).verify())
        .isInstanceOf(NodeClock.NodeClockException.class)
        .hasMessageStartingWith("TON API " + devnet.baseUrl() + " node time ")
        .hasMessageContaining("more than transfer.clock.skew.seconds=10")
        .hasMessageContaining("NTP");
    assertThat(nodeClock(api, devnet.baseUrl(), ahead).check().check().up()).isFalse();
  }

  @Test
  void shouldAskAgainAtStartWhileTheNodeSaysNotNow() {
    long limited = devnet.faults().counts().rateLimited();
    try (TonApiClient patient = new TonApiClient(TonApiConfig.of(devnet.baseUrl()).withMaxReadAttempts(1))) {
      devnet.faults().rateLimitNext(2); // more than the client's own retries (one attempt here)

      NodeClock.Reading reading = nodeClock(patient, devnet.baseUrl(), Clock.systemUTC()).verify();

      assertThat(reading.withinLimit()).isTrue();
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
      NodeClock clock = nodeClock(nowhere, url, Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));

      assertThatThrownBy(clock::verify)
          .isInstanceOf(NodeClock.NodeClockException.class)
          .hasMessageStartingWith("cannot reach TON API " + url + ": TransportException: getAddressInformation:"
              + " cannot connect to " + url + "/api/v2/getAddressInformation: java.net.ConnectException");
      CheckResult down = clock.check().check();
      assertThat(down.up()).isFalse();
      assertThat(down.detail()).isEqualTo("TransportException").doesNotContain("127.0.0.1");
      assertThat(down.cause()).as("the log still says where").startsWith("cannot reach TON API " + url);
    }
  }
}
