package org.tonpayouts.streams.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.tonpayouts.streams.PayoutTestKit.FIRST_SUBWALLET;
import static org.tonpayouts.streams.PayoutTestKit.KEY;
import static org.tonpayouts.streams.PayoutTestKit.TON;
import static org.tonpayouts.streams.PayoutTestKit.recipient;
import static org.tonpayouts.streams.PayoutTestKit.request;
import static org.tonpayouts.streams.PayoutTestKit.transfer;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.SimpleResponse;
import com.atlassian.oai.validator.report.ValidationReport;
import com.fasterxml.jackson.databind.JsonNode;
import com.zaxxer.hikari.HikariDataSource;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.devnet.ManualClock;
import org.tonpayouts.devnet.chain.DevnetTransaction;
import org.tonpayouts.embedded.EmbeddedPostgresServer;
import org.tonpayouts.embedded.SharedTestInfrastructure;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.admin.OperatorTokens;
import org.tonpayouts.schemas.Json;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.streams.PayoutTestKit;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.operator.Approval;
import org.tonpayouts.streams.ledger.record.Intent;
import org.tonpayouts.streams.ledger.sql.TransferStatus;
import org.tonpayouts.streams.metrics.PayoutMetrics;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;
import org.tonpayouts.ton.keys.SecretFiles;
import org.tonpayouts.ton.wallet.SignedTransfer;
import org.tonpayouts.ton.wallet.Subwallets;
import org.tonpayouts.ton.wallet.TransferOrder;
import org.tonpayouts.ton.wallet.TransferSigner;

/**
 * The admin API with operators by name and the two-person rule (real PostgreSQL and devnet): every
 * call is made as the operator whose token it carries, recorded with the caller's address, and a body
 * naming someone else is refused; a resolution at or above the threshold waits for a second, different
 * operator, whose approval re-checks the chain and settles it with both names recorded; below it one
 * operator suffices. A FAILED resolution waits the same way, and its approval reads the chain again: a
 * payment of the transfer's destination and amount that appeared since the request refuses it. The
 * transfers are made RECONCILIATION_REQUIRED in the ledger directly and paid by hand on devnet, so the
 * chain evidence is real; the chain's clock is moved past valid_until rather than waited for.
 */
class OperatorsAdminApiTest {
  private static final long THRESHOLD = 10 * TON;
  private static final String ALICE = OperatorTokens.newToken();
  private static final String BOB = OperatorTokens.newToken();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final OpenApiInteractionValidator OPENAPI = OpenApiInteractionValidator.createForSpecificationUrl(
      OperatorsAdminApiTest.class.getResource(AdminServer.OPENAPI_RESOURCE).toString()).build();
  private static final String RUN = SharedTestInfrastructure.uniqueName("operators");
  /** How long the test's messages are valid for, on the chain's clock. */
  private static final Duration MESSAGE_TTL = Duration.ofSeconds(60);
  /** The chain's clock: moved past the transfers' valid_until for FAILED resolutions instead of waiting for it. */
  private static final ManualClock CHAIN_CLOCK = ManualClock.systemPlusOffset();

  @TempDir
  static Path dir;
  private static Devnet devnet;
  private static TonApiClient api;
  private static HikariDataSource db;
  private static Ledger ledger;
  private static AdminServer server;
  private static String base;

