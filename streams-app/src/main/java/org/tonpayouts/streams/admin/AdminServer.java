package org.tonpayouts.streams.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.StartupException;
import org.tonpayouts.runtime.http.HttpBinding;
import org.tonpayouts.runtime.http.HttpEndpoint;
import org.tonpayouts.runtime.http.HttpLimits;
import org.tonpayouts.runtime.http.ServerTls;
import org.tonpayouts.schemas.Json;
import org.tonpayouts.streams.admin.AdminViews.ApprovalView;
import org.tonpayouts.streams.admin.AdminViews.DecisionRequest;
import org.tonpayouts.streams.admin.AdminViews.PauseRequest;
import org.tonpayouts.streams.admin.AdminViews.ReleaseRequest;
import org.tonpayouts.streams.ledger.caps.HoldRelease;
import org.tonpayouts.streams.admin.AdminViews.Problem;
import org.tonpayouts.streams.admin.AdminViews.ResolveRequest;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.ledger.audit.Actor;
import org.tonpayouts.streams.ledger.operator.Approval;
import org.tonpayouts.streams.ledger.operator.ApprovalAsk;
import org.tonpayouts.streams.ledger.operator.ApprovalChange;
import org.tonpayouts.streams.ledger.operator.Approvals;
import org.tonpayouts.streams.ledger.operator.PauseChange;
import org.tonpayouts.streams.ledger.operator.Resolver;
import org.tonpayouts.streams.ledger.operator.ResolutionResult;
import org.tonpayouts.streams.ledger.sql.LedgerException;
import org.tonpayouts.streams.ledger.sql.Pause;
import org.tonpayouts.streams.ledger.sql.TransferRow;
import org.tonpayouts.streams.ledger.sql.TransferStatus;
import org.tonpayouts.streams.metrics.PayoutMetrics;
import org.tonpayouts.ton.api.TonApi;
import org.tonpayouts.ton.wallet.Subwallets;

/**
 * streams-app's admin API on {@code admin.port} (docs/operations.md: Admin API; {@code openapi/admin-api.yaml}):
 * a request's lifecycle, a wallet's view, the transfers waiting for a reconciliation, and their
 * resolution, under the two-person rule through approvals; the pause switch (pause, resume, the pauses in force);
 * the transfers the spend caps hold, and their release.
 * Every call needs {@code Authorization: Bearer <token>}: an operator's own token from {@code admin.operators.file}
 * (the audit log then records that operator and the caller's address), or the shared admin token (401
 * otherwise; refusals are logged, tokens never). JSON in and out; refusals say why.
 */
