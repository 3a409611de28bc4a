package org.tonpayouts.streams.admin;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
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
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.ledger.sql.LedgerException;
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

  private final HttpEndpoint endpoint;
  private final AdminAccess access;
  private final Ledger ledger;
  private final WalletView wallets;
  private final ResolutionEndpoints resolutions;
  private final SigningControls controls;
  private final PayoutMetrics metrics;
  private final Clock clock;
  private final ObjectMapper json = Json.newMapper();

  private AdminServer(HttpEndpoint endpoint, AdminAccess access, Ledger ledger, WalletView wallets,
      ResolutionEndpoints resolutions, PayoutMetrics metrics, Clock clock) {
    this.endpoint = endpoint;
    this.access = access;
    this.ledger = ledger;
    this.wallets = wallets;
    this.resolutions = resolutions;
    this.controls = new SigningControls(ledger);
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
    ResolutionEndpoints.TwoPersonRule twoPersonRule = ResolutionEndpoints.TwoPersonRule.of(config);
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
    ResolutionProof proofs = new ResolutionProof(ledger, new ChainCheck(reads, config.clockSkewMargin()),
        new FailureEvidence(reads, window, config.clockSkewMargin()));
    AdminServer server = new AdminServer(endpoint, access, ledger,
        new WalletView(streams, ledger, subwallets, api, callTimeout, config.testnet()),
        new ResolutionEndpoints(ledger, proofs, twoPersonRule, clock), metrics, clock);
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

  private void handle(HttpExchange exchange) throws IOException {
    Instant started = clock.instant();
    String method = exchange.getRequestMethod().toUpperCase(Locale.ROOT);
    Optional<List<String>> decoded = AdminInput.segments(exchange.getRequestURI().getRawPath());
    List<String> path = decoded.orElse(List.of());
    String route = route(method, path);
    AdminAnswer answer;
    Authentication caller = access.authenticate(exchange.getRequestHeaders().getFirst("Authorization"));
    if (caller instanceof Authentication.Refused refused) {
      exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"payouts-admin\"");
      log.warn("admin call refused: no valid credentials route={} remote={} why={}", route,
          AdminInput.address(exchange),
          refused.why());
      answer = AdminAnswer.problem(401, "a valid bearer token is required (Authorization: Bearer <your operator token>)");
    } else if (decoded.isEmpty()) {
      answer = AdminAnswer.problem(400, "the path has a malformed percent-escape (% must be followed by two hex digits)");
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

  private AdminAnswer answer(HttpExchange exchange, String method, String route, List<String> path,
      Authentication caller) {
    try {
      return switch (route) {
        case "request" -> request(path.get(2));
        case "wallet" -> wallet(path.get(2));
        case "reconciliations" -> reconciliations(AdminInput.query(exchange).get("limit"));
        case "resolve" -> resolutions.resolve(path.get(2), path.get(3), exchange, caller);
        case "openapi" -> openapi();
        case "pause" -> controls.pause(exchange, caller);
        case "resume" -> controls.resume(exchange, caller);
        case "pauses" -> controls.pauses();
        case "approvals" -> resolutions.approvals();
        case "approve" -> resolutions.approve(path.get(2), exchange, caller);
        case "reject" -> resolutions.reject(path.get(2), exchange, caller);
        case "holds" -> controls.holds(AdminInput.query(exchange).get("limit"));
        case "release" -> controls.release(path.get(2), path.get(3), exchange, caller);
        default -> AdminAnswer.problem(404, "no such endpoint: " + method + " " + exchange.getRequestURI().getRawPath()
            + "; the API: " + String.join(", ", ROUTES));
      };
    } catch (AdminInput.BadInput e) {
      return AdminAnswer.problem(400, e.getMessage());
    } catch (AdminInput.Forbidden e) {
      log.warn("admin call refused route={} remote={} why={}", route, AdminInput.address(exchange), e.getMessage());
      return AdminAnswer.problem(403, e.getMessage());
    } catch (ChainReads.ChainUnavailableException e) {
      log.warn("admin call could not read the chain route={} error={}", route, e.getMessage());
      return AdminAnswer.problem(503, e.getMessage() + "; nothing was changed, try again");
    } catch (LedgerException e) {
      log.warn("admin call could not use the ledger route={} error={}", route, e.getMessage());
      return AdminAnswer.problem(503, "the ledger database is not available: nothing was changed, try again");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return AdminAnswer.problem(503, "interrupted: the service is stopping");
    } catch (RuntimeException e) {
      log.error("admin call failed route={}", route, e);
      return AdminAnswer.problem(500, "internal error: " + e.getClass().getSimpleName() + "; see the streams-app log");
    }
  }

  // ---- what the server answers itself; resolutions and the controls of signing have classes of their own ----

  private AdminAnswer request(String requestId) {
    AdminInput.id(requestId, "requestId");
    return ledger.admin().lifecycle(requestId)
        .map(l -> AdminAnswer.json(200, AdminViews.RequestLifecycle.of(l)))
        .orElseGet(() -> AdminAnswer.problem(404, "the ledger has no request '" + requestId + "': it was never accepted,"
            + " or it still waits in its wallet's queue (the ledger records a request when its turn comes)"));
  }

  private AdminAnswer wallet(String subwallet) throws InterruptedException {
    long id;
    try {
      id = Long.parseLong(subwallet);
    } catch (NumberFormatException e) {
      throw new AdminInput.BadInput("subwalletId must be a decimal number, got '" + subwallet + "'");
    }
    if (id < 0 || id > Subwallets.MAX_SUBWALLET_ID) {
      throw new AdminInput.BadInput("subwalletId must be 0 to " + Subwallets.MAX_SUBWALLET_ID + ", got " + id);
    }
    return AdminAnswer.json(200, wallets.of(id));
  }

  private AdminAnswer reconciliations(String limitParam) {
    int limit = AdminInput.limit(limitParam);
    List<AdminViews.Reconciliation> open = ledger.admin().reconciliationRequired(limit).stream()
        .map(AdminViews.Reconciliation::of).toList();
    return AdminAnswer.json(200, new AdminViews.Reconciliations(open.size(), open));
  }

  private AdminAnswer openapi() {
    try (InputStream in = AdminServer.class.getResourceAsStream(OPENAPI_RESOURCE)) {
      if (in == null) {
        return AdminAnswer.problem(500, "the OpenAPI file is missing from the jar");
      }
      return new AdminAnswer(200, new String(in.readAllBytes(), StandardCharsets.UTF_8), "application/yaml");
    } catch (IOException e) {
      return AdminAnswer.problem(500, "cannot read the OpenAPI file: " + e.getMessage());
    }
  }

  @Override
  public void close() {
    endpoint.close();
  }
}