  @BeforeAll
  static void start() throws Exception {
    EmbeddedPostgresServer postgres = SharedTestInfrastructure.postgres();
    SharedTestInfrastructure.createDatabase(OperatorsAdminApiTest.class);
    db = Ledger.pooledDataSource(postgres.jdbcUrl(SharedTestInfrastructure.databaseName(OperatorsAdminApiTest.class)),
        postgres.user(), postgres.password(), 4);
    Ledger.migrate(db);
    ledger = new Ledger(db, Clock.systemUTC());
    devnet = Devnet.builder().blockInterval(Duration.ofMillis(100)).clock(CHAIN_CLOCK).start();
    api = new TonApiClient(TonApiConfig.of(devnet.baseUrl()).withRequestsPerSecond(10_000));
    Path operators = dir.resolve("operators");
    SecretFiles.writeOwnerOnly(operators, "# the on-call operators\n" + OperatorTokens.line("alice", ALICE) + "\n"
        + OperatorTokens.line("bob", BOB) + "\n");
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    Map<String, Object> values = new HashMap<>();
    values.put(PayoutsConfig.TON_API_URL_CONFIG, devnet.baseUrl().toString());
    values.put(PayoutsConfig.ADMIN_PORT_CONFIG, port);
    values.put(PayoutsConfig.ADMIN_OPERATORS_FILE_CONFIG, operators.toString());
    values.put(PayoutsConfig.ADMIN_APPROVAL_THRESHOLD_NANO_CONFIG, THRESHOLD);
    PayoutsConfig config = PayoutTestKit.config(values);
    server = AdminServer.start(port, AdminAccess.from(config).orElseThrow(), java.util.Optional.empty(), config, null,
        ledger, new Subwallets(KEY, 0), api, PayoutMetrics.inMemory(), Clock.systemUTC());
    base = "http://127.0.0.1:" + server.port();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    if (api != null) {
      api.close();
    }
    if (devnet != null) {
      devnet.close();
    }
    if (db != null) {
      db.close();
    }
  }

  @Test
  void shouldRefuseAnUnknownTokenAndLogTheAttemptWithoutIt() throws Exception {
    Logger logger = (Logger) LoggerFactory.getLogger(AdminServer.class);
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    logged.start();
    logger.addAppender(logged);
    String stranger = OperatorTokens.newToken();
    try {
      HttpResponse<String> unknown = send("GET", "/admin/pauses", null, stranger);
      HttpResponse<String> none = send("GET", "/admin/pauses", null, null);

      assertThat(unknown.statusCode()).isEqualTo(401);
      assertThat(none.statusCode()).isEqualTo(401);
      assertThat(logged.list).extracting(ILoggingEvent::getFormattedMessage)
          .anySatisfy(line -> assertThat(line).contains("admin call refused: no valid credentials route=pauses")
              .contains("remote=127.0.0.1:").contains("why=no operator has this token"))
          .allSatisfy(line -> assertThat(line).doesNotContain(stranger));
    } finally {
      logger.detachAppender(logged);
    }
  }

  @Test
  void shouldRecordTheAuthenticatedOperatorAndTheCallersAddress() throws Exception {
    String scope = Long.toString(FIRST_SUBWALLET + 40);
    HttpResponse<String> impostor = send("POST", "/admin/pause", json(Map.of("scope", scope, "operator", "bob",
        "reason", "INC-50")), ALICE);
    assertThat(impostor.statusCode()).as(impostor.body()).isEqualTo(403);
    assertThat(impostor.body()).contains("names operator 'bob' but the token is alice's");
    assertThat(ledger.pauses().active()).isEmpty();

    HttpResponse<String> paused = send("POST", "/admin/pause", json(Map.of("scope", scope, "reason", "INC-50")),
        ALICE);
    assertMatchesOpenApi("POST", "/admin/pause", paused);
    assertThat(paused.statusCode()).as(paused.body()).isEqualTo(200);
    JsonNode p = Json.mapper().readTree(paused.body());
    assertThat(p.at("/pause/pausedBy").asText()).isEqualTo("alice");
    assertThat(p.at("/pause/pausedFrom").asText()).startsWith("127.0.0.1:");
    assertThat(p.at("/audit/actor").asText()).isEqualTo("alice");
    assertThat(p.at("/audit/actorAddress").asText()).matches("127\\.0\\.0\\.1:\\d+");

    HttpResponse<String> resumed = send("POST", "/admin/resume", json(Map.of("scope", scope, "operator", "bob",
        "reason", "INC-50 closed")), BOB);
    assertThat(resumed.statusCode()).as(resumed.body()).isEqualTo(200);
    List<AuditEvent> audit = ledger.audit().since(Instant.EPOCH, 1000).stream()
        .filter(e -> e.event() == AuditEvent.Type.PAUSED || e.event() == AuditEvent.Type.RESUMED).toList();
    assertThat(audit).extracting(e -> e.actor().name()).containsExactly("alice", "bob");
    assertThat(audit).allSatisfy(e -> assertThat(e.actor().address()).matches("127\\.0\\.0\\.1:\\d+"));
    assertThat(audit.get(1).detail()).contains("resumed by bob from 127.0.0.1:");
  }

