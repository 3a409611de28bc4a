package org.tonpayouts.streams.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.tonpayouts.streams.PayoutTestKit.FIRST_SUBWALLET;
import static org.tonpayouts.streams.PayoutTestKit.KEY;
import static org.tonpayouts.streams.PayoutTestKit.TON;
import static org.tonpayouts.streams.PayoutTestKit.recipient;
import static org.tonpayouts.streams.PayoutTestKit.request;
import static org.tonpayouts.streams.PayoutTestKit.transfer;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.SimpleResponse;
import com.atlassian.oai.validator.report.ValidationReport;
import com.fasterxml.jackson.databind.JsonNode;
import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.Timer;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.devnet.ManualClock;
import org.tonpayouts.devnet.chain.DevnetTransaction;
import org.tonpayouts.embedded.EmbeddedKafkaBroker;
import org.tonpayouts.embedded.EmbeddedPostgresServer;
import org.tonpayouts.embedded.SharedTestInfrastructure;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.schemas.AuditRecord;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.ConfirmationStatus;
import org.tonpayouts.schemas.Json;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.schemas.Topic;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.streams.PayoutTestKit;
import org.tonpayouts.streams.StreamsApp;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.TransferStatus;
import org.tonpayouts.streams.metrics.PayoutMetrics;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;
import org.tonpayouts.ton.wallet.SignedTransfer;
import org.tonpayouts.ton.wallet.Subwallets;
import org.tonpayouts.ton.wallet.TransferOrder;
import org.tonpayouts.ton.wallet.TransferSigner;

/**
 * The admin API of a running streams-app (real broker, PostgreSQL and devnet): 401 without the
 * token; a transfer made RECONCILIATION_REQUIRED (its message dropped by devnet, the poller's verdict
 * played by the test) is listed with its evidence, refused a resolution with a transaction that does
 * not pay it, and resolved with one that does (verified on devnet's chain); its second settlement and
 * the audit records reach Kafka, and another is resolved FAILED once the chain shows it cannot be
 * paid (refused while its message could still apply). A FAILED is refused while a payment of the
 * transfer's destination and amount is on chain until the call acknowledges exactly that
 * transaction; a SETTLED by lt or by search is refused for a payment older than the transfer. The
 * chain's clock is moved past valid_until rather than waited for. A paused wallet signs nothing for a request it
 * accepted until it is resumed; a transfer over the wallet's spend cap is held (listed, in the wallet view, its
 * wallet's next transfer waiting behind it) and signed once an operator releases it. Every answer matches the OpenAPI
 * file, and the file documents exactly the server's routes.
 */
class AdminApiTest {
  private static final String TOKEN = "test-admin-token-0123456789abcdef";
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final long AMOUNT = 2 * TON;
  private static final long WALLET_CAP = 20 * TON;
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final OpenApiInteractionValidator OPENAPI =
      OpenApiInteractionValidator.createForSpecificationUrl(AdminApiTest.class.getResource(AdminServer.OPENAPI_RESOURCE)
          .toString()).build();

  @TempDir
  static Path state;

  /** The chain's clock: moved past the transfers' valid_until instead of waiting for it. */
  private static final ManualClock CHAIN_CLOCK = ManualClock.systemPlusOffset();
  private static Devnet devnet;
  private static TonApiClient api;
  /** An operator's own client, on a node of its own (the default node drops streams-app's messages when asked). */
  private static TonApiClient operatorApi;
  private static HikariDataSource db;
  private static StreamsApp app;
  private static PayoutMetrics metrics;
  private static String base;
  private static final String RUN = SharedTestInfrastructure.uniqueName("admin");

  @BeforeAll
  static void start() throws Exception {
    EmbeddedKafkaBroker kafka = SharedTestInfrastructure.kafka();
    Map<String, Integer> topics = new HashMap<>();
    Topics.ALL.forEach(t -> topics.put(t.name(), 1));
    TreeSet<String> existing = new TreeSet<>(kafka.admin().listTopics().names().get());
    topics.keySet().removeAll(existing);
    kafka.createTopics(topics);
    EmbeddedPostgresServer postgres = SharedTestInfrastructure.postgres();
    SharedTestInfrastructure.createDatabase(AdminApiTest.class);
    db = Ledger.pooledDataSource(postgres.jdbcUrl(SharedTestInfrastructure.databaseName(AdminApiTest.class)),
        postgres.user(), postgres.password(), 4);
    devnet = Devnet.builder().blockInterval(Duration.ofMillis(100)).clock(CHAIN_CLOCK).start();
    api = new TonApiClient(TonApiConfig.of(devnet.baseUrl()).withRequestsPerSecond(10_000));
    operatorApi = new TonApiClient(TonApiConfig.of(devnet.node("operator").apiUrl()).withRequestsPerSecond(10_000));
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    PayoutsConfig config = PayoutTestKit.config(Map.of(
        PayoutsConfig.KAFKA_BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
        PayoutsConfig.STREAMS_APPLICATION_ID_CONFIG, RUN,
        PayoutsConfig.STREAMS_STATE_DIR_CONFIG, state.toString(),
        PayoutsConfig.TON_API_URL_CONFIG, devnet.baseUrl().toString(),
        PayoutsConfig.TRANSFER_TTL_SECONDS_CONFIG, 600,
        PayoutsConfig.ADMIN_PORT_CONFIG, port,
        PayoutsConfig.ADMIN_TOKEN_CONFIG, TOKEN,
        PayoutsConfig.OUTBOX_POLL_INTERVAL_MS_CONFIG, 50L,
        // far above what the other tests pay per wallet: only the spend cap test's transfer crosses it
        PayoutsConfig.SPEND_CAP_WALLET_CONFIG, "1h:" + WALLET_CAP,
        PayoutsConfig.SPEND_CAP_RECHECK_MS_CONFIG, 200L));
    metrics = PayoutMetrics.inMemory();
    app = new StreamsApp(config, KEY, api, db, Clock.systemUTC(), metrics);
    app.start();
    base = "http://127.0.0.1:" + app.admin().orElseThrow().port();
    await("streams-app running").atMost(DEADLINE).until(() -> app.streams().state() == KafkaStreams.State.RUNNING);
  }

