package org.tonpayouts.ton.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.type;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.tonpayouts.ton.address.TonAddress;

/**
 * The client's HTTP behaviour against a small recording HTTP peer on 127.0.0.1: where the API key
 * goes, what is retried and what is not, timeouts, and the spacing of the rate limiter.
 */
class TonApiClientHttpTest {
  private static final String KEY = "k3y-7d2f9a61e0b84c55a1b2c3d4e5f60718";
  private static final TonAddress WALLET = TonAddress.parse("EQAlkiTak6MlHRgaImxjUdb3SsEE7PA43ZxGGzZ8Cm2hOE2N");
  private static final String OK_MASTERCHAIN = fixture("getMasterchainInfo.json");
  private static final String OK_WALLET = fixture("getWalletInformation-active.json");

  /** One request as the peer saw it. */
  record Seen(String httpMethod, URI uri, Map<String, List<String>> headers, String body, long receivedNanos) {
    String header(String name) {
      return headers.entrySet().stream()
          .filter(e -> e.getKey().equalsIgnoreCase(name))
          .map(e -> e.getValue().get(0))
          .findFirst().orElse(null);
    }
  }

  /** What the peer answers; {@code stall} holds the request until the test ends. */
  record Reply(int status, String body, Map<String, String> headers, boolean stall) {
    static Reply ok(String body) {
      return new Reply(200, body, Map.of(), false);
    }

    static Reply status(int status, String body) {
      return new Reply(status, body, Map.of(), false);
    }

    static Reply stalled() {
      return new Reply(0, "", Map.of(), true);
    }
  }

  private final List<Seen> seen = new CopyOnWriteArrayList<>();
  private final Deque<Reply> script = new ConcurrentLinkedDeque<>();
  private final CountDownLatch release = new CountDownLatch(1);
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private HttpServer server;
  private ExecutorService serverThreads;
  private TonApiClient client;
  private Reply fallback = Reply.ok(OK_MASTERCHAIN);

  private static String fixture(String name) {
    return ToncenterFixtures.text(name);
  }

  @BeforeEach
  void startPeer() throws IOException {
    serverThreads = Executors.newCachedThreadPool();
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(serverThreads);
    server.createContext("/", this::handle);
    server.start();

    Logger clientLog = (Logger) LoggerFactory.getLogger(TonApiClient.class);
    clientLog.setLevel(Level.DEBUG);
    logs.start();
    clientLog.addAppender(logs);
  }

  @AfterEach
  void stopPeer() {
    release.countDown();
    if (client != null) {
      client.close();
    }
    server.stop(0);
    serverThreads.shutdownNow();
    Logger clientLog = (Logger) LoggerFactory.getLogger(TonApiClient.class);
    clientLog.detachAppender(logs);
    assertThat(logs.list).extracting(ILoggingEvent::getFormattedMessage)
        .as("the API key never reaches a log line")
        .noneMatch(line -> line.contains(KEY));
  }

  private void handle(HttpExchange exchange) throws IOException {
    long now = System.nanoTime();
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    seen.add(new Seen(exchange.getRequestMethod(), exchange.getRequestURI(),
        Map.copyOf(exchange.getRequestHeaders()), body, now));
    Reply reply = Optional.ofNullable(script.pollFirst()).orElse(fallback);
    if (reply.stall()) {
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      exchange.close();
      return;
    }
    byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    reply.headers().forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
    exchange.sendResponseHeaders(reply.status(), bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      exchange.getResponseBody().write(bytes);
    }
    exchange.close();
  }

  private URI baseUrl() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  private TonApiClient client(TonApiConfig config) {
    client = new TonApiClient(config);
    return client;
  }

  private TonApiConfig fastConfig() {
    return TonApiConfig.of(baseUrl())
        .withApiKey(KEY)
        .withRequestsPerSecond(1000)
        .withCallTimeout(Duration.ofSeconds(5))
        .withMaxReadAttempts(3)
        .withRetryBackoff(Duration.ofMillis(5));
  }

  private static Throwable failureOf(CompletableFuture<?> future) {
    assertThatThrownBy(future::join).isInstanceOf(CompletionException.class);
    return future.handle((v, e) -> e instanceof CompletionException ? e.getCause() : e).join();
  }

  // ---------------------------------------------------------------- API key