  @Test
  void shouldNeedASecondOperatorAtOrAboveTheThreshold() throws Exception {
    long id = FIRST_SUBWALLET + 41;
    TonAddress destination = recipient(41);
    PayoutRequest request = request(RUN + "-large", id, transfer("t", destination, THRESHOLD));
    String paying = reconciliationRequiredThenPaidByHand(request, destination, THRESHOLD);

    HttpResponse<String> asked = resolve(request, paying, ALICE);
    assertMatchesOpenApi("POST", resolvePath(request), asked);
    assertThat(asked.statusCode()).as(asked.body()).isEqualTo(202);
    JsonNode pending = Json.mapper().readTree(asked.body());
    long approvalId = pending.at("/approval/approvalId").asLong();
    assertThat(pending.at("/approval/state").asText()).isEqualTo("PENDING");
    assertThat(pending.at("/approval/requestedBy").asText()).isEqualTo("alice");
    assertThat(pending.at("/next").asText()).contains("needs a second operator")
        .contains("/admin/approvals/" + approvalId + "/approve");
    assertThat(pending.at("/audit/event").asText()).isEqualTo("APPROVAL_REQUESTED");
    assertNothingResolved(request);

    HttpResponse<String> listed = send("GET", "/admin/approvals", null, BOB);
    assertMatchesOpenApi("GET", "/admin/approvals", listed);
    assertThat(Json.mapper().readTree(listed.body()).get("pending").findValuesAsText("approvalId"))
        .contains(Long.toString(approvalId));
    HttpResponse<String> again = resolve(request, paying, BOB);
    assertThat(again.statusCode()).as(again.body()).isEqualTo(409);
    assertThat(again.body()).contains("already waits for approval " + approvalId);

    HttpResponse<String> self = send("POST", "/admin/approvals/" + approvalId + "/approve", null, ALICE);
    assertMatchesOpenApi("POST", "/admin/approvals/" + approvalId + "/approve", self);
    assertThat(self.statusCode()).as(self.body()).isEqualTo(403);
    assertThat(self.body()).contains("the two-person rule: alice asked for approval " + approvalId);
    assertNothingResolved(request);

    HttpResponse<String> approved = send("POST", "/admin/approvals/" + approvalId + "/approve", "{}", BOB);
    assertMatchesOpenApi("POST", "/admin/approvals/" + approvalId + "/approve", approved);
    assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
    JsonNode r = Json.mapper().readTree(approved.body());
    assertThat(r.at("/transfer/status").asText()).isEqualTo("SETTLED");
    assertThat(r.at("/audit/actor").asText()).isEqualTo("alice");
    assertThat(r.at("/audit/approvedBy").asText()).isEqualTo("bob");
    assertThat(r.at("/audit/approvedByAddress").asText()).startsWith("127.0.0.1:");
    assertThat(r.at("/audit/detail").asText()).contains("by alice from 127.0.0.1:")
        .contains("approved by bob from 127.0.0.1:");
    assertThat(r.at("/settlement/resolution/operator").asText()).isEqualTo("alice");
    assertThat(r.at("/settlement/resolution/approvedBy").asText()).isEqualTo("bob");
    assertThat(r.at("/approval/state").asText()).isEqualTo("APPROVED");
    assertThat(r.at("/approval/auditId").asLong()).isEqualTo(r.at("/audit/auditId").asLong());
    assertThat(transferStatus(request)).isEqualTo(TransferStatus.SETTLED);
    assertThat(ledger.admin().lifecycle(request.requestId()).orElseThrow().transfers().get(0).resolutions())
        .hasSize(1);

    HttpResponse<String> twice = send("POST", "/admin/approvals/" + approvalId + "/approve", null, BOB);
    assertThat(twice.statusCode()).isEqualTo(409);
    assertThat(twice.body()).contains("is APPROVED by bob");
  }