  @AfterAll
  static void stop() {
    if (app != null) {
      app.close();
    }
    if (api != null) {
      api.close();
    }
    if (operatorApi != null) {
      operatorApi.close();
    }
    if (devnet != null) {
      devnet.close();
    }
    if (db != null) {
      db.close();
    }
  }

  @AfterEach
  void clearFaults() {
    devnet.faults().clear();
  }

  @Test
  void shouldRefuseEveryCallWithoutTheToken() throws Exception {
    for (String token : new String[] {null, "Bearer wrong-token-0123456789abcdef", "Basic " + TOKEN, TOKEN}) {
      HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "/admin/reconciliations"));
      if (token != null) {
        request.header("Authorization", token);
      }
      HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());

      assertThat(response.statusCode()).as("Authorization: %s", token).isEqualTo(401);
      assertThat(response.headers().firstValue("WWW-Authenticate")).contains("Bearer realm=\"payouts-admin\"");
      assertThat(response.body()).doesNotContain(TOKEN.substring(5));
    }
    assertThat(send("POST", "/admin/reconciliations/r/t/resolve", "{}", null).statusCode()).isEqualTo(401);
    long refused = metrics.registry().find("payout.admin.requests").tag("status", "401").timers().stream()
        .mapToLong(Timer::count).sum();
    assertThat(refused).isGreaterThanOrEqualTo(5);
  }

  @Test
  void shouldDocumentExactlyTheServersRoutesInTheOpenApiFile() throws Exception {
    JsonNode spec;
    try (InputStream in = AdminApiTest.class.getResourceAsStream(AdminServer.OPENAPI_RESOURCE)) {
      spec = new com.fasterxml.jackson.databind.ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory())
          .readTree(in);
    }
    List<String> documented = new ArrayList<>();
    spec.get("paths").fields().forEachRemaining(path -> path.getValue().fieldNames().forEachRemaining(method ->
        documented.add(method.toUpperCase() + " " + path.getKey())));

    assertThat(documented).containsExactlyInAnyOrderElementsOf(AdminServer.ROUTES);
    HttpResponse<String> served = get("/admin/openapi.yaml");
    assertThat(served.statusCode()).isEqualTo(200);
    assertThat(served.body()).contains("openapi: 3.0.3").contains("/admin/reconciliations/{requestId}/{transferId}/resolve");
    HttpResponse<String> unknown = get("/admin/nothing-here");
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(unknown.body()).contains("GET /admin/requests/{requestId}");
  }

  @Test
  void shouldResolveReconciliationsAgainstTheChainAndPublishTheSecondSettlement() throws Exception {
    long paidId = FIRST_SUBWALLET;
    long failedId = FIRST_SUBWALLET + 1;
    TonAddress paidWallet = fund(paidId);
    TonAddress destination = recipient(7);
    PayoutRequest paid = request(RUN + "-paid", paidId, transfer("t", destination, AMOUNT));
    PayoutRequest notPaid = request(RUN + "-failed", failedId, transfer("t", recipient(8), AMOUNT));
    fund(failedId);
    LedgerRow paidMessage = reconciliationRequired(paid);
    reconciliationRequired(notPaid);

    // FAILED is refused while a message at the transfer's seqno could still apply
    HttpResponse<String> tooEarly = resolve(notPaid, "FAILED", null, "carol", "never on chain");
    assertMatchesOpenApi("POST", resolvePath(notPaid), tooEarly);
    assertThat(tooEarly.statusCode()).as(tooEarly.body()).isEqualTo(409);
    assertThat(tooEarly.body()).contains("could still apply").contains("plus the clock-skew margin")
        .contains("not past the transfer's seqno 0");
    assertThat(transferStatus(notPaid)).isEqualTo(TransferStatus.RECONCILIATION_REQUIRED);

    // the evidence
    HttpResponse<String> listed = get("/admin/reconciliations");
    assertMatchesOpenApi("GET", "/admin/reconciliations", listed);
    JsonNode open = Json.mapper().readTree(listed.body()).get("transfers");
    JsonNode entry = find(open, paid.requestId());
    assertThat(entry.at("/transfer/status").asText()).isEqualTo("RECONCILIATION_REQUIRED");
    assertThat(entry.at("/transfer/amountNano").asText()).isEqualTo(Long.toString(AMOUNT));
    assertThat(entry.at("/attempts/0/messageHash").asText()).isEqualTo(paidMessage.messageHash());
    assertThat(entry.at("/attempts/0/seqno").asLong()).isEqualTo(paidMessage.seqno());
    assertThat(entry.at("/audit/0/event").asText()).isEqualTo("RECONCILIATION_REQUIRED");
    assertThat(entry.at("/audit/0/detail").asText()).contains("seqno moved");

    // transactions that do not pay the transfer are refused, saying why
    String unknownTx = "ab".repeat(32);
    HttpResponse<String> noSuchTx = resolve(paid, "SETTLED", unknownTx, "alice", "found it");
    assertMatchesOpenApi("POST", resolvePath(paid), noSuchTx);
    assertThat(noSuchTx.statusCode()).isEqualTo(422);
    assertThat(noSuchTx.body()).contains("has no transaction " + unknownTx);
    String elsewhere = payByHand(paidId, recipient(9), AMOUNT);
    HttpResponse<String> wrongPayee = resolve(paid, "SETTLED", elsewhere, "alice", "found it");
    assertThat(wrongPayee.statusCode()).isEqualTo(422);
    assertThat(wrongPayee.body()).contains("does not pay " + AMOUNT + " nanotons to " + destination.toRaw());
    HttpResponse<String> noOperator = send("POST", resolvePath(paid), "{\"outcome\":\"SETTLED\",\"txHash\":\""
        + elsewhere + "\",\"reason\":\"x\"}", TOKEN);
    assertThat(noOperator.statusCode()).isEqualTo(400);
    assertThat(noOperator.body()).contains("operator is required");
    assertThat(transferStatus(paid)).isEqualTo(TransferStatus.RECONCILIATION_REQUIRED);

    // an operator pays by hand, then resolves with that transaction
    String byHand = payByHand(paidId, destination, AMOUNT);
    HttpResponse<String> settled = resolve(paid, "SETTLED", byHand, "alice", "paid by hand from the wallet, OPS-17");
    assertMatchesOpenApi("POST", resolvePath(paid), settled);
    assertThat(settled.statusCode()).as(settled.body()).isEqualTo(200);
    JsonNode resolution = Json.mapper().readTree(settled.body());
    long auditId = resolution.at("/audit/auditId").asLong();
    assertThat(resolution.at("/transfer/status").asText()).isEqualTo("SETTLED");
    assertThat(resolution.at("/settlement/txHash").asText()).isEqualTo(byHand);
    assertThat(resolution.at("/settlement/resolution/operator").asText()).isEqualTo("alice (shared token)");
    assertThat(resolution.at("/audit/actor").asText()).isEqualTo("alice (shared token)");
    assertThat(resolution.at("/audit/actorAddress").asText()).startsWith("127.0.0.1:");
    assertThat(resolution.at("/settlement/resolution/auditId").asLong()).isEqualTo(auditId);
    HttpResponse<String> again = resolve(paid, "FAILED", null, "bob", "second thoughts");
    assertThat(again.statusCode()).isEqualTo(409);
    assertThat(again.body()).contains("is SETTLED, not RECONCILIATION_REQUIRED");

    payByHand(failedId, recipient(9), AMOUNT); // another signer takes the seqno, paying someone else
    passEveryValidUntil();
    HttpResponse<String> failed = resolve(notPaid, "FAILED", null, "carol", "never on chain; seqno used elsewhere");
    assertThat(failed.statusCode()).as(failed.body()).isEqualTo(200);
    assertThat(transferStatus(notPaid)).isEqualTo(TransferStatus.FAILED);

    // the second settlements and the audit records reach Kafka
    await("resolution settlements published").atMost(DEADLINE).pollInterval(Duration.ofMillis(200))
        .until(() -> resolved(readAll(Topics.PAYOUT_SETTLEMENTS)).size() == 2);
    List<Settlement> settlements = readAll(Topics.PAYOUT_SETTLEMENTS).stream()
        .filter(s -> s.requestId().equals(paid.requestId())).toList();
    assertThat(settlements).extracting(Settlement::status)
        .containsExactly(SettlementStatus.RECONCILIATION_REQUIRED, SettlementStatus.SETTLED);
    assertThat(settlements.get(0).resolution()).isNull();
    assertThat(settlements.get(1).resolution().auditId()).isEqualTo(auditId);
    assertThat(settlements.get(1).txHash()).isEqualTo(byHand);
    assertThat(resolved(readAll(Topics.PAYOUT_SETTLEMENTS))).filteredOn(s -> s.requestId().equals(notPaid.requestId()))
        .singleElement().satisfies(s -> {
          assertThat(s.status()).isEqualTo(SettlementStatus.FAILED);
          assertThat(s.reason()).isEqualTo("resolved FAILED by carol (shared token): never on chain; seqno used elsewhere");
        });
    await("audit records published").atMost(DEADLINE).pollInterval(Duration.ofMillis(200))
        .until(() -> readAll(Topics.PAYOUT_AUDIT).stream().anyMatch(a -> a.auditId() == auditId));
    List<AuditRecord> audit = readAll(Topics.PAYOUT_AUDIT).stream()
        .filter(a -> paid.requestId().equals(a.requestId())).toList();
    assertThat(audit).extracting(AuditRecord::event).containsExactly("RECONCILIATION_REQUIRED", "OPERATOR_RESOLUTION");
    assertThat(audit.get(1).detail()).contains("alice").contains("OPS-17");
    assertThat(audit.get(1).txHash()).isEqualTo(byHand);
    assertThat(metrics.registry().find("payout.audit.events").tag("event", "OPERATOR_RESOLUTION")
        .tag("level", "WARNING").counter().count()).isGreaterThanOrEqualTo(2);

    // the lifecycle shows every step
    await("resolution settlement marked published").atMost(DEADLINE).until(() ->
        !Json.mapper().readTree(get("/admin/requests/" + paid.requestId()).body())
            .at("/transfers/0/resolutionSettlements/0/publishedAt").isMissingNode());
    HttpResponse<String> lifecycle = get("/admin/requests/" + paid.requestId());
    assertMatchesOpenApi("GET", "/admin/requests/" + paid.requestId(), lifecycle);
    JsonNode l = Json.mapper().readTree(lifecycle.body());
    assertThat(l.at("/transfers/0/transfer/status").asText()).isEqualTo("SETTLED");
    assertThat(l.at("/transfers/0/transfer/txHash").asText()).isEqualTo(byHand);
    assertThat(l.at("/transfers/0/attempts/0/messageHash").asText()).isEqualTo(paidMessage.messageHash());
    assertThat(l.at("/transfers/0/attempts/0/validUntil").asText()).isNotBlank();
    assertThat(l.at("/transfers/0/resolutionSettlements/0/auditId").asLong()).isEqualTo(auditId);
    assertThat(l.get("audit").findValuesAsText("event")).containsExactly("RECONCILIATION_REQUIRED", "OPERATOR_RESOLUTION");
    assertThat(get("/admin/requests/" + RUN + "-never").statusCode()).isEqualTo(404);

    // the wallet: idle in this instance's store, two foreign payments on chain
    HttpResponse<String> wallet = get("/admin/wallets/" + paidId);
    assertMatchesOpenApi("GET", "/admin/wallets/" + paidId, wallet);
    JsonNode w = Json.mapper().readTree(wallet.body());
    assertThat(w.at("/walletAddress").asText()).isEqualTo(paidWallet.toRaw());
    assertThat(w.at("/store/source").asText()).as(wallet.body()).isEqualTo("this-instance");
    assertThat(w.at("/store/queueDepth").asLong()).isZero();
    assertThat(w.at("/chain/seqno").asLong()).isEqualTo(devnet.seqno(paidWallet));
    assertThat(w.at("/chain/balanceNano").asText()).isEqualTo(Long.toString(devnet.balance(paidWallet)));
    assertThat(get("/admin/wallets/not-a-number").statusCode()).isEqualTo(400);
  }

  @Test
  void shouldRefuseFailedWhileAPaymentOfTheTransferIsOnChainUntilAcknowledgedExactly() throws Exception {
    long id = FIRST_SUBWALLET + 2;
    fund(id);
    TonAddress destination = recipient(10);
    PayoutRequest request = request(RUN + "-paid-elsewhere", id, transfer("t", destination, AMOUNT));
    reconciliationRequired(request);
    // a second deployment with the same key takes the transfer's seqno and pays its destination its amount
    String other = payByHand(id, destination, AMOUNT);

    HttpResponse<String> applicable = resolve(request, "FAILED", null, "dave", "not paid");
    assertThat(applicable.statusCode()).as(applicable.body()).isEqualTo(409);
    assertThat(applicable.body()).contains("could still apply").doesNotContain("not past the transfer's seqno");

    passEveryValidUntil();
    HttpResponse<String> paid = resolve(request, "FAILED", null, "dave", "not paid");
    assertMatchesOpenApi("POST", resolvePath(request), paid);
    assertThat(paid.statusCode()).as(paid.body()).isEqualTo(409);
    assertThat(paid.body()).contains("transaction " + other).contains("pays " + AMOUNT + " nanotons to")
        .contains("acknowledgePaysSomethingElse=" + other);
    String wrongHash = "cd".repeat(32);
    HttpResponse<String> wrongAck = resolve(request, Map.of("outcome", "FAILED", "operator", "dave", "reason",
        "it pays something else", "acknowledgePaysSomethingElse", wrongHash));
    assertThat(wrongAck.statusCode()).as(wrongAck.body()).isEqualTo(409);
    assertThat(wrongAck.body()).contains("names transaction " + wrongHash).contains("is " + other);
    HttpResponse<String> ackOnSettled = resolve(request, Map.of("outcome", "SETTLED", "txHash", other, "operator",
        "dave", "reason", "x", "acknowledgePaysSomethingElse", other));
    assertThat(ackOnSettled.statusCode()).isEqualTo(400);
    assertThat(transferStatus(request)).isEqualTo(TransferStatus.RECONCILIATION_REQUIRED);

    HttpResponse<String> failed = resolve(request, Map.of("outcome", "FAILED", "operator", "dave", "reason",
        "that transaction is the March refund, OPS-21", "acknowledgePaysSomethingElse", other));
    assertMatchesOpenApi("POST", resolvePath(request), failed);
    assertThat(failed.statusCode()).as(failed.body()).isEqualTo(200);
    JsonNode resolution = Json.mapper().readTree(failed.body());
    assertThat(resolution.at("/transfer/status").asText()).isEqualTo("FAILED");
    assertThat(resolution.at("/audit/txHash").asText()).isEqualTo(other);
    assertThat(resolution.at("/audit/detail").asText()).contains("OPS-21")
        .contains("dave (shared token) acknowledged that it pays something else").contains("wallet seqno 1");
  }

  @Test
  void shouldRefuseSettledByLtOrSearchForAPaymentOlderThanTheTransfer() throws Exception {
    long id = FIRST_SUBWALLET + 3;
    TonAddress wallet = fund(id);
    TonAddress destination = recipient(11);
    String older = payByHand(id, destination, AMOUNT); // last week's payout: same destination, same amount
    long olderLt = devnet.transactions(wallet).stream().filter(t -> t.hash().equals(older)).findFirst()
        .orElseThrow().lt();
    PayoutRequest request = request(RUN + "-older", id, transfer("t", destination, AMOUNT));
    reconciliationRequired(request);
    payByHand(id, recipient(12), AMOUNT); // another signer takes the transfer's seqno

    HttpResponse<String> byLt = resolve(request, Map.of("outcome", "SETTLED", "txHash", older, "lt", olderLt,
        "operator", "erin", "reason", "found it"));
    HttpResponse<String> bySearch = resolve(request, "SETTLED", older, "erin", "found it");

    assertMatchesOpenApi("POST", resolvePath(request), byLt);
    for (HttpResponse<String> refused : List.of(byLt, bySearch)) {
      assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
      assertThat(refused.body()).contains("transaction " + older + " took the wallet's seqno 0, before the"
          + " transfer's seqno 1");
    }
    assertThat(transferStatus(request)).isEqualTo(TransferStatus.RECONCILIATION_REQUIRED);
  }

  @Test
  void shouldPauseAWalletSoNothingIsSignedThenResumeIt() throws Exception {
    long id = FIRST_SUBWALLET + 5;
    TonAddress wallet = fund(id);
    String scope = Long.toString(id);
    // the reconciliation tests leave the default node dropping streams-app's messages; this one must land
    devnet.faults().drop(0.0);
    HttpResponse<String> paused = send("POST", "/admin/pause", pauseBody(scope, "alice", "INC-42 drain suspected"),
        TOKEN);
    assertMatchesOpenApi("POST", "/admin/pause", paused);
    assertThat(paused.statusCode()).as(paused.body()).isEqualTo(200);
    JsonNode p = Json.mapper().readTree(paused.body());
    assertThat(p.at("/pause/scope").asText()).isEqualTo(scope);
    assertThat(p.at("/pause/pausedBy").asText()).isEqualTo("alice (shared token)");
    assertThat(p.at("/audit/event").asText()).isEqualTo("PAUSED");
    assertThat(p.at("/audit/level").asText()).isEqualTo("WARNING");
    HttpResponse<String> again = send("POST", "/admin/pause", pauseBody(scope, "bob", "me too"), TOKEN);
    assertMatchesOpenApi("POST", "/admin/pause", again);
    assertThat(again.statusCode()).isEqualTo(409);
    assertThat(again.body()).contains("is paused already").contains("paused by alice");

    // a request for the wallet is accepted and held: nothing signed, nothing on chain
    double heldBefore = heldByPause();
    PayoutRequest held = request(RUN + "-held", id, transfer("t", recipient(11), AMOUNT));
    produce(Topics.PAYOUT_REQUESTS, held.walletKey(), held);
    await("the request held by the pause").atMost(DEADLINE).until(() -> heldByPause() > heldBefore);
    assertThat(app.ledger().queries().attempts(held.requestId(), "t")).isEmpty();
    assertThat(devnet.seqno(wallet)).isZero();
    await("the gauge shows the paused wallet").atMost(DEADLINE)
        .until(() -> metrics.registry().find("payout.paused.wallets").gauge().value() == 1.0);

    HttpResponse<String> view = get("/admin/wallets/" + id);
    assertMatchesOpenApi("GET", "/admin/wallets/" + id, view);
    JsonNode v = Json.mapper().readTree(view.body());
    assertThat(v.at("/paused/pausedBy").asText()).isEqualTo("alice (shared token)");
    assertThat(v.at("/paused/reason").asText()).isEqualTo("INC-42 drain suspected");
    assertThat(v.at("/store/queueDepth").asLong()).isEqualTo(1);
    HttpResponse<String> pauses = get("/admin/pauses");
    assertMatchesOpenApi("GET", "/admin/pauses", pauses);
    JsonNode list = Json.mapper().readTree(pauses.body());
    assertThat(list.at("/deploymentPaused").asBoolean()).isFalse();
    assertThat(list.get("active").findValuesAsText("scope")).containsExactly(scope);

    // bad input changes nothing
    HttpResponse<String> badScope = send("POST", "/admin/pause", pauseBody("everything", "alice", "x"), TOKEN);
    assertThat(badScope.statusCode()).isEqualTo(400);
    assertThat(badScope.body()).contains("scope must be \\\"deployment\\\" or a subwallet id");
    HttpResponse<String> noOperator = send("POST", "/admin/resume", "{\"scope\":\"" + scope + "\",\"reason\":\"x\"}",
        TOKEN);
    assertThat(noOperator.statusCode()).isEqualTo(400);
    assertThat(noOperator.body()).contains("operator is required");
    HttpResponse<String> deploymentNotPaused = send("POST", "/admin/resume", pauseBody("deployment", "bob", "x"), TOKEN);
    assertMatchesOpenApi("POST", "/admin/resume", deploymentNotPaused);
    assertThat(deploymentNotPaused.statusCode()).isEqualTo(409);
    assertThat(deploymentNotPaused.body()).contains("the deployment is not paused").contains("subwallet " + id
        + " paused by alice");

    HttpResponse<String> resumed = send("POST", "/admin/resume", pauseBody(scope, "bob", "INC-42 closed"), TOKEN);
    assertMatchesOpenApi("POST", "/admin/resume", resumed);
    assertThat(resumed.statusCode()).as(resumed.body()).isEqualTo(200);
    JsonNode r = Json.mapper().readTree(resumed.body());
    assertThat(r.at("/pause/active").asBoolean()).isFalse();
    assertThat(r.at("/pause/liftedBy").asText()).isEqualTo("bob (shared token)");
    assertThat(r.at("/audit/event").asText()).isEqualTo("RESUMED");
    await("the held transfer signed once resumed").atMost(DEADLINE)
        .until(() -> !app.ledger().queries().attempts(held.requestId(), "t").isEmpty());
    await("and on chain").atMost(DEADLINE).until(() -> devnet.seqno(wallet) == 1);
    assertThat(Json.mapper().readTree(get("/admin/wallets/" + id).body()).has("paused")).isFalse();
  }

  @Test
  void shouldHoldATransferOverTheSpendCapShowItAndSignItOnceReleased() throws Exception {
    long id = FIRST_SUBWALLET + 6;
    TonAddress wallet = fund(id);
    devnet.faults().drop(0.0);
    double heldBefore = metrics.count("payout.issuing.held_by_cap");
    PayoutRequest big = request(RUN + "-over-cap", id, transfer("t", recipient(12), WALLET_CAP + TON));
    PayoutRequest next = request(RUN + "-behind-cap", id, transfer("t", recipient(13), AMOUNT));
    produce(Topics.PAYOUT_REQUESTS, big.walletKey(), big);
    produce(Topics.PAYOUT_REQUESTS, next.walletKey(), next);

    await("the transfer held by the cap").atMost(DEADLINE)
        .until(() -> metrics.count("payout.issuing.held_by_cap") > heldBefore + 1);
    HttpResponse<String> holds = get("/admin/holds");
    assertMatchesOpenApi("GET", "/admin/holds", holds);
    JsonNode hold = Json.mapper().readTree(holds.body()).get("holds").findParents("requestId").stream()
        .filter(h -> h.get("requestId").asText().equals(big.requestId())).findFirst().orElseThrow();
    assertThat(hold.get("capScope").asText()).isEqualTo("WALLET");
    assertThat(hold.get("window").asText()).isEqualTo("1h");
    assertThat(hold.get("amountNano").asLong()).isEqualTo(WALLET_CAP + TON);
    assertThat(hold.has("freesAt")).as("over the cap by itself: only a release lets it go").isFalse();
    HttpResponse<String> view = get("/admin/wallets/" + id);
    assertMatchesOpenApi("GET", "/admin/wallets/" + id, view);
    assertThat(Json.mapper().readTree(view.body()).at("/held/requestId").asText()).isEqualTo(big.requestId());
    assertThat(Json.mapper().readTree(view.body()).at("/store/queueDepth").asLong()).isEqualTo(2);
    assertThat(app.ledger().queries().attempts(big.requestId(), "t")).isEmpty();
    assertThat(app.ledger().queries().attempts(next.requestId(), "t")).as("waits behind the held one").isEmpty();
    assertThat(devnet.seqno(wallet)).isZero();
    await("the gauge counts the hold").atMost(DEADLINE)
        .until(() -> metrics.registry().find("payout.caps.holds.waiting").gauge().value() >= 1.0);

    String path = "/admin/holds/" + big.requestId() + "/t/release";
    HttpResponse<String> noReason = send("POST", path, "{\"operator\":\"alice\"}", TOKEN);
    assertThat(noReason.statusCode()).isEqualTo(400);
    HttpResponse<String> released = send("POST", path,
        Json.mapper().writeValueAsString(Map.of("operator", "alice", "reason", "INC-43 approved treasury move")), TOKEN);
    assertMatchesOpenApi("POST", path, released);
    assertThat(released.statusCode()).as(released.body()).isEqualTo(200);
    JsonNode r = Json.mapper().readTree(released.body());
    assertThat(r.at("/hold/releasedBy").asText()).isEqualTo("alice (shared token)");
    assertThat(r.at("/audit/event").asText()).isEqualTo("SPEND_CAP_RELEASED");
    assertThat(r.at("/audit/level").asText()).isEqualTo("WARNING");

    await("the released transfer signed").atMost(DEADLINE)
        .until(() -> !app.ledger().queries().attempts(big.requestId(), "t").isEmpty());
    await("and on chain").atMost(DEADLINE).until(() -> devnet.seqno(wallet) == 1);
    HttpResponse<String> notHeld = send("POST", path,
        Json.mapper().writeValueAsString(Map.of("operator", "alice", "reason", "again")), TOKEN);
    assertMatchesOpenApi("POST", path, notHeld);
    assertThat(notHeld.statusCode()).isEqualTo(404);
    assertThat(Json.mapper().readTree(get("/admin/wallets/" + id).body()).has("held")).isFalse();
    assertThat(app.ledger().audit().forRequest(big.requestId())).extracting(e -> e.event().name())
        .containsOnlyOnce("SPEND_CAP_HELD");
  }

  // ---- helpers -----------------------------------------------------------------------------------

  /** Moves the chain's time past every valid_until signed so far (the TTL) and the clock-skew margin. */
  private static void passEveryValidUntil() {
    CHAIN_CLOCK.advance(Duration.ofSeconds(600 + 60));
    devnet.awaitBlocks(2);
  }

  private static String pauseBody(String scope, String operator, String reason) throws Exception {
    return Json.mapper().writeValueAsString(Map.of("scope", scope, "operator", operator, "reason", reason));
  }

  private static double heldByPause() {
    return metrics.registry().find("payout.issuing.held_by_pause").counter().count();
  }

  private static TonAddress fund(long subwalletId) {
    TonAddress wallet = new Subwallets(KEY, 0).address(subwalletId);
    devnet.fund(wallet, 100 * TON);
    return wallet;
  }

  /**
   * Sends the request with devnet dropping its message, then plays the chain poller's verdict that
   * the wallet's seqno moved past the transfer's without any of its hashes. The default node drops
   * every message until the test ends (streams-app's re-sends too); hand-made ones go through the
   * operator's node.
   */
  private LedgerRow reconciliationRequired(PayoutRequest request) throws Exception {
    devnet.faults().drop(1.0);
    produce(Topics.PAYOUT_REQUESTS, request.walletKey(), request);
    await("message of " + request.requestId() + " sent").atMost(DEADLINE).pollInterval(Duration.ofMillis(100))
        .until(() -> !app.ledger().queries().attempts(request.requestId(), "t").isEmpty());
    LedgerRow message = app.ledger().queries().attempts(request.requestId(), "t").get(0);
    produceVerdict(request.walletKey(), Confirmation.of(request.requestId(), "t",
        request.subwalletId(), message.messageHash(), message.seqno(), ConfirmationStatus.RECONCILIATION_REQUIRED,
        null, null, null, null, "wallet seqno moved past " + message.seqno() + " without any of the transfer's hashes",
        Instant.now()));
    await("RECONCILIATION_REQUIRED recorded").atMost(DEADLINE).pollInterval(Duration.ofMillis(100))
        .until(() -> transferStatus(request) == TransferStatus.RECONCILIATION_REQUIRED);
    return message;
  }

  private static TransferStatus transferStatus(PayoutRequest request) {
    return app.ledger().queries().transfer(request.requestId(), "t").map(t -> t.status()).orElse(null);
  }

  /**
   * An operator paying by hand with the wallet's key at its current seqno (the message deploys the
   * wallet when it is the first): a transfer streams-app did not sign. The hash of its transaction.
   */
  private static String payByHand(long subwalletId, TonAddress to, long amount) throws Exception {
    TonAddress wallet = new Subwallets(KEY, 0).address(subwalletId);
    int before = devnet.transactions(wallet).size();
    SignedTransfer signed = new TransferSigner(new Subwallets(KEY, 0)).sign(subwalletId, devnet.seqno(wallet),
        CHAIN_CLOCK.instant().plusSeconds(60), List.of(new TransferOrder(to, amount, "by hand", false)));
    operatorApi.sendBocReturnHash(signed.boc()).get();
    await("hand-made transfer on chain").atMost(DEADLINE).until(() -> devnet.transactions(wallet).size() > before);
    return devnet.transactions(wallet).stream().filter(t -> t.outMsgs().stream()
            .anyMatch(m -> m.destination().equals(to) && m.value() == amount))
        .reduce((a, b) -> b).map(DevnetTransaction::hash).orElseThrow();
  }

  private static String resolvePath(PayoutRequest request) {
    return "/admin/reconciliations/" + request.requestId() + "/t/resolve";
  }

  private static HttpResponse<String> resolve(PayoutRequest request, String outcome, String txHash, String operator,
      String reason) throws Exception {
    Map<String, Object> body = new HashMap<>();
    body.put("outcome", outcome);
    if (txHash != null) {
      body.put("txHash", txHash);
    }
    body.put("operator", operator);
    body.put("reason", reason);
    return resolve(request, body);
  }

  private static HttpResponse<String> resolve(PayoutRequest request, Map<String, Object> body) throws Exception {
    return send("POST", resolvePath(request), Json.mapper().writeValueAsString(body), TOKEN);
  }

  private static HttpResponse<String> get(String path) throws Exception {
    return send("GET", path, null, TOKEN);
  }

  private static HttpResponse<String> send(String method, String path, String body, String token) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static void assertMatchesOpenApi(String method, String path, HttpResponse<String> response) {
    SimpleResponse.Builder r = SimpleResponse.Builder.status(response.statusCode()).withBody(response.body());
    response.headers().firstValue("Content-Type").ifPresent(ct -> r.withContentType(ct));
    ValidationReport report = OPENAPI.validateResponse(path, Request.Method.valueOf(method), r.build());
    assertThat(report.getMessages()).as("%s %s %d: %s", method, path, response.statusCode(), response.body()).isEmpty();
  }

  private static JsonNode find(JsonNode transfers, String requestId) {
    for (JsonNode t : transfers) {
      if (t.at("/transfer/requestId").asText().equals(requestId)) {
        return t;
      }
    }
    throw new AssertionError("no reconciliation for " + requestId + " in " + transfers);
  }

  private static List<Settlement> resolved(List<Settlement> settlements) {
    return settlements.stream().filter(s -> s.resolution() != null && s.requestId().startsWith(RUN)).toList();
  }

  private static <V> void produce(Topic<String, V> topic, String key, V value) throws Exception {
    try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedTestInfrastructure.kafka().bootstrapServers(),
        ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new ByteArraySerializer())) {
      producer.send(new ProducerRecord<>(topic.name(), key, topic.valueSerde().serializer().serialize(topic.name(),
          value))).get();
    }
  }

  /** Writes a verdict as chain-poller does: signed with the deployment's verdict key (streams-app applies no other). */
  private static void produceVerdict(String key, Confirmation verdict) throws Exception {
    org.apache.kafka.common.header.internals.RecordHeaders headers =
        new org.apache.kafka.common.header.internals.RecordHeaders();
    byte[] value = new org.tonpayouts.runtime.trust.VerdictSigner(org.tonpayouts.runtime.trust.VerdictKeys.parse(
        PayoutTestKit.VERDICT_KEYS, "the tests' verdict keys")).serialize(Topics.PAYOUT_CONFIRMATIONS.name(), headers,
        verdict);
    try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedTestInfrastructure.kafka().bootstrapServers(),
        ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new ByteArraySerializer())) {
      producer.send(new ProducerRecord<>(Topics.PAYOUT_CONFIRMATIONS.name(), null, key, value, headers)).get();
    }
  }

  /** Every committed value of {@code topic} so far, in offset order per partition. */
  private static <V> List<V> readAll(Topic<String, V> topic) {
    try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedTestInfrastructure.kafka().bootstrapServers(),
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new StringDeserializer(),
        new ByteArrayDeserializer())) {
      List<TopicPartition> partitions = consumer.partitionsFor(topic.name()).stream()
          .map(p -> new TopicPartition(topic.name(), p.partition())).collect(Collectors.toList());
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      List<V> values = new ArrayList<>();
      while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
        for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(100))) {
          values.add(topic.valueSerde().deserializer().deserialize(topic.name(), r.value()));
        }
      }
      return values;
    }
  }

}
