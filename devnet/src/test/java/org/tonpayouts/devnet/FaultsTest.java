package org.tonpayouts.devnet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.wallet.SignedTransfer;
import org.tonpayouts.ton.wallet.TransferOrder;

/** Every injected fault behaves as configured, and is counted. */
class FaultsTest {
  private static final long TON = 1_000_000_000L;

  private final List<Devnet> started = new ArrayList<>();
  private final TestWallet wallet = new TestWallet(3, 698983191L);
  private final TonAddress user = TestWallet.someAddress(20);

  private Devnet start(Duration blockInterval, long seed) {
    Devnet devnet = Devnet.builder().blockInterval(blockInterval).seed(seed).start();
    started.add(devnet);
    return devnet;
  }

  @AfterEach
  void stop() {
    started.forEach(Devnet::close);
  }

  private SignedTransfer transfer(long seqno) {
    return wallet.sign(seqno, Instant.now().plusSeconds(60), new TransferOrder(user, TON / 10, null, false));
  }

  @Test
  void shouldDelayEveryApiRequest() {
    Devnet devnet = start(Duration.ofMillis(50), 1);
    Http http = new Http(devnet);
    devnet.faults().latency(Duration.ofMillis(300));

    long startNanos = System.nanoTime();
    Http.Response response = http.get("getMasterchainInfo", Map.of());
    long tookMs = (System.nanoTime() - startNanos) / 1_000_000;

    assertThat(response.status()).isEqualTo(200);
    assertThat(tookMs).isGreaterThanOrEqualTo(300);
    assertThat(devnet.faults().counts().delayed()).isEqualTo(1);
  }

  @Test
  void shouldTellWhichRequestsWaitInTheLatencyRightNow() throws Exception {
    Devnet devnet = start(Duration.ofMillis(50), 1);
    Http http = new Http(devnet);
    devnet.faults().latency(Duration.ofSeconds(2));

    Thread caller = new Thread(() -> http.get("getMasterchainInfo", Map.of()));
    caller.start();

    await().atMost(Duration.ofSeconds(2)).until(() -> devnet.faults().waitingInLatency("getMasterchainInfo") == 1);
    assertThat(devnet.faults().waitingInLatency("getAddressInformation")).isZero();
    caller.join(10_000);
    assertThat(caller.isAlive()).isFalse();
    assertThat(devnet.faults().waitingInLatency("getMasterchainInfo")).as("answered: no longer waiting").isZero();
  }

  @Test
  void shouldRateLimitTheNextRequestsWithToncentersBody() {
    Devnet devnet = start(Duration.ofMillis(50), 1);
    Http http = new Http(devnet);
    devnet.faults().rateLimitNext(2);

    Http.Response first = http.get("getMasterchainInfo", Map.of());
    Http.Response second = http.rpc(1, "getMasterchainInfo", Map.of());
    Http.Response third = http.get("getMasterchainInfo", Map.of());

    assertThat(first.status()).isEqualTo(429);
    assertThat(first.body().get("ok").asBoolean()).isFalse();
    assertThat(first.body().get("result").asText()).isEqualTo("Ratelimit exceed");
    assertThat(first.body().get("code").asInt()).isEqualTo(429);
    assertThat(second.status()).isEqualTo(429);
    assertThat(third.status()).isEqualTo(200);
    assertThat(devnet.faults().counts().rateLimited()).isEqualTo(2);
  }