  @Test
  void shouldLetOneOperatorResolveBelowTheThreshold() throws Exception {
    long id = FIRST_SUBWALLET + 42;
    TonAddress destination = recipient(42);
    long amount = THRESHOLD - 1;
    PayoutRequest request = request(RUN + "-small", id, transfer("t", destination, amount));
    String paying = reconciliationRequiredThenPaidByHand(request, destination, amount);

    HttpResponse<String> resolved = resolve(request, paying, BOB);

    assertThat(resolved.statusCode()).as(resolved.body()).isEqualTo(200);
    JsonNode r = Json.mapper().readTree(resolved.body());
    assertThat(r.at("/transfer/status").asText()).isEqualTo("SETTLED");
    assertThat(r.at("/audit/actor").asText()).isEqualTo("bob");
    assertThat(r.at("/audit/approvedBy").isMissingNode() || r.at("/audit/approvedBy").isNull()).isTrue();
    assertThat(r.at("/settlement/resolution/operator").asText()).isEqualTo("bob");
    assertThat(r.at("/settlement/resolution").has("approvedBy")).isFalse();
  }

  @Test
  void shouldLetTheAskerCancelAndAnotherOperatorReject() throws Exception {
    long id = FIRST_SUBWALLET + 43;
    TonAddress destination = recipient(43);
    PayoutRequest request = request(RUN + "-rejected", id, transfer("t", destination, 2 * THRESHOLD));
    String paying = reconciliationRequiredThenPaidByHand(request, destination, 2 * THRESHOLD);

    long first = Json.mapper().readTree(resolve(request, paying, ALICE).body()).at("/approval/approvalId").asLong();
    HttpResponse<String> cancelled = send("POST", "/admin/approvals/" + first + "/reject",
        json(Map.of("reason", "wrong transaction, asking again")), ALICE);
    assertMatchesOpenApi("POST", "/admin/approvals/" + first + "/reject", cancelled);
    assertThat(cancelled.statusCode()).as(cancelled.body()).isEqualTo(200);
    assertThat(Json.mapper().readTree(cancelled.body()).at("/approval/state").asText()).isEqualTo("CANCELLED");

    long second = Json.mapper().readTree(resolve(request, paying, ALICE).body()).at("/approval/approvalId").asLong();
    HttpResponse<String> rejected = send("POST", "/admin/approvals/" + second + "/reject",
        json(Map.of("reason", "that transaction is the March refund")), BOB);
    JsonNode r = Json.mapper().readTree(rejected.body());
    assertThat(r.at("/approval/state").asText()).isEqualTo("REJECTED");
    assertThat(r.at("/approval/decidedBy").asText()).isEqualTo("bob");
    assertThat(r.at("/audit/event").asText()).isEqualTo("APPROVAL_REJECTED");
    assertThat(r.at("/audit/actor").asText()).isEqualTo("bob");

    HttpResponse<String> late = send("POST", "/admin/approvals/" + second + "/approve", null, BOB);
    assertThat(late.statusCode()).isEqualTo(409);
    assertThat(second).isNotEqualTo(first);
    assertNothingResolved(request);
  }

