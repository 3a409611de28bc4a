package org.tonpayouts.devnet.api;

import static org.tonpayouts.devnet.api.ToncenterJson.JSON;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.devnet.Faults;
import org.tonpayouts.devnet.chain.Chain;
import org.tonpayouts.devnet.chain.jetton.JettonAdmin;

/**
 * devnet's HTTP server (JDK {@link HttpServer}): toncenter's API v2 under {@code /api/v2/} (GET
 * with query parameters, POST with a JSON body, and {@code POST /api/v2/jsonRPC}), the same API
 * of every named node under {@code /node/<name>/api/v2/} ({@link ApiNodes}), devnet's own
 * endpoints under {@code /admin/}. Applies each node's API faults: latency and HTTP 429 here
 * (a JSON-RPC body is read first, so a send-only rate limit knows the method), send and read
 * faults in {@link ToncenterMethods}.
 */
public final class ApiServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ApiServer.class);
  private static final String API_PREFIX = "/api/v2/";
  private static final String NODE_PREFIX = "/node/";
  private static final String ADMIN_PREFIX = "/admin/";
  private static final String JSON_RPC = "jsonRPC";
  private static final String BAD_GATEWAY_HTML = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n"
      + "<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";

  static {
    // The JDK server writes headers and body separately: without TCP_NODELAY, Nagle plus delayed
    // ACKs hold every keep-alive response for ~40 ms, a tenth of a block. Read once per JVM, so
    // it only takes effect when set before the first HttpServer is created.
    if (System.getProperty("sun.net.httpserver.nodelay") == null) {
      System.setProperty("sun.net.httpserver.nodelay", "true");
    }
  }

  private final ObjectMapper mapper = new ObjectMapper();
  private final HttpServer server;
  private final ExecutorService executor;
  private final ApiNodes nodes;
  private final AdminEndpoints admin;

  /**
   * Binds {@code host:port} (0: an ephemeral port); {@link #start()} begins serving. {@code faults}
   * are the default node's; {@code seed} seeds the fault decisions of named nodes.
   */
  public ApiServer(Chain chain, JettonAdmin jettons, Faults faults, long seed, Duration blockInterval, String host,
                   int port, int threads) throws IOException {
    this.nodes = new ApiNodes(chain, Objects.requireNonNull(faults, "faults"), seed);
    this.admin = new AdminEndpoints(chain, new JettonEndpoints(jettons), nodes, blockInterval, mapper);
    this.server = HttpServer.create(new InetSocketAddress(host, port), 256);
    this.executor = Executors.newFixedThreadPool(threads, daemonThreads());
    server.setExecutor(executor);
    server.createContext("/", this::handle);
  }

  public void start() {
    server.start();
  }

  /** {@code http://host:port}, without a trailing slash. */
  public URI baseUrl() {
    InetSocketAddress address = server.getAddress();
    String host = address.getAddress().isAnyLocalAddress() ? "127.0.0.1" : address.getHostString();
    return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort());
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /**
   * The faults of the node called {@code name}, creating the node on first use; {@code "default"}
   * is the node under {@code /api/v2/}. Throws {@link IllegalArgumentException} for a name that
   * cannot be a path segment.
   */
  public Faults node(String name) {
    return nodes.getOrCreate(name).faults();
  }

  /** Where the node called {@code name} serves toncenter's API, relative to {@link #baseUrl()}. */
  public static String apiPath(String name) {
    return ApiNodes.apiPath(name);
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
    try {
      executor.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void handle(HttpExchange exchange) {
    try {
      String path = exchange.getRequestURI().getPath();
      if (path.startsWith(API_PREFIX)) {
        api(exchange, nodes.defaultNode(), path.substring(API_PREFIX.length()));
      } else if (path.startsWith(NODE_PREFIX)) {
        nodeApi(exchange, path.substring(NODE_PREFIX.length()));
      } else if (path.startsWith(ADMIN_PREFIX)) {
        admin(exchange, path.substring(ADMIN_PREFIX.length()));
      } else {
        respond(exchange, 404, error(404, "Not Found", null, false));
      }
    } catch (CutConnection cut) {
      log.debug("closing connection without a response path={}", exchange.getRequestURI().getPath());
    } catch (IOException e) {
      log.debug("client went away path={} error={}", exchange.getRequestURI().getPath(), e.toString());
    } catch (RuntimeException e) {
      log.warn("internal error path={}", exchange.getRequestURI().getPath(), e);
      try {
        respond(exchange, 500, error(500, "internal devnet error: " + e, null, false));
      } catch (IOException | RuntimeException ignored) {
        // the response may already be under way; closing the exchange below is all that is left
      }
    } finally {
      // without response headers this closes the connection: how CutConnection cuts it
      exchange.close();
    }
  }

  // ---- toncenter API ------------------------------------------------------------------------

  /** {@code <name>/api/v2/<method>}: the API of a named node. */
  private void nodeApi(HttpExchange exchange, String rest) throws IOException {
    int slash = rest.indexOf('/');
    String name = slash < 0 ? rest : rest.substring(0, slash);
    String tail = slash < 0 ? "" : rest.substring(slash);
    ApiNodes.Node node = nodes.find(name);
    if (node == null) {
      respond(exchange, 404, error(404, "Not Found: devnet has no node '" + name + "' (Devnet.node, --node or "
          + "POST /admin/faults?node=" + name + " creates one)", null, false));
    } else if (!tail.startsWith(API_PREFIX)) {
      respond(exchange, 404, error(404, "Not Found", null, false));
    } else {
      api(exchange, node, tail.substring(API_PREFIX.length()));
    }
  }

  private void api(HttpExchange exchange, ApiNodes.Node node, String method) throws IOException {
    Faults faults = node.faults();
    if (faults.nextRefusedByOutage()) {
      respond(exchange, 503, error(503, "Service Unavailable", null, false));
      return;
    }
    long latency = faults.nextLatencyMs();
    if (latency > 0) {
      faults.latencyStarted(method);
      try {
        Thread.sleep(latency);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CutConnection();
      } finally {
        faults.latencyOver(method);
      }
    }
    boolean rpc = JSON_RPC.equals(method);
    JsonNode id = null;
    try {
      // a JSON-RPC call names its method in the body: read it first, so a send-only rate limit can tell
      JsonNode rpcBody = rpc ? readJson(exchange) : null;
      String name = rpc ? rpcBody == null ? "" : rpcBody.path("method").asText("") : method;
      if (faults.nextRateLimited(ToncenterMethods.isSend(name))) {
        // toncenter's 429 body carries the text in "result", not "error" (TON-FACTS)
        ObjectNode body = JSON.objectNode();
        body.put("ok", false);
        body.put("result", "Ratelimit exceed");
        body.put("code", 429);
        respond(exchange, 429, body);
        return;
      }
      ObjectNode params;
      if (rpc) {
        JsonNode body = rpcBody;
        if (body == null || !body.isObject()) {
          throw ApiException.validation("JSON-RPC takes a JSON object {id, jsonrpc, method, params}");
        }
        id = body.get("id");
        JsonNode p = body.get("params");
        params = p != null && p.isObject() ? (ObjectNode) p : JSON.objectNode();
        if (!ToncenterMethods.exists(name) || faults.withheld(name)) {
          throw new ApiException(422, "Unknown method");
        }
      } else {
        if (!ToncenterMethods.exists(name) || faults.withheld(name)) {
          throw new ApiException(404, "Not Found");
        }
        params = requestParams(exchange);
      }
      ToncenterMethods.Reply reply = node.methods().call(name, new Params(params));
      if (reply.transportError() != null) {
        cut(exchange, reply.transportError());
        return;
      }
      ObjectNode body = JSON.objectNode();
      body.put("ok", true);
      body.set("result", reply.result());
      if (rpc) {
        body.put("jsonrpc", "2.0");
        body.set("id", id);
      }
      respond(exchange, 200, body);
    } catch (ApiException e) {
      if (e.code() >= 500) {
        log.debug("api error method={} code={} error={}", method, e.code(), e.getMessage());
      }
      respond(exchange, e.code(), error(e.code(), e.getMessage(), id, rpc));
    }
  }

  private void cut(HttpExchange exchange, Faults.TransportError how) throws IOException {
    switch (how) {
      case CLOSE -> throw new CutConnection();
      case HTTP_502 -> {
        byte[] html = BAD_GATEWAY_HTML.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/html");
        exchange.sendResponseHeaders(502, html.length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(html);
        }
      }
      case HTTP_504 -> respond(exchange, 504, error(504, "Liteserver timeout", null, false));
    }
  }

  // ---- admin --------------------------------------------------------------------------------

  private void admin(HttpExchange exchange, String path) throws IOException {
    try {
      JsonNode body = "POST".equalsIgnoreCase(exchange.getRequestMethod()) ? readJson(exchange) : null;
      ObjectNode params = queryParams(exchange);
      if (body != null && body.isObject()) {
        params.setAll((ObjectNode) body);
      }
      JsonNode result = admin.handle(path, exchange.getRequestMethod(), new Params(params), body);
      ObjectNode envelope = JSON.objectNode();
      envelope.put("ok", true);
      envelope.set("result", result);
      respond(exchange, 200, envelope);
    } catch (ApiException e) {
      respond(exchange, e.code(), error(e.code(), e.getMessage(), null, false));
    }
  }

  // ---- plumbing -----------------------------------------------------------------------------

  private ObjectNode requestParams(HttpExchange exchange) throws IOException {
    ObjectNode params = queryParams(exchange);
    if ("POST".equalsIgnoreCase(exchange.getRequestMethod())) {
      JsonNode body = readJson(exchange);
      if (body != null) {
        if (!body.isObject()) {
          throw ApiException.validation("the request body must be a JSON object");
        }
        params.setAll((ObjectNode) body);
      }
    }
    return params;
  }

  private static ObjectNode queryParams(HttpExchange exchange) {
    ObjectNode params = JSON.objectNode();
    String query = exchange.getRequestURI().getRawQuery();
    if (query == null || query.isEmpty()) {
      return params;
    }
    for (String pair : query.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      params.put(key, value);
    }
    return params;
  }

  /** The JSON body, or {@code null} when there is none. */
  private JsonNode readJson(HttpExchange exchange) throws IOException {
    byte[] bytes = exchange.getRequestBody().readAllBytes();
    if (bytes.length == 0 || new String(bytes, StandardCharsets.UTF_8).isBlank()) {
      return null;
    }
    try {
      return mapper.readTree(bytes);
    } catch (JsonProcessingException e) {
      throw ApiException.validation("request body is not valid JSON: " + e.getOriginalMessage());
    }
  }

  private static ObjectNode error(int code, String message, JsonNode id, boolean rpc) {
    ObjectNode body = JSON.objectNode();
    body.put("ok", false);
    body.put("error", message);
    body.put("code", code);
    if (rpc) {
      body.put("jsonrpc", "2.0");
      body.set("id", id);
    }
    return body;
  }

  private void respond(HttpExchange exchange, int status, JsonNode body) throws IOException {
    byte[] bytes = mapper.writeValueAsBytes(body);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static ThreadFactory daemonThreads() {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, "devnet-http-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /** Ends an exchange without any response: the client sees the connection close. */
  private static final class CutConnection extends RuntimeException {
    CutConnection() {
      super(null, null, false, false);
    }
  }
}