  @Test
  void shouldRateLimitOnlySendsWhenScopedToSends() {
    Devnet devnet = start(Duration.ofMillis(50), 1);
    Http http = new Http(devnet);
    devnet.fund(wallet.address, TON);
    devnet.faults().rateLimit(1.0, Faults.RateLimitScope.SENDS);

    Http.Response read = http.get("getMasterchainInfo", Map.of());
    Http.Response rpcRead = http.rpc(1, "getWalletInformation", Map.of("address", wallet.address.toRaw()));
    Http.Response send = http.post("sendBoc", Map.of("boc", transfer(0).boc()));
    Http.Response rpcSend = http.rpc(2, "sendBocReturnHash", Map.of("boc", transfer(0).boc()));

    assertThat(read.status()).as("reads are outside the scope").isEqualTo(200);
    assertThat(rpcRead.status()).isEqualTo(200);
    assertThat(send.status()).isEqualTo(429);
    assertThat(rpcSend.status()).as("a JSON-RPC send is a send too").isEqualTo(429);
    assertThat(devnet.faults().counts().rateLimited()).isEqualTo(2);
    assertThat(devnet.faults().settings().rateLimitScope()).isEqualTo(Faults.RateLimitScope.SENDS);
    devnet.awaitBlocks(2);
    assertThat(devnet.seqno(wallet.address)).as("a 429 processed nothing").isZero();

    devnet.faults().rateLimit(1.0, Faults.RateLimitScope.ALL);
    assertThat(http.get("getMasterchainInfo", Map.of()).status()).isEqualTo(429);
  }

  @Test
  void shouldDrawProbabilisticFaultsFromTheSeed() {
    List<Integer> a = statuses(start(Duration.ofMillis(50), 42));
    List<Integer> b = statuses(start(Duration.ofMillis(50), 42));
    List<Integer> c = statuses(start(Duration.ofMillis(50), 43));

    assertThat(a).isEqualTo(b).contains(200, 429);
    assertThat(c).isNotEqualTo(a);
  }