  @Test
  void shouldFailAboveTheThresholdOnlyOnceASecondOperatorApprovesWithBothNamesRecorded() throws Exception {
    long id = FIRST_SUBWALLET + 44;
    TonAddress destination = recipient(44);
    PayoutRequest request = request(RUN + "-failed", id, transfer("t", destination, THRESHOLD));
    reconciliationRequired(request);
    payByHand(id, recipient(45), THRESHOLD); // another signer took the transfer's seqno, paying someone else
    passEveryValidUntil();

    HttpResponse<String> asked = resolveFailed(request, ALICE);
    assertMatchesOpenApi("POST", resolvePath(request), asked);
    assertThat(asked.statusCode()).as(asked.body()).isEqualTo(202);
    JsonNode pending = Json.mapper().readTree(asked.body());
    long approvalId = pending.at("/approval/approvalId").asLong();
    assertThat(pending.at("/approval/outcome").asText()).isEqualTo("FAILED");
    assertThat(pending.at("/approval/requestedBy").asText()).isEqualTo("alice");
    assertNothingResolved(request);

    HttpResponse<String> approved = send("POST", "/admin/approvals/" + approvalId + "/approve", null, BOB);

    assertMatchesOpenApi("POST", "/admin/approvals/" + approvalId + "/approve", approved);
    assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
    JsonNode r = Json.mapper().readTree(approved.body());
    assertThat(r.at("/transfer/status").asText()).isEqualTo("FAILED");
    assertThat(r.at("/audit/event").asText()).isEqualTo("OPERATOR_RESOLUTION");
    assertThat(r.at("/audit/actor").asText()).isEqualTo("alice");
    assertThat(r.at("/audit/approvedBy").asText()).isEqualTo("bob");
    assertThat(r.at("/audit/detail").asText()).contains("resolved FAILED by alice from 127.0.0.1:")
        .contains("approved by bob from 127.0.0.1:").contains("no transaction pays " + THRESHOLD + " nanotons");
    assertThat(r.at("/settlement/status").asText()).isEqualTo("FAILED");
    assertThat(r.at("/settlement/reason").asText()).startsWith("resolved FAILED by alice, approved by bob:");
    assertThat(r.at("/settlement/resolution/operator").asText()).isEqualTo("alice");
    assertThat(r.at("/settlement/resolution/approvedBy").asText()).isEqualTo("bob");
    assertThat(r.at("/approval/state").asText()).isEqualTo("APPROVED");
    assertThat(r.at("/approval/auditId").asLong()).isEqualTo(r.at("/audit/auditId").asLong());
    assertThat(transferStatus(request)).isEqualTo(TransferStatus.FAILED);
    assertThat(ledger.admin().lifecycle(request.requestId()).orElseThrow().transfers().get(0).resolutions())
        .hasSize(1);
  }

  @Test
  void shouldRefuseToApproveAFailedResolutionOnceAPaymentOfTheTransferIsOnChain() throws Exception {
    long id = FIRST_SUBWALLET + 46;
    TonAddress destination = recipient(46);
    PayoutRequest request = request(RUN + "-paid-meanwhile", id, transfer("t", destination, THRESHOLD));
    reconciliationRequired(request);
    payByHand(id, recipient(47), THRESHOLD); // another signer took the transfer's seqno, paying someone else
    passEveryValidUntil();
    HttpResponse<String> asked = resolveFailed(request, ALICE);
    assertThat(asked.statusCode()).as(asked.body()).isEqualTo(202);
    long approvalId = Json.mapper().readTree(asked.body()).at("/approval/approvalId").asLong();

    // between the request and the approval, the destination is paid the transfer's amount after all
    String paid = payByHand(id, destination, THRESHOLD);
    HttpResponse<String> approved = send("POST", "/admin/approvals/" + approvalId + "/approve", null, BOB);

    assertMatchesOpenApi("POST", "/admin/approvals/" + approvalId + "/approve", approved);
    assertThat(approved.statusCode()).as(approved.body()).isEqualTo(409);
    assertThat(approved.body()).contains("not resolved FAILED: transaction " + paid)
        .contains("pays " + THRESHOLD + " nanotons to").contains("the transfer may have been paid");
    assertNothingResolved(request);
    assertThat(ledger.approvals().find(approvalId).orElseThrow().state(Instant.now()))
        .as("still open: the chain may be read again, or someone rejects it").isEqualTo(Approval.State.PENDING);
    assertThat(ledger.audit().forRequest(request.requestId())).extracting(AuditEvent::event)
        .doesNotContain(AuditEvent.Type.OPERATOR_RESOLUTION);
  }

  // ---- helpers -----------------------------------------------------------------------------------

  /** Moves the chain's time past every valid_until signed so far and the clock-skew margin (10 s by default). */
  private static void passEveryValidUntil() {
    CHAIN_CLOCK.advance(MESSAGE_TTL.plusSeconds(10 + 1));
    devnet.awaitBlocks(2);
  }

  private static void assertNothingResolved(PayoutRequest request) {
    assertThat(transferStatus(request)).isEqualTo(TransferStatus.RECONCILIATION_REQUIRED);
    assertThat(ledger.admin().lifecycle(request.requestId()).orElseThrow().transfers().get(0).resolutions())
        .as("no settlement queued").isEmpty();
  }