  @Test
  void shouldSendApiKeyOnlyInTheHeader() throws Exception {
    TonApiClient api = client(fastConfig());
    script.add(Reply.ok(OK_WALLET));
    script.add(Reply.ok(fixture("sendBocReturnHash.json")));

    api.getWalletInformation(WALLET).join();
    api.sendBocReturnHash("te6cckEBAQEAAgAAAEysuc0=").join();

    assertThat(seen).hasSize(2).allSatisfy(req -> {
      assertThat(req.header("X-API-Key")).isEqualTo(KEY);
      assertThat(req.uri().toString()).doesNotContain(KEY).doesNotContain("api_key");
      assertThat(URLDecoder.decode(req.uri().toString(), StandardCharsets.UTF_8)).doesNotContain(KEY);
      assertThat(req.body()).doesNotContain(KEY);
    });
    assertThat(api.config().toString()).doesNotContain(KEY).contains("apiKey=<set>");
  }

  @Test
  void shouldSendNoKeyHeaderWithoutAKey() {
    TonApiClient api = client(TonApiConfig.of(baseUrl()));

    api.getMasterchainInfo().join();

    assertThat(seen.get(0).header("X-API-Key")).isNull();
  }

  @Test
  void shouldKeepTheKeyOutOfErrorsEvenWhenTheServerEchoesIt() {
    TonApiClient api = client(fastConfig());
    script.add(Reply.status(401, "{\"ok\":false,\"error\":\"API key " + KEY + " is invalid\",\"code\":401}"));

    Throwable failure = failureOf(api.getMasterchainInfo());

    assertThat(failure).isInstanceOf(ApiErrorException.class);
    assertThat(failure.getMessage()).contains("getMasterchainInfo", "HTTP 401").doesNotContain(KEY);
  }

  // ---------------------------------------------------------------- request shapes

  @Test
  void shouldReadWithGetAndEncodedQueryParameters() {
    TonApiClient api = client(fastConfig());
    script.add(Reply.ok(fixture("getTransactions-python.json")));
    String hash = "ac11ceabf4f74a8a96b5af085cbf131f162a4e2dad3a4041f3ef4d2b4b8a5a89";

    List<ChainTransaction> txs = api.getTransactions(WALLET, 4, new TransactionId(64_902_980_000_001L, hash), 32_000_000_000_000L).join();

    assertThat(txs).hasSize(4);
    Seen req = seen.get(0);
    assertThat(req.httpMethod()).isEqualTo("GET");
    assertThat(req.uri().getPath()).isEqualTo("/api/v2/getTransactions");
    assertThat(req.uri().getRawQuery())
        .isEqualTo("address=" + WALLET.toRaw().replace(":", "%3A") + "&limit=4&lt=64902980000001&hash=" + hash
            + "&to_lt=32000000000000");
  }

  @Test
  void shouldReadTheGlobalIdFromConfigParam19() {
    TonApiClient api = client(fastConfig());
    script.add(Reply.ok(fixture("getConfigParam-19-mainnet.json")));

    int globalId = api.getGlobalId().join();

    assertThat(globalId).isEqualTo(-239);
    Seen req = seen.get(0);
    assertThat(req.httpMethod()).isEqualTo("GET");
    assertThat(req.uri().getPath()).isEqualTo("/api/v2/getConfigParam");
    assertThat(req.uri().getRawQuery()).isEqualTo("config_id=19");
  }

  @Test
  void shouldSendBocAsJsonPost() throws Exception {
    TonApiClient api = client(fastConfig());
    script.add(Reply.ok(fixture("sendBocReturnHash.json")));

    SentMessage sent = api.sendBocReturnHash("te6cckEBAQEAAgAAAEysuc0=").join();

    assertThat(sent.hash()).isEqualTo("db8a6e674bda8eb1e6eef51e9249c01e3c109ee8ffea3c389f1c1e50af2b6bc2");
    Seen req = seen.get(0);
    assertThat(req.httpMethod()).isEqualTo("POST");
    assertThat(req.uri().getPath()).isEqualTo("/api/v2/sendBocReturnHash");
    assertThat(req.header("Content-Type")).isEqualTo("application/json");
    JsonNode body = new ObjectMapper().readTree(req.body());
    assertThat(body.get("boc").asText()).isEqualTo("te6cckEBAQEAAgAAAEysuc0=");
  }

  @Test
  void shouldAcceptABaseUrlThatAlreadyNamesTheApiRoot() {
    TonApiClient api = client(TonApiConfig.of(URI.create(baseUrl() + "/api/v2/")));

    api.getMasterchainInfo().join();

    assertThat(seen.get(0).uri().getPath()).isEqualTo("/api/v2/getMasterchainInfo");
  }