  private static List<Integer> statuses(Devnet devnet) {
    devnet.faults().rateLimit(0.5);
    Http http = new Http(devnet);
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      statuses.add(http.get("getMasterchainInfo", Map.of()).status());
    }
    return statuses;
  }

  @Test
  void shouldQueueTheMessageAndThenCloseTheConnection() {
    Devnet devnet = start(Duration.ofMillis(50), 1);
    Http http = new Http(devnet);
    devnet.fund(wallet.address, TON);
    devnet.faults().transportErrorNext(1, Faults.TransportError.CLOSE);

    assertThatThrownBy(() -> http.post("sendBoc", Map.of("boc", transfer(0).boc())))
        .hasRootCauseInstanceOf(IOException.class);

    await().atMost(Duration.ofSeconds(5)).until(() -> devnet.seqno(wallet.address) == 1);
    assertThat(devnet.faults().counts().transportErrors()).isEqualTo(1);
    assertThat(http.post("sendBoc", Map.of("boc", transfer(1).boc())).status()).isEqualTo(200); // only the next one
  }

  @Test
  void shouldQueueTheMessageAndThenAnswer502Or504() throws IOException {
    Devnet devnet = start(Duration.ofMillis(50), 1);
    Http http = new Http(devnet);
    devnet.fund(wallet.address, TON);

    devnet.faults().transportErrorNext(1, Faults.TransportError.HTTP_502);
    HttpResponse<String> badGateway = http.sendRaw(HttpRequest.newBuilder(http.uri("/api/v2/sendBoc"))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"boc\":\"" + transfer(0).boc() + "\"}")));
    assertThat(badGateway.statusCode()).isEqualTo(502);
    assertThat(badGateway.body()).contains("502 Bad Gateway");
    await().atMost(Duration.ofSeconds(5)).until(() -> devnet.seqno(wallet.address) == 1);

    devnet.faults().transportErrorNext(1, Faults.TransportError.HTTP_504);
    Http.Response timeout = http.post("sendBocReturnHash", Map.of("boc", transfer(1).boc()));
    assertThat(timeout.status()).isEqualTo(504);
    assertThat(timeout.error()).isEqualTo("Liteserver timeout");
    await().atMost(Duration.ofSeconds(5)).until(() -> devnet.seqno(wallet.address) == 2);
    assertThat(devnet.faults().counts().transportErrors()).isEqualTo(2);
  }

  /** A provider down (issue 27): everything 503, a send reaches no mempool; back up, the same BOC applies. */
  @Test
  void shouldAnswerEveryRequest503WithoutProcessingItDuringAnOutage() {
    Devnet devnet = start(Duration.ofMillis(50), 1);
    Http http = new Http(devnet);
    devnet.fund(wallet.address, TON);
    devnet.faults().outage(true);

    Http.Response read = http.get("getMasterchainInfo", Map.of());
    Http.Response rpc = http.rpc(1, "getMasterchainInfo", Map.of());
    Http.Response send = http.post("sendBoc", Map.of("boc", transfer(0).boc()));

    assertThat(read.status()).isEqualTo(503);
    assertThat(read.body().get("ok").asBoolean()).isFalse();
    assertThat(rpc.status()).isEqualTo(503);
    assertThat(send.status()).isEqualTo(503);
    devnet.awaitBlocks(3);
    assertThat(devnet.seqno(wallet.address)).as("the send reached no mempool").isZero();
    assertThat(devnet.faults().outageAnswers()).isEqualTo(3);

    devnet.faults().outage(false);
    assertThat(http.get("getMasterchainInfo", Map.of()).status()).isEqualTo(200);
    assertThat(http.post("sendBoc", Map.of("boc", transfer(0).boc())).status()).isEqualTo(200);
    await().atMost(Duration.ofSeconds(5)).until(() -> devnet.seqno(wallet.address) == 1);
    assertThat(devnet.faults().outageAnswers()).isEqualTo(3);
    devnet.faults().outage(true).clear();
    assertThat(http.get("getMasterchainInfo", Map.of()).status()).as("clear() ends an outage").isEqualTo(200);
  }

  @Test
  void shouldAnswerOkButNeverApplyADroppedMessage() {
    Devnet devnet = start(Duration.ofMillis(50), 1);
    Http http = new Http(devnet);
    devnet.fund(wallet.address, TON);
    devnet.faults().dropNext(1);

    Http.Response response = http.post("sendBocReturnHash", Map.of("boc", transfer(0).boc()));

    assertThat(response.status()).isEqualTo(200);
    assertThat(response.result().get("hash").asText()).isNotEmpty();
    devnet.awaitBlocks(3);
    assertThat(devnet.seqno(wallet.address)).isZero();
    assertThat(devnet.transactions(wallet.address)).hasSize(1); // the funding only
    assertThat(devnet.faults().counts().dropped()).isEqualTo(1);
    // the same BOC sent again is not dropped and applies
    assertThat(http.post("sendBoc", Map.of("boc", transfer(0).boc())).status()).isEqualTo(200);
    await().atMost(Duration.ofSeconds(5)).until(() -> devnet.seqno(wallet.address) == 1);
  }

  @Test
  void shouldAnswerStateReadsAsOfKBlocksAgo() {
    Devnet devnet = start(Duration.ZERO, 1);
    Http http = new Http(devnet);
    devnet.fund(wallet.address, TON);
    devnet.produceBlock();
    http.post("sendBoc", Map.of("boc", transfer(0).boc()));
    devnet.produceBlock(); // seqno 1
    http.post("sendBoc", Map.of("boc", transfer(1).boc()));
    devnet.produceBlock(); // seqno 2
    devnet.produceBlock();
    String address = wallet.friendly();
    assertThat(http.walletSeqno(address)).isEqualTo(2);

    devnet.faults().staleReads(2, 1.0);
    JsonNode info = http.get("getWalletInformation", Map.of("address", address)).result();
    JsonNode seqno = http.post("runGetMethod", Map.of("address", address, "method", "seqno", "stack", List.of())).result();
    devnet.faults().staleReads(3, 1.0);
    JsonNode older = http.get("getAddressInformation", Map.of("address", address)).result();
    devnet.faults().clear();

    assertThat(info.get("seqno").asLong()).isEqualTo(1);
    assertThat(seqno.get("stack").get(0).get(1).asText()).isEqualTo("0x1");
    assertThat(older.get("state").asText()).isEqualTo("uninitialized"); // before the deploying block
    assertThat(older.get("block_id").get("seqno").asLong()).isEqualTo(devnet.masterchainSeqno() - 3);
    assertThat(http.walletSeqno(address)).isEqualTo(2);
    assertThat(devnet.faults().counts().staleReads()).isEqualTo(3);
  }

  @Test
  void shouldCarryTheOldBlocksTimeInAStaleRead() {
    ManualClock clock = ManualClock.fixedAt(Instant.parse("2026-03-01T12:00:00Z"));
    Devnet devnet = Devnet.builder().blockInterval(Duration.ZERO).clock(clock).start();
    started.add(devnet);
    Http http = new Http(devnet);
    devnet.fund(wallet.address, TON);
    long genesisUtime = devnet.lastBlock().utime();
    for (int i = 0; i < 4; i++) {
      clock.advance(Duration.ofSeconds(7));
      devnet.produceBlock();
    }
    String address = wallet.friendly();

    devnet.faults().staleReadNext(2, 1);
    JsonNode stale = http.get("getAddressInformation", Map.of("address", address)).result();
    devnet.faults().staleReadNext(1_000, 1);
    JsonNode beforeTheStart = http.post("runGetMethod", Map.of("address", address, "method", "seqno",
        "stack", List.of())).result();
    devnet.faults().staleReadNext(1_000, 1);
    JsonNode oldest = http.get("getAddressInformation", Map.of("address", address)).result();
    JsonNode current = http.get("getAddressInformation", Map.of("address", address)).result();

    assertThat(stale.get("block_id").get("seqno").asLong()).isEqualTo(2);
    assertThat(stale.get("sync_utime").asLong()).isEqualTo(genesisUtime + 2 * 7);
    assertThat(beforeTheStart.get("block_id").get("seqno").asLong()).as("never past the chain start").isZero();
    assertThat(oldest.get("sync_utime").asLong()).isEqualTo(genesisUtime);
    assertThat(current.get("block_id").get("seqno").asLong()).isEqualTo(4);
    assertThat(current.get("sync_utime").asLong()).isEqualTo(genesisUtime + 4 * 7);
  }

  @Test
  void shouldReplaceFaultSettingsAndShowCountsThroughTheAdminApi() {
    Devnet devnet = start(Duration.ofMillis(50), 1);
    Http http = new Http(devnet);

    Http.Response replaced = http.admin("faults", Map.of("rateLimitNext", 1, "latencyMs", 5));
    Http.Response limited = http.get("getMasterchainInfo", Map.of());
    Http.Response read = http.admin("faults", null);
    devnet.awaitBlocks(1); // masterchain_seqno below must have moved, whatever the timing
    Http.Response state = http.admin("state", null);
    Http.Response invalid = http.admin("faults", Map.of("dropProbability", 2));

    assertThat(replaced.status()).isEqualTo(200);
    assertThat(replaced.result().get("settings").get("rateLimitNext").asInt()).isEqualTo(1);
    assertThat(limited.status()).isEqualTo(429);
    assertThat(read.result().get("settings").get("rateLimitNext").asInt()).isZero(); // counted down
    assertThat(read.result().get("settings").get("latencyMs").asLong()).isEqualTo(5);
    assertThat(state.result().get("faults").get("counts").get("rateLimited").asLong()).isEqualTo(1);
    assertThat(state.result().get("faults").get("counts").get("delayed").asLong()).isEqualTo(1);
    assertThat(state.result().get("masterchain_seqno").asLong()).isPositive();
    assertThat(invalid.status()).isEqualTo(400);
    assertThat(invalid.error()).contains("dropProbability");
  }
}