  /**
   * Records the transfer's message in the ledger (never sent) and the chain poller's verdict that its
   * seqno was used by another message; then pays it by hand at that seqno. The paying transaction's hash.
   */
  private static String reconciliationRequiredThenPaidByHand(PayoutRequest request, TonAddress destination,
      long amount) throws Exception {
    reconciliationRequired(request);
    return payByHand(request.subwalletId(), destination, amount);
  }

  /**
   * Funds the request's wallet and records the transfer's message in the ledger (never sent) at the
   * wallet's seqno, valid for {@link #MESSAGE_TTL} on the chain's clock, with the chain poller's verdict
   * that its seqno was used by another message.
   */
  private static void reconciliationRequired(PayoutRequest request) {
    TonAddress wallet = new Subwallets(KEY, 0).address(request.subwalletId());
    devnet.fund(wallet, 100 * TON);
    String hash = LedgerHashes.of(request.requestId());
    Intent intent = new Intent(request, "test", 0, 1, wallet.toRaw(), devnet.seqno(wallet), hash,
        LedgerHashes.of("normalized " + request.requestId()), "te6cckEBAQEA", CHAIN_CLOCK.instant().plus(MESSAGE_TTL));
    assertThat(ledger.intents().record(intent).recorded()).isTrue();
    ledger.transitions().reconcile(hash, "seqno moved past " + intent.seqno() + " without the transfer's hashes");
    assertThat(transferStatus(request)).isEqualTo(TransferStatus.RECONCILIATION_REQUIRED);
  }

  /** Pays {@code destination} by hand from the subwallet at its current seqno: the paying transaction's hash. */
  private static String payByHand(long subwalletId, TonAddress destination, long amount) throws Exception {
    TonAddress wallet = new Subwallets(KEY, 0).address(subwalletId);
    int before = devnet.transactions(wallet).size();
    SignedTransfer signed = new TransferSigner(new Subwallets(KEY, 0)).sign(subwalletId, devnet.seqno(wallet),
        CHAIN_CLOCK.instant().plus(MESSAGE_TTL), List.of(new TransferOrder(destination, amount, "by hand", false)));
    api.sendBocReturnHash(signed.boc()).get();
    await("hand-made transfer on chain").atMost(Duration.ofSeconds(30))
        .until(() -> devnet.transactions(wallet).size() > before);
    return devnet.transactions(wallet).stream().filter(t -> t.outMsgs().stream()
            .anyMatch(m -> m.destination().equals(destination) && m.value() == amount))
        .reduce((a, b) -> b).map(DevnetTransaction::hash).orElseThrow();
  }

  private static TransferStatus transferStatus(PayoutRequest request) {
    return ledger.queries().transfer(request.requestId(), "t").map(t -> t.status()).orElse(null);
  }

  private static String resolvePath(PayoutRequest request) {
    return "/admin/reconciliations/" + request.requestId() + "/t/resolve";
  }

  private static HttpResponse<String> resolve(PayoutRequest request, String txHash, String token) throws Exception {
    return send("POST", resolvePath(request), json(Map.of("outcome", "SETTLED", "txHash", txHash, "reason",
        "paid by hand, OPS-90")), token);
  }

  private static HttpResponse<String> resolveFailed(PayoutRequest request, String token) throws Exception {
    return send("POST", resolvePath(request), json(Map.of("outcome", "FAILED", "reason",
        "never on chain; another signer used the seqno, OPS-91")), token);
  }

  private static String json(Map<String, Object> body) throws Exception {
    return Json.mapper().writeValueAsString(body);
  }

  private static HttpResponse<String> send(String method, String path, String body, String token) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static void assertMatchesOpenApi(String method, String path, HttpResponse<String> response) {
    SimpleResponse.Builder r = SimpleResponse.Builder.status(response.statusCode()).withBody(response.body());
    response.headers().firstValue("Content-Type").ifPresent(r::withContentType);
    ValidationReport report = OPENAPI.validateResponse(path, Request.Method.valueOf(method), r.build());
    assertThat(report.getMessages()).as("%s %s %d: %s", method, path, response.statusCode(), response.body()).isEmpty();
  }

  /** Hex SHA-256 of a seed: message hashes for intents that are never sent. */
  private static final class LedgerHashes {
    static String of(String seed) {
      return java.util.HexFormat.of().formatHex(OperatorTokens.sha256(seed));
    }
  }
}