  @Test
  void shouldGiveSeqnoZeroForAnUninitializedWalletAndTheStoredOneOtherwise() {
    TonApiClient api = client(fastConfig());
    script.add(Reply.ok(fixture("getWalletInformation-uninitialized.json")));
    script.add(Reply.ok(OK_WALLET));

    assertThat(api.getSeqno(WALLET).join()).isZero();
    assertThat(api.getSeqno(WALLET).join()).isEqualTo(17L);
    assertThat(seen).extracting(s -> s.uri().getPath()).containsOnly("/api/v2/getWalletInformation");
  }

  @Test
  void shouldAskTheContractForSeqnoWhenTheServerDoesNotKnowTheWallet() {
    TonApiClient api = client(fastConfig());
    script.add(Reply.ok("{\"ok\":true,\"result\":{\"wallet\":false,\"balance\":\"5\",\"account_state\":\"active\"}}"));
    script.add(Reply.ok("{\"ok\":true,\"result\":{\"gas_used\":1,\"stack\":[[\"num\",\"0x2a\"]],\"exit_code\":0}}"));

    assertThat(api.getSeqno(WALLET).join()).isEqualTo(42L);
    assertThat(seen.get(1).httpMethod()).isEqualTo("POST");
    assertThat(seen.get(1).uri().getPath()).isEqualTo("/api/v2/runGetMethod");
    assertThat(seen.get(1).body()).contains("\"method\":\"seqno\"", WALLET.toRaw());
  }

  // ---------------------------------------------------------------- retries

  @Test
  void shouldRetryReadsOn503And429UntilSuccess() {
    TonApiClient api = client(fastConfig());
    script.add(Reply.status(503, "{\"ok\":false,\"error\":\"Service unavailable\",\"code\":503}"));
    script.add(Reply.status(429, "{\"ok\":false,\"result\":\"Ratelimit exceed\",\"code\":429}"));
    script.add(Reply.ok(OK_WALLET));

    WalletInfo info = api.getWalletInformation(WALLET).join();

    assertThat(info.seqno()).isEqualTo(17L);
    assertThat(seen).hasSize(3);
    assertThat(api.requestsSent()).isEqualTo(3);
  }

  @Test
  void shouldGiveUpReadsAfterMaxAttempts() {
    TonApiClient api = client(fastConfig());
    fallback = Reply.status(504, "{\"ok\":false,\"error\":\"Liteserver timeout\",\"code\":504}");

    Throwable failure = failureOf(api.getWalletInformation(WALLET));

    assertThat(failure).asInstanceOf(type(ApiErrorException.class))
        .satisfies(e -> assertThat(e.httpStatus()).isEqualTo(504));
    assertThat(seen).hasSize(3);
  }

  @Test
  void shouldGiveUpOnPersistentRateLimitAsRateLimited() {
    TonApiClient api = client(fastConfig().withMaxReadAttempts(2));
    fallback = Reply.status(429, "{\"ok\":false,\"result\":\"Ratelimit exceed\",\"code\":429}");

    assertThat(failureOf(api.getMasterchainInfo())).isInstanceOf(RateLimitedException.class);
    assertThat(seen).hasSize(2);
  }

  @Test
  void shouldRetryAReadThatTimedOut() {
    TonApiClient api = client(fastConfig().withCallTimeout(Duration.ofMillis(300)));
    script.add(Reply.stalled());
    script.add(Reply.ok(OK_MASTERCHAIN));

    MasterchainInfo info = api.getMasterchainInfo().join();

    assertThat(info.seqno()).isEqualTo(34_167_507L);
    assertThat(seen).hasSize(2);
  }

  @Test
  void shouldNotRetryClientErrors() {
    TonApiClient api = client(fastConfig());
    script.add(Reply.status(404, "{\"detail\":\"Not Found\"}"));
    script.add(Reply.status(416, "{\"ok\":false,\"error\":\"Incorrect address\",\"code\":416}"));

    assertThat(failureOf(api.getMasterchainInfo())).isInstanceOf(NotFoundException.class);
    assertThat(failureOf(api.getWalletInformation(WALLET))).isInstanceOf(ApiErrorException.class);
    await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(() -> seen.size() == 2);
  }