public final class AdminServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(AdminServer.class);
  /** The API's routes: the OpenAPI file must document exactly these (AdminApiTest checks it). */
  public static final List<String> ROUTES = List.of(
      "GET /admin/requests/{requestId}",
      "GET /admin/wallets/{subwalletId}",
      "GET /admin/reconciliations",
      "POST /admin/reconciliations/{requestId}/{transferId}/resolve",
      "POST /admin/pause",
      "POST /admin/resume",
      "GET /admin/pauses",
      "GET /admin/approvals",
      "POST /admin/approvals/{approvalId}/approve",
      "POST /admin/approvals/{approvalId}/reject",
      "GET /admin/holds",
      "POST /admin/holds/{requestId}/{transferId}/release",
      "GET /admin/openapi.yaml");
  public static final String OPENAPI_RESOURCE = "/openapi/admin-api.yaml";
  static final int MAX_BODY_BYTES = 64 * 1024;
  static final int MAX_OPERATOR_CHARS = 100;
  static final int MAX_REASON_CHARS = 1000;
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");
  private static final Pattern HASH = Pattern.compile("[0-9a-f]{64}");

  private final HttpEndpoint endpoint;
  private final AdminAccess access;
  private final Ledger ledger;
  private final WalletView wallets;
  private final ResolutionProof proofs;
  private final TwoPersonRule twoPersonRule;
  private final PayoutMetrics metrics;
  private final Clock clock;
  private final ObjectMapper json = Json.newMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  /** From which amount a resolution needs a second operator (empty: never), and how long a request waits. */
  record TwoPersonRule(OptionalLong thresholdNano, Duration ttl) {
    static TwoPersonRule of(PayoutsConfig config) {
      return new TwoPersonRule(config.adminApprovalThresholdNano(), config.adminApprovalTtl());
    }

    boolean applies(TransferRow transfer) {
      return thresholdNano.isPresent() && transfer.amountNano() >= thresholdNano.getAsLong();
    }
  }

  private AdminServer(HttpEndpoint endpoint, AdminAccess access, Ledger ledger, WalletView wallets,
      ResolutionProof proofs, TwoPersonRule twoPersonRule, PayoutMetrics metrics, Clock clock) {
    this.endpoint = endpoint;
    this.access = access;
    this.ledger = ledger;
    this.wallets = wallets;
    this.proofs = proofs;
    this.twoPersonRule = twoPersonRule;
    this.metrics = metrics;
    this.clock = clock;
  }

  /**
   * Serves the admin API on {@code config.adminPort()} (0 here picks a free port: tests).
   *
   * @param port the port to bind
   * @param token the bearer token every call must carry
   */
  public static AdminServer start(int port, String token, PayoutsConfig config, KafkaStreams streams, Ledger ledger,
      Subwallets subwallets, TonApi api, PayoutMetrics metrics, Clock clock) {
    return start(port, AdminAccess.sharedToken(token), tls(config), config, streams, ledger, subwallets, api, metrics,
        clock);
  }

  /**
   * The admin API's TLS as configured ({@code admin.tls.keystore.file} and its password), loaded
   * now: streams-app calls it before it starts anything, so a wrong key store or password stops it
   * at once.
   *
   * @throws StartupException naming the key and the file (never the password)
   */
  public static Optional<ServerTls> tls(PayoutsConfig config) {
    return config.adminTlsKeyStoreFile().map(file -> {
      try {
        return ServerTls.fromPkcs12(PayoutsConfig.ADMIN_TLS_KEYSTORE_FILE_CONFIG, file, config.adminTlsKeyStorePassword());
      } catch (ConfigException e) {
        throw new StartupException(e.getMessage(), e);
      }
    });
  }

  /**
   * {@link #start(int, String, PayoutsConfig, KafkaStreams, Ledger, Subwallets, TonApi, PayoutMetrics, Clock)}
   * with the callers' credentials ({@link AdminAccess#from}) and {@code tls} loaded already.
   *
   * @throws StartupException when the two-person rule is on with the shared token
   */
  public static AdminServer start(int port, AdminAccess access, Optional<ServerTls> tls, PayoutsConfig config,
      KafkaStreams streams, Ledger ledger, Subwallets subwallets, TonApi api, PayoutMetrics metrics, Clock clock) {
    TwoPersonRule twoPersonRule = TwoPersonRule.of(config);
    if (twoPersonRule.thresholdNano().isPresent() && !(access instanceof AdminAccess.Operators)) {
      throw new StartupException(PayoutsConfig.ADMIN_APPROVAL_THRESHOLD_NANO_CONFIG + " needs "
          + PayoutsConfig.ADMIN_OPERATORS_FILE_CONFIG + ": the two-person rule cannot tell two holders of one shared"
          + " token apart", null);
    }
    Duration callTimeout = config.tonApi().callTimeout().multipliedBy(config.tonApi().maxReadAttempts()).plusSeconds(1);
    HttpBinding binding = new HttpBinding(config.adminBindAddress(), port, PayoutsConfig.ADMIN_BIND_ADDRESS_CONFIG,
        PayoutsConfig.ADMIN_PORT_CONFIG);
    if (tls.isEmpty() && !binding.isLoopback()) {
      log.warn("admin API listens beyond this host without TLS: the bearer token and the answers cross the network"
          + " in clear; set {} (docs/production.md: The HTTP surfaces) address={}",
          PayoutsConfig.ADMIN_TLS_KEYSTORE_FILE_CONFIG, binding.describe());
    }
    HttpEndpoint endpoint = HttpEndpoint.bind(binding, HttpLimits.of(config), tls, "admin-http");
    ChainReads reads = new ChainReads(api, callTimeout);
    MessageWindow window = new MessageWindow(reads, config.clockSkewMargin());
    AdminServer server = new AdminServer(endpoint, access, ledger,
        new WalletView(streams, ledger, subwallets, api, callTimeout, config.testnet()),
        new ResolutionProof(ledger, new ChainCheck(reads, config.clockSkewMargin()),
            new FailureEvidence(reads, window, config.clockSkewMargin())), twoPersonRule, metrics, clock);
    endpoint.context("/", server::handle).start();
    log.info("admin API listening address={} port={} scheme={} routes={} access={} approval_threshold_nano={}",
        binding.address(), server.port(), tls.isPresent() ? "https" : "http", ROUTES.size(), access.describe(),
        twoPersonRule.thresholdNano().isPresent() ? twoPersonRule.thresholdNano().getAsLong() : "off");
    return server;
  }

  public int port() {
    return endpoint.port();
  }

  // ---- routing and authentication -----------------------------------------------------------------

  /** One answer: status and JSON (or YAML for the OpenAPI file). */
  private record Answer(int status, Object body, String contentType) {
    static Answer json(int status, Object body) {
      return new Answer(status, body, "application/json");
    }

    static Answer problem(int status, String error) {
      return json(status, new Problem(status, error, null));
    }

    static Answer problem(int status, String error, TransferRow transfer) {
      return json(status, new Problem(status, error, transfer == null ? null : AdminViews.Transfer.of(transfer)));
    }

    static Answer problem(int status, String error, ApprovalView approval) {
      return json(status, new Problem(status, error, null, null, approval));
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    Instant started = clock.instant();
    String method = exchange.getRequestMethod().toUpperCase(Locale.ROOT);
    Optional<List<String>> decoded = segments(exchange.getRequestURI().getRawPath());
    List<String> path = decoded.orElse(List.of());
    String route = route(method, path);
    Answer answer;
    Authentication caller = access.authenticate(exchange.getRequestHeaders().getFirst("Authorization"));
    if (caller instanceof Authentication.Refused refused) {
      exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"payouts-admin\"");
      log.warn("admin call refused: no valid credentials route={} remote={} why={}", route, address(exchange),
          refused.why());
      answer = Answer.problem(401, "a valid bearer token is required (Authorization: Bearer <your operator token>)");
    } else if (decoded.isEmpty()) {
      answer = Answer.problem(400, "the path has a malformed percent-escape (% must be followed by two hex digits)");
    } else {
      answer = answer(exchange, method, route, path, caller);
    }
    String body = answer.body() instanceof String text ? text : json.writeValueAsString(answer.body());
    // counted before answering, so whoever got the answer also sees it counted
    metrics.adminCall(route, answer.status(), Duration.between(started, clock.instant()));
    HttpEndpoint.respond(exchange, answer.status(), answer.contentType(), body);
  }

  /** The route's name for metrics and logs: never the path itself (ids would explode the tag values). */
  private static String route(String method, List<String> p) {
    if (p.size() < 2 || !p.get(0).equals("admin")) {
      return "unknown";
    }
    return switch (p.get(1)) {
      case "requests" -> p.size() == 3 && method.equals("GET") ? "request" : "unknown";
      case "wallets" -> p.size() == 3 && method.equals("GET") ? "wallet" : "unknown";
      case "reconciliations" -> p.size() == 2 && method.equals("GET") ? "reconciliations"
          : p.size() == 5 && p.get(4).equals("resolve") && method.equals("POST") ? "resolve" : "unknown";
      case "openapi.yaml" -> p.size() == 2 && method.equals("GET") ? "openapi" : "unknown";
      case "pause" -> p.size() == 2 && method.equals("POST") ? "pause" : "unknown";
      case "resume" -> p.size() == 2 && method.equals("POST") ? "resume" : "unknown";
      case "pauses" -> p.size() == 2 && method.equals("GET") ? "pauses" : "unknown";
      case "approvals" -> p.size() == 2 && method.equals("GET") ? "approvals"
          : p.size() == 4 && method.equals("POST") && p.get(3).equals("approve") ? "approve"
          : p.size() == 4 && method.equals("POST") && p.get(3).equals("reject") ? "reject" : "unknown";
      case "holds" -> p.size() == 2 && method.equals("GET") ? "holds"
          : p.size() == 5 && p.get(4).equals("release") && method.equals("POST") ? "release" : "unknown";
      default -> "unknown";
    };
  }

  private Answer answer(HttpExchange exchange, String method, String route, List<String> path,
      Authentication caller) {
    try {
      return switch (route) {
        case "request" -> request(path.get(2));
        case "wallet" -> wallet(path.get(2));
        case "reconciliations" -> reconciliations(query(exchange).get("limit"));
        case "resolve" -> resolve(path.get(2), path.get(3), exchange, caller);
        case "openapi" -> openapi();
        case "pause" -> pause(exchange, caller);
        case "resume" -> resume(exchange, caller);
        case "pauses" -> pauses();
        case "approvals" -> approvals();
        case "approve" -> approve(path.get(2), exchange, caller);
        case "reject" -> reject(path.get(2), exchange, caller);
        case "holds" -> holds(query(exchange).get("limit"));
        case "release" -> release(path.get(2), path.get(3), exchange, caller);
        default -> Answer.problem(404, "no such endpoint: " + method + " " + exchange.getRequestURI().getRawPath()
            + "; the API: " + String.join(", ", ROUTES));
      };
    } catch (BadInput e) {
      return Answer.problem(400, e.getMessage());
    } catch (Forbidden e) {
      log.warn("admin call refused route={} remote={} why={}", route, address(exchange), e.getMessage());
      return Answer.problem(403, e.getMessage());
    } catch (ChainReads.ChainUnavailableException e) {
      log.warn("admin call could not read the chain route={} error={}", route, e.getMessage());
      return Answer.problem(503, e.getMessage() + "; nothing was changed, try again");
    } catch (LedgerException e) {
      log.warn("admin call could not use the ledger route={} error={}", route, e.getMessage());
      return Answer.problem(503, "the ledger database is not available: nothing was changed, try again");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Answer.problem(503, "interrupted: the service is stopping");
    } catch (RuntimeException e) {
      log.error("admin call failed route={}", route, e);
      return Answer.problem(500, "internal error: " + e.getClass().getSimpleName() + "; see the streams-app log");
    }
  }

  // ---- endpoints ---------------------------------------------------------------------------------

  private Answer request(String requestId) {
    id(requestId, "requestId");
    return ledger.admin().lifecycle(requestId)
        .map(l -> Answer.json(200, AdminViews.RequestLifecycle.of(l)))
        .orElseGet(() -> Answer.problem(404, "the ledger has no request '" + requestId + "': it was never accepted,"
            + " or it still waits in its wallet's queue (the ledger records a request when its turn comes)"));
  }

  private Answer wallet(String subwallet) throws InterruptedException {
    long id;
    try {
      id = Long.parseLong(subwallet);
    } catch (NumberFormatException e) {
      throw new BadInput("subwalletId must be a decimal number, got '" + subwallet + "'");
    }
    if (id < 0 || id > Subwallets.MAX_SUBWALLET_ID) {
      throw new BadInput("subwalletId must be 0 to " + Subwallets.MAX_SUBWALLET_ID + ", got " + id);
    }
    return Answer.json(200, wallets.of(id));
  }

  private static int limit(String limitParam) {
    int limit = 100;
    if (limitParam != null) {
      try {
        limit = Integer.parseInt(limitParam);
      } catch (NumberFormatException e) {
        throw new BadInput("limit must be a number, got '" + limitParam + "'");
      }
      if (limit < 1 || limit > 1000) {
        throw new BadInput("limit must be 1 to 1000, got " + limit);
      }
    }
    return limit;
  }

  private Answer reconciliations(String limitParam) {
    int limit = limit(limitParam);
    List<AdminViews.Reconciliation> open = ledger.admin().reconciliationRequired(limit).stream()
        .map(AdminViews.Reconciliation::of).toList();
    return Answer.json(200, new AdminViews.Reconciliations(open.size(), open));
  }

  private Answer resolve(String requestId, String transferId, HttpExchange exchange, Authentication caller)
      throws InterruptedException {
    id(requestId, "requestId");
    id(transferId, "transferId");
    ResolveRequest body = body(exchange);
    String outcome = required(body.outcome(), "outcome").toUpperCase(Locale.ROOT);
    Actor operator = actor(caller, body.operator(), exchange);
    String reason = limited(required(body.reason(), "reason"), "reason", MAX_REASON_CHARS);
    Optional<TransferRow> found = ledger.queries().transfer(requestId, transferId);
    if (found.isEmpty()) {
      return Answer.problem(404, "the ledger has no transfer " + requestId + "/" + transferId);
    }
    TransferRow transfer = found.get();
    String acknowledged = body.acknowledgePaysSomethingElse() == null ? null
        : hash(body.acknowledgePaysSomethingElse(), "acknowledgePaysSomethingElse");
    ApprovalAsk ask = switch (outcome) {
      case "SETTLED" -> {
        String txHash = hash(required(body.txHash(), "txHash (the wallet transaction that paid the transfer)"),
            "txHash");
        if (acknowledged != null) {
          throw new BadInput("acknowledgePaysSomethingElse belongs to a FAILED resolution: a SETTLED one names the"
              + " paying transaction in txHash");
        }
        yield new ApprovalAsk("SETTLED", txHash, body.lt(), null, reason);
      }
      case "FAILED" -> {
        if (body.txHash() != null || body.lt() != null) {
          throw new BadInput("a FAILED resolution takes no txHash or lt: the transfer was not paid (a transaction"
              + " paying its destination its amount for something else goes in acknowledgePaysSomethingElse)");
        }
        yield new ApprovalAsk("FAILED", null, null, acknowledged, reason);
      }
      default -> throw new BadInput("outcome must be SETTLED or FAILED, got '" + body.outcome() + "'");
    };
    if (transfer.status() != TransferStatus.RECONCILIATION_REQUIRED) {
      return notReconcilable(transfer);
    }
    ResolutionProof.Outcome proof = proofs.of(transfer, ask);
    Optional<Answer> refused = refusal(proof, ask, transfer, operator);
    if (refused.isPresent()) {
      return refused.get();
    }
    if (twoPersonRule.applies(transfer)) {
      return askSecondOperator(transfer, ask, operator);
    }
    return answer(apply(transfer, proof, Resolver.alone(operator, reason)), ask.outcome(), operator, null);
  }

  /** Records the resolution as waiting for a second operator: 202, or 409 when one waits already. */
  private Answer askSecondOperator(TransferRow transfer, ApprovalAsk ask, Actor operator) {
    ApprovalChange change = ledger.approvals().request(transfer.requestId(), transfer.transferId(), ask, operator,
        twoPersonRule.ttl());
    Instant now = clock.instant();
    if (change instanceof ApprovalChange.Requested r) {
      long id = r.approval().id();
      return Answer.json(202, new AdminViews.ApprovalPending(ApprovalView.of(r.approval(), now),
          AdminViews.Audit.of(r.audit()), "needs a second operator: the transfer's amount " + transfer.amountNano()
              + " is at or above " + PayoutsConfig.ADMIN_APPROVAL_THRESHOLD_NANO_CONFIG + " ("
              + twoPersonRule.thresholdNano().getAsLong() + "), so nothing is resolved yet; another operator approves"
              + " it (POST /admin/approvals/" + id + "/approve, which checks the chain again) or rejects it (POST"
              + " /admin/approvals/" + id + "/reject) before " + r.approval().expiresAt()));
    } else if (change instanceof ApprovalChange.AlreadyOpen open) {
      return Answer.problem(409, transfer.requestId() + "/" + transfer.transferId() + " already waits for "
          + open.approval().describe() + ": approve or reject that one (POST /admin/approvals/" + open.approval().id()
          + "/approve or /reject); nothing changed", ApprovalView.of(open.approval(), now));
    } else if (change instanceof ApprovalChange.NotReconcilable n) {
      return notReconcilable(n.transfer());
    }
    return Answer.problem(404, "the ledger has no transfer " + transfer.requestId() + "/" + transfer.transferId());
  }

  /** The resolution the proof allows, recorded by {@code resolver}. */
  private ResolutionResult apply(TransferRow transfer, ResolutionProof.Outcome proof, Resolver resolver) {
    if (proof instanceof ResolutionProof.Paid paid) {
      return ledger.resolutions().settle(transfer.requestId(), transfer.transferId(), paid.payment(), resolver);
    }
    ResolutionProof.NotPaid notPaid = (ResolutionProof.NotPaid) proof;
    return ledger.resolutions().fail(transfer.requestId(), transfer.transferId(), notPaid.evidence(),
        notPaid.acknowledged(), resolver);
  }

  /** The answer when the chain does not allow the resolution; empty when it does. */
  private static Optional<Answer> refusal(ResolutionProof.Outcome proof, ApprovalAsk ask, TransferRow transfer,
      Actor operator) {
    if (proof instanceof ResolutionProof.NotVerified n) {
      log.warn("resolution refused: not verified on chain subwallet={} request={} transfer={} tx={} operator={}"
          + " why={}", transfer.subwalletId(), transfer.requestId(), transfer.transferId(), ask.txHash(),
          operator.describe(), n.why());
      return Optional.of(Answer.problem(422, "not settled: " + n.why(), transfer));
    }
    if (proof instanceof ResolutionProof.Unproven u) {
      return Optional.of(unproven(ask.outcome(), transfer, operator.describe(), u.missing()));
    }
    return Optional.empty();
  }

  /** What the ledger made of a resolution, as an answer. */
  private Answer answer(ResolutionResult result, String outcome, Actor operator, Approval approval) {
    if (result instanceof ResolutionResult.Resolved r) {
      ApprovalView approved = approval == null ? null : ledger.approvals().find(approval.id())
          .map(a -> ApprovalView.of(a, clock.instant())).orElse(null);
      return Answer.json(200, new AdminViews.Resolved(AdminViews.Transfer.of(r.transfer()),
          AdminViews.Audit.of(r.audit()), r.settlement(), approved));
    } else if (result instanceof ResolutionResult.NotReconcilable n) {
      return notReconcilable(n.transfer());
    } else if (result instanceof ResolutionResult.Refused x) {
      return Answer.problem(422, "not settled: " + x.why(), x.transfer());
    } else if (result instanceof ResolutionResult.Unproven u) {
      return unproven(outcome, u.transfer(), operator.describe(), u.missing());
    } else if (result instanceof ResolutionResult.NotApproved n) {
      return Answer.problem(409, "not resolved: " + n.why(), n.transfer());
    }
    ResolutionResult.NotFound missing = (ResolutionResult.NotFound) result;
    return Answer.problem(404, "the ledger has no transfer " + missing.requestId() + "/" + missing.transferId());
  }

  // ---- the two-person rule -----------------------------------------------------------------------

  private Answer approvals() {
    Instant now = clock.instant();
    return Answer.json(200, new AdminViews.Approvals(twoPersonRule.thresholdNano().isPresent()
        ? Long.toString(twoPersonRule.thresholdNano().getAsLong()) : null, twoPersonRule.ttl().toSeconds(),
        ledger.approvals().pending().stream().map(a -> ApprovalView.of(a, now)).toList(),
        ledger.approvals().recent(50).stream().map(a -> ApprovalView.of(a, now)).toList()));
  }

  /**
   * A second operator approves: refused to whoever asked (403) and once decided or expired (409);
   * otherwise the chain evidence is read again and the resolution asked for takes effect, both
   * operators recorded.
   */
  private Answer approve(String approvalId, HttpExchange exchange, Authentication caller)
      throws InterruptedException {
    long id = approvalId(approvalId);
    if (!(caller instanceof Authentication.Operator)) {
      throw new Forbidden("approving needs operators by name (" + PayoutsConfig.ADMIN_OPERATORS_FILE_CONFIG + "):"
          + " with the shared token nobody can tell the second operator from the first");
    }
    DecisionRequest body = optionalBody(exchange, DecisionRequest.class, DECISION_SHAPE);
    Actor approver = actor(caller, body == null ? null : body.operator(), exchange);
    Optional<Approval> found = ledger.approvals().find(id);
    if (found.isEmpty()) {
      return Answer.problem(404, "the ledger has no approval " + id);
    }
    Approval approval = found.get();
    Instant now = clock.instant();
    if (approval.state(now) == Approval.State.PENDING && approval.requestedBy().name().equals(approver.name())) {
      throw new Forbidden(Approvals.refusal(approval, approver, now));
    }
    String refusal = Approvals.refusal(approval, approver, now);
    if (refusal != null) {
      return Answer.problem(409, refusal, ApprovalView.of(approval, now));
    }
    Optional<TransferRow> transfer = ledger.queries().transfer(approval.requestId(), approval.transferId());
    if (transfer.isEmpty()) {
      return Answer.problem(404, "the ledger has no transfer " + approval.requestId() + "/" + approval.transferId());
    }
    if (transfer.get().status() != TransferStatus.RECONCILIATION_REQUIRED) {
      return notReconcilable(transfer.get());
    }
    ApprovalAsk ask = new ApprovalAsk(approval.outcome(), approval.txHash(), approval.lt(), approval.acknowledged(),
        approval.reason());
    ResolutionProof.Outcome proof = proofs.of(transfer.get(), ask);
    Optional<Answer> refused = refusal(proof, ask, transfer.get(), approver);
    if (refused.isPresent()) {
      return refused.get(); // the approval stays open: the chain may still change, or someone rejects it
    }
    return answer(apply(transfer.get(), proof, Resolver.approved(approval, approver)), ask.outcome(), approver,
        approval);
  }

  /** Turns an open approval down: REJECTED by another operator, CANCELLED by whoever asked. */
  private Answer reject(String approvalId, HttpExchange exchange, Authentication caller) {
    long id = approvalId(approvalId);
    DecisionRequest body = body(exchange, DecisionRequest.class, DECISION_SHAPE);
    Actor operator = actor(caller, body.operator(), exchange);
    String reason = limited(required(body.reason(), "reason"), "reason", MAX_REASON_CHARS);
    ApprovalChange change = ledger.approvals().reject(id, operator, reason);
    Instant now = clock.instant();
    if (change instanceof ApprovalChange.Rejected r) {
      return Answer.json(200, new AdminViews.ApprovalDecided(ApprovalView.of(r.approval(), now),
          AdminViews.Audit.of(r.audit())));
    } else if (change instanceof ApprovalChange.NotOpen n) {
      return Answer.problem(409, n.approval().describe() + " is " + n.state() + ": nothing to reject",
          ApprovalView.of(n.approval(), now));
    }
    return Answer.problem(404, "the ledger has no approval " + id);
  }

  private static long approvalId(String value) {
    try {
      long id = Long.parseLong(value);
      if (id > 0) {
        return id;
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw new BadInput("approvalId must be a positive number, got '" + value + "'");
  }

  // ---- who calls ---------------------------------------------------------------------------------

  /**
   * Who the call is made by: the authenticated operator (a body naming someone else is refused), or
   * with the shared token the name typed in the body, marked as such; with the caller's address.
   */
  private static Actor actor(Authentication caller, String typed, HttpExchange exchange) {
    String address = address(exchange);
    if (caller instanceof Authentication.Operator operator) {
      if (typed != null && !typed.isBlank() && !typed.strip().equals(operator.name())) {
        throw new Forbidden("the body names operator '" + limited(typed.strip(), "operator", MAX_OPERATOR_CHARS)
            + "' but the token is " + operator.name() + "'s: leave operator out (the authenticated operator is"
            + " recorded) or name yourself");
      }
      return Actor.operator(operator.name(), address);
    }
    return Actor.sharedToken(limited(required(typed, "operator"), "operator", MAX_OPERATOR_CHARS), address);
  }

  /** The caller's address as the connection shows it (no X-Forwarded-For: a header anyone can write). */
  private static String address(HttpExchange exchange) {
    InetSocketAddress remote = exchange.getRemoteAddress();
    String host = remote.getAddress() != null ? remote.getAddress().getHostAddress() : remote.getHostString();
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + remote.getPort();
  }

  /** 409: the chain evidence does not prove the resolution; nothing changed. */
  private static Answer unproven(String outcome, TransferRow transfer, String operator, String missing) {
    log.warn("resolution refused: the chain does not prove it outcome={} subwallet={} request={} transfer={} seqno={}"
        + " operator={} missing={}", outcome, transfer.subwalletId(), transfer.requestId(), transfer.transferId(),
        transfer.seqno(), operator, missing);
    return Answer.problem(409, "not resolved " + outcome + ": " + missing, transfer);
  }

  private static Answer notReconcilable(TransferRow transfer) {
    return Answer.problem(409, "transfer " + transfer.requestId() + "/" + transfer.transferId() + " is "
        + transfer.status() + ", not RECONCILIATION_REQUIRED: nothing to resolve"
        + (transfer.reason() != null ? " (" + transfer.reason() + ")" : ""), transfer);
  }

  /** Stops signing for the deployment or one subwallet; in force once this answers (the ledger refuses new intents). */
  private Answer pause(HttpExchange exchange, Authentication caller) {
    PauseRequest body = body(exchange, PauseRequest.class, PAUSE_SHAPE);
    Long subwalletId = scope(body.scope());
    Actor operator = actor(caller, body.operator(), exchange);
    String reason = limited(required(body.reason(), "reason"), "reason", MAX_REASON_CHARS);
    PauseChange change = ledger.pauses().pause(subwalletId, operator, reason);
    if (change instanceof PauseChange.AlreadyPaused already) {
      return Answer.json(409, new Problem(409, Pause.scopeOf(subwalletId) + " is paused already ("
          + already.pause().describe() + "): nothing changed", null, AdminViews.PauseView.of(already.pause()), null));
    }
    PauseChange.Changed changed = (PauseChange.Changed) change;
    return Answer.json(200, new AdminViews.PauseChanged(AdminViews.PauseView.of(changed.pause()),
        AdminViews.Audit.of(changed.audit())));
  }

  /** Lifts the pause of the deployment or of one subwallet; queued transfers go within about a second. */
  private Answer resume(HttpExchange exchange, Authentication caller) {
    PauseRequest body = body(exchange, PauseRequest.class, PAUSE_SHAPE);
    Long subwalletId = scope(body.scope());
    Actor operator = actor(caller, body.operator(), exchange);
    String reason = limited(required(body.reason(), "reason"), "reason", MAX_REASON_CHARS);
    PauseChange change = ledger.pauses().resume(subwalletId, operator, reason);
    if (change instanceof PauseChange.NotPaused notPaused) {
      List<Pause> others = ledger.pauses().active();
      return Answer.problem(409, notPaused.scope() + " is not paused: nothing changed" + (others.isEmpty()
          ? "" : "; in force: " + others.stream().map(Pause::describe).collect(Collectors.joining("; "))));
    }
    PauseChange.Changed changed = (PauseChange.Changed) change;
    return Answer.json(200, new AdminViews.PauseChanged(AdminViews.PauseView.of(changed.pause()),
        AdminViews.Audit.of(changed.audit())));
  }

  private Answer pauses() {
    List<Pause> active = ledger.pauses().active();
    return Answer.json(200, new AdminViews.Pauses(active.stream().anyMatch(Pause::deploymentWide),
        active.stream().map(AdminViews.PauseView::of).toList(),
        ledger.pauses().history(50).stream().map(AdminViews.PauseView::of).toList()));
  }

  /** The transfers the rolling spend caps hold now, oldest first. */
  private Answer holds(String limitParam) {
    List<AdminViews.HoldView> waiting = ledger.holds().waiting(limit(limitParam)).stream()
        .map(AdminViews.HoldView::of).toList();
    return Answer.json(200, new AdminViews.Holds(waiting.size(), waiting));
  }

  /** Lets one held transfer past the spend caps once; its wallet signs it at its next try. */
  private Answer release(String requestId, String transferId, HttpExchange exchange, Authentication caller) {
    id(requestId, "requestId");
    id(transferId, "transferId");
    ReleaseRequest body = body(exchange, ReleaseRequest.class, RELEASE_SHAPE);
    Actor operator = actor(caller, body.operator(), exchange);
    String reason = limited(required(body.reason(), "reason"), "reason", MAX_REASON_CHARS);
    HoldRelease result = ledger.holds().release(requestId, transferId, operator, reason);
    if (result instanceof HoldRelease.Released released) {
      log.warn("spend cap hold released subwallet={} request={} transfer={} amount_nano={} operator={}",
          released.hold().subwalletId(), requestId, transferId, released.hold().amountNano(), operator.describe());
      return Answer.json(200, new AdminViews.HoldReleased(AdminViews.HoldView.of(released.hold()),
          AdminViews.Audit.of(released.audit())));
    } else if (result instanceof HoldRelease.AlreadyReleased already) {
      return Answer.problem(409, "transfer " + requestId + "/" + transferId + " was released already by "
          + already.hold().releasedBy() + " at " + already.hold().releasedAt() + " and waits for its wallet's next"
          + " try: nothing changed");
    }
    return Answer.problem(404, "no spend cap holds transfer " + requestId + "/" + transferId + ": never held, or"
        + " its first message was recorded since (GET /admin/holds lists the holds)");
  }

  /** {@code "deployment"} (null) or a subwallet id. */
  private static Long scope(String scope) {
    String value = required(scope, "scope (\"deployment\" or a subwallet id)");
    if (value.equalsIgnoreCase("deployment")) {
      return null;
    }
    long id;
    try {
      id = Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new BadInput("scope must be \"deployment\" or a subwallet id (a decimal number), got '" + scope + "'");
    }
    if (id < 0 || id > Subwallets.MAX_SUBWALLET_ID) {
      throw new BadInput("scope's subwallet id must be 0 to " + Subwallets.MAX_SUBWALLET_ID + ", got " + id);
    }
    return id;
  }

  private Answer openapi() {
    try (InputStream in = AdminServer.class.getResourceAsStream(OPENAPI_RESOURCE)) {
      if (in == null) {
        return Answer.problem(500, "the OpenAPI file is missing from the jar");
      }
      return new Answer(200, new String(in.readAllBytes(), StandardCharsets.UTF_8), "application/yaml");
    } catch (IOException e) {
      return Answer.problem(500, "cannot read the OpenAPI file: " + e.getMessage());
    }
  }

  // ---- input -------------------------------------------------------------------------------------

  /** Bad input: answered 400 with the message. */
  private static final class BadInput extends RuntimeException {
    BadInput(String message) {
      super(message);
    }
  }

  /** The caller may not do this (another operator's name, approving one's own request): answered 403. */
  private static final class Forbidden extends RuntimeException {
    Forbidden(String message) {
      super(message);
    }
  }

  private static final String RESOLVE_SHAPE = "{\"outcome\": \"SETTLED\"|\"FAILED\", \"txHash\": ..., \"operator\":"
      + " ..., \"reason\": ...}";
  private static final String RELEASE_SHAPE = "{\"operator\": ..., \"reason\": ...}";
  private static final String PAUSE_SHAPE = "{\"scope\": \"deployment\"|\"<subwalletId>\", \"operator\": ...,"
      + " \"reason\": ...}";
  private static final String DECISION_SHAPE = "{\"operator\": ..., \"reason\": ...}";

  private ResolveRequest body(HttpExchange exchange) {
    return body(exchange, ResolveRequest.class, RESOLVE_SHAPE);
  }

  private <T> T body(HttpExchange exchange, Class<T> type, String shape) {
    T body = optionalBody(exchange, type, shape);
    if (body == null) {
      throw new BadInput("a JSON body is required: " + shape);
    }
    return body;
  }

  /** The body, or null when there is none. */
  private <T> T optionalBody(HttpExchange exchange, Class<T> type, String shape) {
    byte[] bytes;
    try (InputStream in = exchange.getRequestBody()) {
      bytes = in.readNBytes(MAX_BODY_BYTES + 1);
    } catch (IOException e) {
      throw new BadInput("cannot read the request body: " + e.getMessage());
    }
    if (bytes.length > MAX_BODY_BYTES) {
      throw new BadInput("the request body is larger than " + MAX_BODY_BYTES + " bytes");
    }
    if (bytes.length == 0) {
      return null;
    }
    try {
      return json.readValue(bytes, type);
    } catch (JsonProcessingException e) {
      throw new BadInput("the body is not " + (type == ResolveRequest.class ? "a resolution" : shape) + ": "
          + e.getOriginalMessage());
    } catch (IOException e) {
      throw new BadInput("cannot read the request body: " + e.getMessage());
    }
  }

  private static String required(String value, String name) {
    if (value == null || value.isBlank()) {
      throw new BadInput(name + " is required");
    }
    return value.strip();
  }

  private static String limited(String value, String name, int max) {
    if (value.length() > max) {
      throw new BadInput(name + " must be at most " + max + " characters, got " + value.length());
    }
    if (value.chars().anyMatch(ch -> Character.isISOControl(ch))) {
      throw new BadInput(name + " must not contain control characters");
    }
    return value;
  }

  private static String hash(String value, String name) {
    String hash = value.strip().toLowerCase(Locale.ROOT);
    if (!HASH.matcher(hash).matches()) {
      throw new BadInput(name + " must be 64 hex digits, got '" + value + "'");
    }
    return hash;
  }

  private static void id(String value, String name) {
    if (!ID.matcher(value).matches()) {
      throw new BadInput(name + " must be 1 to 128 characters of A-Z a-z 0-9 . _ : -, got '" + value + "'");
    }
  }

  /** The decoded path segments; empty when a percent-escape is malformed. */
  private static Optional<List<String>> segments(String rawPath) {
    try {
      return Optional.of(Arrays.stream(rawPath.split("/")).filter(s -> !s.isEmpty())
          .map(s -> URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8)).toList());
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static Map<String, String> query(HttpExchange exchange) {
    String raw = exchange.getRequestURI().getRawQuery();
    if (raw == null || raw.isEmpty()) {
      return Map.of();
    }
    try {
      return Arrays.stream(raw.split("&")).map(p -> p.split("=", 2)).filter(p -> p.length == 2)
          .collect(Collectors.toMap(p -> URLDecoder.decode(p[0], StandardCharsets.UTF_8),
              p -> URLDecoder.decode(p[1], StandardCharsets.UTF_8), (a, b) -> b));
    } catch (IllegalArgumentException e) {
      // URLDecoder's word for a % not followed by two hex digits
      throw new BadInput("the query string has a malformed percent-escape (% must be followed by two hex digits)");
    }
  }

  @Override
  public void close() {
    endpoint.close();
  }
}
