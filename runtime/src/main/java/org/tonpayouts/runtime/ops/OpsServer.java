package org.tonpayouts.runtime.ops;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.http.HttpBinding;
import org.tonpayouts.runtime.http.HttpEndpoint;
import org.tonpayouts.runtime.http.HttpLimits;

/**
 * The small HTTP endpoint of a payout process on {@code metrics.port}: {@code GET /metrics}
 * (Prometheus text), {@code GET /health/live} and {@code GET /health/ready} (JSON, 200 when up,
 * 503 when not; each check by name with its status and a short detail that names no URL, host or
 * credential, since anyone who reaches the port may ask). On the JDK's own HTTP server: three fixed
 * paths need no framework.
 */
public final class OpsServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(OpsServer.class);
  /** What Prometheus expects for the text exposition format. */
  static final String PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final HttpEndpoint endpoint;
  private final ObjectMapper json = new ObjectMapper();
  private final Supplier<String> metrics;

  private OpsServer(HttpEndpoint endpoint, Supplier<String> metrics) {
    this.endpoint = endpoint;
    this.metrics = metrics;
  }

  /**
   * Starts serving {@code metrics.port} on {@code metrics.bind.address}, within the configured HTTP limits.
   *
   * @param metrics the Prometheus text, e.g. {@link ProcessMetrics#scrape()}
   */
  public static OpsServer start(PayoutsConfig config, Supplier<String> metrics, Health health) {
    return start(new HttpBinding(config.metricsBindAddress(), config.metricsPort(),
        PayoutsConfig.METRICS_BIND_ADDRESS_CONFIG, PayoutsConfig.METRICS_PORT_CONFIG), HttpLimits.of(config), metrics,
        health);
  }

  /**
   * Starts serving on {@code binding} (port 0 picks a free one: tests).
   *
   * @param metrics the Prometheus text, e.g. {@link ProcessMetrics#scrape()}
   */
  public static OpsServer start(HttpBinding binding, HttpLimits limits, Supplier<String> metrics, Health health) {
    Objects.requireNonNull(metrics, "metrics");
    Objects.requireNonNull(health, "health");
    HttpEndpoint endpoint = HttpEndpoint.bind(binding, limits, Optional.empty(), "ops-http");
    OpsServer ops = new OpsServer(endpoint, metrics);
    endpoint.context("/metrics", ops::metrics)
        .context("/health/live", exchange -> ops.health(exchange, health::liveness))
        .context("/health/ready", exchange -> ops.health(exchange, health::readiness))
        .context("/", ops::notFound)
        .start();
    log.info("ops endpoint listening address={} port={} paths=/metrics,/health/live,/health/ready", binding.address(),
        ops.port());
    return ops;
  }

  public int port() {
    return endpoint.port();
  }

  private void metrics(HttpExchange exchange) throws IOException {
    if (!exact(exchange, "/metrics")) {
      return;
    }
    respond(exchange, 200, PROMETHEUS_CONTENT_TYPE, metrics.get());
  }

  private void health(HttpExchange exchange, Supplier<Health.Report> probe) throws IOException {
    if (!exact(exchange, exchange.getHttpContext().getPath())) {
      return;
    }
    Health.Report report = probe.get();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", report.up() ? "UP" : "DOWN");
    Map<String, Object> checks = new LinkedHashMap<>();
    report.checks().forEach((name, r) -> checks.put(name, Map.of("status", r.up() ? "UP" : "DOWN",
        "detail", r.detail())));
    body.put("checks", checks);
    respond(exchange, report.up() ? 200 : 503, "application/json", json.writeValueAsString(body));
  }

  private void notFound(HttpExchange exchange) throws IOException {
    respond(exchange, 404, "text/plain; charset=utf-8", "not found: try /metrics, /health/live or /health/ready\n");
  }

  private boolean exact(HttpExchange exchange, String path) throws IOException {
    if (!exchange.getRequestURI().getPath().equals(path)) {
      notFound(exchange);
      return false;
    }
    return true;
  }

  private static void respond(HttpExchange exchange, int status, String contentType, String body) throws IOException {
    HttpEndpoint.respond(exchange, status, contentType, body);
  }

  @Override
  public void close() {
    endpoint.close();
  }
}