  @Test
  void shouldNeverRetrySendBocAndFlagA5xxAsMaybeDelivered() {
    TonApiClient api = client(fastConfig());
    fallback = Reply.status(503, "{\"ok\":false,\"error\":\"Service unavailable\",\"code\":503}");

    Throwable failure = failureOf(api.sendBocReturnHash("te6cckEBAQEAAgAAAEysuc0="));

    assertThat(failure).asInstanceOf(type(ApiErrorException.class))
        .satisfies(e -> assertThat(e.maybeDelivered()).isTrue());
    await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(() -> seen.size() == 1);
  }

  @Test
  void shouldNeverRetrySendBocAfterATimeoutAndReportItAsMaybeDelivered() {
    TonApiClient api = client(fastConfig().withCallTimeout(Duration.ofMillis(300)));
    fallback = Reply.stalled();

    Throwable failure = failureOf(api.sendBocReturnHash("te6cckEBAQEAAgAAAEysuc0="));

    assertThat(failure).asInstanceOf(type(TransportException.class)).satisfies(e -> {
      assertThat(e.isTimeout()).isTrue();
      assertThat(e.maybeDelivered()).isTrue();
      assertThat(e.getMessage()).contains("sendBocReturnHash", "timed out");
    });
    await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(() -> seen.size() == 1);
  }

  @Test
  void shouldKeepAtMostMaxInFlightRequestsAtTheServerAndStartTheOthersAsSlotsFree() {
    TonApiClient api = client(fastConfig().withMaxInFlight(2).withMaxReadAttempts(1)
        .withCallTimeout(Duration.ofMillis(1500)));
    fallback = Reply.stalled();

    List<CompletableFuture<MasterchainInfo>> calls = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      calls.add(api.getMasterchainInfo());
    }

    // two reach the server and hang; the other three wait for a slot, not for a connection
    await().atMost(Duration.ofSeconds(2)).until(() -> seen.size() == 2);
    await().during(Duration.ofMillis(500)).atMost(Duration.ofMillis(800)).until(() -> seen.size() == 2);
    // each timeout frees a slot for the next call in line
    await().atMost(Duration.ofSeconds(10)).until(() -> seen.size() == 5);
    assertThat(calls).allSatisfy(call -> assertThat(failureOf(call))
        .asInstanceOf(type(TransportException.class)).satisfies(e -> assertThat(e.isTimeout()).isTrue()));
  }

  @Test
  void shouldNeverRetryARejectedMessage() {
    TonApiClient api = client(fastConfig());
    fallback = Reply.status(500, "{\"ok\":false,\"error\":\"LITE_SERVER_UNKNOWN: cannot apply external message to "
        + "current state : External message was not accepted\\nexitcode=33, steps=21, gas_used=0\",\"code\":500}");

    Throwable failure = failureOf(api.sendBocReturnHash("te6cckEBAQEAAgAAAEysuc0="));

    assertThat(failure).asInstanceOf(type(MessageRejectedException.class))
        .satisfies(e -> assertThat(e.exitCode()).isEqualTo(33));
    await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(() -> seen.size() == 1);
  }

  @Test
  void shouldReportARefusedConnectionAsNotDelivered() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    TonApiClient api = client(TonApiConfig.of(URI.create("http://127.0.0.1:" + closedPort)).withMaxReadAttempts(1));

    Throwable failure = failureOf(api.sendBocReturnHash("te6cckEBAQEAAgAAAEysuc0="));

    assertThat(failure).asInstanceOf(type(TransportException.class)).satisfies(e -> {
      assertThat(e.isTimeout()).isFalse();
      assertThat(e.maybeDelivered()).isFalse();
      assertThat(e.isTransient()).isTrue();
    });
  }

  @Test
  void shouldNameTheUrlAndTheExceptionClassWhenItCannotConnect() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    TonApiClient api = client(TonApiConfig.of(URI.create("http://127.0.0.1:" + closedPort)).withMaxReadAttempts(1));

    Throwable failure = failureOf(api.getWalletInformation(WALLET));

    assertThat(failure.getMessage())
        .startsWith("getWalletInformation: cannot connect to http://127.0.0.1:" + closedPort
            + "/api/v2/getWalletInformation: java.net.ConnectException")
        .doesNotContain("null")
        .doesNotContain(WALLET.toRaw());
  }

  // ---------------------------------------------------------------- metrics

  @Test
  void shouldCountEveryRequestByMethodAndOutcomeWithItsLatency() {
    io.micrometer.core.instrument.simple.SimpleMeterRegistry registry =
        new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
    client = new TonApiClient(fastConfig(), registry);
    script.add(Reply.status(503, "{\"ok\":false,\"error\":\"Service unavailable\",\"code\":503}"));
    script.add(Reply.status(429, "{\"ok\":false,\"result\":\"Ratelimit exceed\",\"code\":429}"));
    script.add(Reply.ok(OK_WALLET));

    client.getWalletInformation(WALLET).join();
    client.getMasterchainInfo().join();

    assertThat(requests(registry, "getWalletInformation", "server_error")).isEqualTo(1);
    assertThat(requests(registry, "getWalletInformation", "rate_limited")).isEqualTo(1);
    assertThat(requests(registry, "getWalletInformation", "ok")).isEqualTo(1);
    assertThat(requests(registry, "getMasterchainInfo", "ok")).isEqualTo(1);
    assertThat(registry.find(TonApiMetrics.REQUESTS).timers()).hasSize(4);
    assertThat(registry.get(TonApiMetrics.REQUESTS).tag("method", "getMasterchainInfo").timer().totalTime(
        java.util.concurrent.TimeUnit.NANOSECONDS)).isPositive();
    String hostAndPort = fastConfig().baseUrl().getHost() + ":" + fastConfig().baseUrl().getPort();
    assertThat(registry.find(TonApiMetrics.REQUESTS).timers()).as("tagged with the provider: the API's host and port")
        .allSatisfy(t -> assertThat(t.getId().getTag("provider")).isEqualTo(hostAndPort));
  }

  /** In a pool each client's requests carry its provider's name (ton.api.urls' name=). */
  @Test
  void shouldTagRequestsWithTheProvidersNameInAPool() {
    io.micrometer.core.instrument.simple.SimpleMeterRegistry registry =
        new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
    client = new TonApiClient(fastConfig(), registry, "own");
    script.add(Reply.ok(OK_WALLET));

    client.getWalletInformation(WALLET).join();

    assertThat(registry.get(TonApiMetrics.REQUESTS).tag("provider", "own").tag("method", "getWalletInformation")
        .timer().count()).isEqualTo(1);
  }

  private static long requests(io.micrometer.core.instrument.MeterRegistry registry, String method, String outcome) {
    io.micrometer.core.instrument.Timer timer = registry.find(TonApiMetrics.REQUESTS)
        .tag("method", method).tag("outcome", outcome).timer();
    return timer == null ? 0 : timer.count();
  }

  // ---------------------------------------------------------------- rate limit

  @Test
  void shouldSpaceRequestsByTheConfiguredRateWithoutBlockingCallers() {
    double rps = 10;
    int calls = 6;
    long interval = (long) Math.ceil(1e9 / rps);
    TonApiClient api = client(fastConfig().withRequestsPerSecond(rps));
    api.getMasterchainInfo().join(); // warm up class loading and the connection
    seen.clear();

    long t0 = System.nanoTime();
    List<CompletableFuture<MasterchainInfo>> futures = new ArrayList<>();
    for (int i = 0; i < calls; i++) {
      futures.add(api.getMasterchainInfo());
    }
    long issuedNanos = System.nanoTime() - t0;
    CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).join();

    assertThat(issuedNanos)
        .as("issuing %d calls must not wait for permits (waiting would take %d intervals)", calls, calls - 1)
        .isLessThan((calls - 2) * interval);
    List<Long> starts = seen.stream().map(Seen::receivedNanos).sorted().toList();
    assertThat(starts).hasSize(calls);
    for (int n = 1; n < calls; n++) {
      assertThat(starts.get(n) - t0)
          .as("request %d cannot start before %d/rps", n + 1, n)
          .isGreaterThanOrEqualTo(n * interval);
    }
  }

  @Test
  void shouldRejectCallsAfterClose() {
    TonApiClient api = client(fastConfig());
    api.close();

    assertThat(failureOf(api.getMasterchainInfo())).isInstanceOf(IllegalStateException.class);
    assertThat(seen).isEmpty();
  }

  // ---------------------------------------------------------------- block reads

  @Test
  void shouldAskForTheShardsOfOneMasterchainBlock() {
    TonApiClient api = client(fastConfig());
    script.add(Reply.ok(fixture("shards.json")));

    List<BlockId> shards = api.getShards(39_984_096L).join();

    assertThat(shards).extracting(BlockId::seqno).containsExactly(45_341_164L);
    assertThat(seen).singleElement().satisfies(request -> {
      assertThat(request.httpMethod()).isEqualTo("GET");
      assertThat(request.uri().getPath()).isEqualTo("/api/v2/shards");
      assertThat(request.uri().getQuery()).isEqualTo("seqno=39984096");
    });
  }

  @Test
  void shouldAskForAPageOfTheExactBlockAfterAnAccountsTransaction() {
    TonApiClient api = client(fastConfig());
    script.add(Reply.ok(fixture("getBlockTransactionsExt-cpp.json")));
    BlockId block = new BlockId(-1, Long.MIN_VALUE, 39_984_096L,
        "6f6ebf3f0f01633e9563b472601ff0d8d7fca4a05e6ec83e1f8ad3d691f96443",
        "94bca5ae3ede667d1348dc69838ca8bc9278c7f20b81e789ddbc92e8c1554c9c");
    BlockTransactions.After after = new BlockTransactions.After("1".repeat(64), 48_756_939_999_999L);

    BlockTransactions page = api.getBlockTransactions(block, after, 2).join();

    assertThat(page.transactions()).hasSize(2);
    assertThat(page.next()).contains(new BlockTransactions.After("3".repeat(64), 48_756_940_000_002L));
    Seen request = seen.get(0);
    assertThat(request.uri().getPath()).isEqualTo("/api/v2/getBlockTransactionsExt");
    assertThat(query(request)).containsExactly(
        Map.entry("workchain", "-1"),
        Map.entry("shard", "-9223372036854775808"),
        Map.entry("seqno", "39984096"),
        Map.entry("root_hash", block.rootHash()),
        Map.entry("file_hash", block.fileHash()),
        Map.entry("after_lt", "48756939999999"),
        Map.entry("after_hash", "1".repeat(64)),
        Map.entry("count", "2"));
  }

  @Test
  void shouldLookABlockUpBySeqnoWhenItsHashesAreUnknown() {
    TonApiClient api = client(fastConfig());
    script.add(Reply.ok(fixture("getBlockTransactionsExt-python.json")));

    BlockTransactions page = api.getBlockTransactions(BlockId.bySeqno(-1, Long.MIN_VALUE, 39_984_096L), null, 40).join();

    assertThat(page.block().hasHashes()).as("the answer names the block fully").isTrue();
    assertThat(query(seen.get(0))).containsOnlyKeys("workchain", "shard", "seqno", "count");
  }

  @Test
  void shouldLeaveABlockTheNodeDoesNotHaveYetToTheCaller() {
    io.micrometer.core.instrument.simple.SimpleMeterRegistry registry =
        new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
    client = new TonApiClient(fastConfig(), registry);
    fallback = Reply.status(500, "{\"ok\":false,\"error\":\"LITE_SERVER_NOTREADY: cannot find block "
        + "(-1,8000000000000000) seqno=39984099: ltdb: block not found (last known masterchain block: 39984096)\","
        + "\"code\":500}");

    Throwable failure = failureOf(client.getShards(39_984_099L));

    assertThat(failure).isInstanceOf(BlockNotReadyException.class).hasMessageContaining("shards");
    await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(() -> seen.size() == 1);
    assertThat(requests(registry, "shards", "not_ready")).isEqualTo(1);
  }

  @Test
  void shouldValidateBlockReadArguments() {
    TonApiClient api = client(fastConfig());
    BlockId block = BlockId.bySeqno(0, Long.MIN_VALUE, 7);

    assertThatThrownBy(() -> api.getBlockTransactions(block, null, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> api.getBlockTransactions(block, null, BlockTransactions.MAX_COUNT + 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> api.getBlockTransactions(BlockId.bySeqno(0, Long.MIN_VALUE, 0), null, 1))
        .as("toncenter refuses seqno 0").isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> api.getShards(0)).isInstanceOf(IllegalArgumentException.class);
    assertThat(seen).isEmpty();
  }

  private static Map<String, String> query(Seen request) {
    Map<String, String> params = new java.util.LinkedHashMap<>();
    for (String pair : request.uri().getRawQuery().split("&")) {
      int eq = pair.indexOf('=');
      params.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
          URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
    }
    return params;
  }

  @Test
  void shouldValidateTheTransactionsLimit() {
    TonApiClient api = client(fastConfig());

    assertThatThrownBy(() -> api.getTransactions(WALLET, 0, null, null)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> api.getTransactions(WALLET, 101, null, null)).isInstanceOf(IllegalArgumentException.class);
    assertThat(seen).isEmpty();
  }
}
