package org.tonpayouts.runtime.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.runtime.http.HttpBinding;
import org.tonpayouts.runtime.http.HttpLimits;

/** The ops endpoint as Prometheus and a probe see it, over real HTTP. */
class OpsServerTest {
  private final HttpClient http = HttpClient.newHttpClient();
  private final AtomicBoolean databaseUp = new AtomicBoolean(false);
  private ProcessMetrics metrics;
  private OpsServer server;

  @BeforeEach
  void start() {
    metrics = new ProcessMetrics("test-app");
    metrics.registry().counter("payout.test.events", "status", "SETTLED").increment(3);
    Health health = new Health()
        .live("streams", () -> CheckResult.up("state RUNNING"))
        .ready("database", () -> databaseUp.get() ? CheckResult.up("connection valid")
            : CheckResult.down("PSQLException (SQLState 08001)", "jdbc:postgresql://db/payouts: Connection refused"));
    server = OpsServer.start(HttpBinding.loopback(0, "metrics.port"), HttpLimits.defaults(), metrics::scrape, health);
  }

  @AfterEach
  void stop() {
    server.close();
    metrics.close();
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void shouldServePrometheusTextWithTheJvmMetersAndTheApplicationTag() throws Exception {
    HttpResponse<String> response = get("/metrics");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type")).hasValue(OpsServer.PROMETHEUS_CONTENT_TYPE);
    assertThat(response.body())
        .contains("payout_test_events_total{application=\"test-app\",status=\"SETTLED\"} 3.0")
        .contains("jvm_memory_used_bytes{")
        .contains("jvm_threads_live_threads{")
        .contains("process_cpu_usage{");
  }

  @Test
  void shouldAnswerReadinessWith503AndTheFailingCheckUntilEveryCheckIsUp() throws Exception {
    HttpResponse<String> down = get("/health/ready");

    assertThat(down.statusCode()).isEqualTo(503);
    JsonNode body = new ObjectMapper().readTree(down.body());
    assertThat(body.get("status").asText()).isEqualTo("DOWN");
    assertThat(body.at("/checks/streams/status").asText()).isEqualTo("UP");
    assertThat(body.at("/checks/database/status").asText()).isEqualTo("DOWN");
    assertThat(body.at("/checks/database/detail").asText()).isEqualTo("PSQLException (SQLState 08001)");
    assertThat(down.body()).as("the cause is for the log").doesNotContain("jdbc:").doesNotContain("db/payouts");

    databaseUp.set(true);
    HttpResponse<String> up = get("/health/ready");

    assertThat(up.statusCode()).isEqualTo(200);
    assertThat(new ObjectMapper().readTree(up.body()).get("status").asText()).isEqualTo("UP");
  }

  @Test
  void shouldKeepLivenessUpWhileOnlyADependencyIsDown() throws Exception {
    HttpResponse<String> live = get("/health/live");

    assertThat(live.statusCode()).isEqualTo(200);
    assertThat(live.body()).contains("\"streams\"").doesNotContain("database");
  }

  @Test
  void shouldAnswer404ElsewhereNamingThePaths() throws Exception {
    HttpResponse<String> response = get("/metricsx");

    assertThat(response.statusCode()).isEqualTo(404);
    assertThat(response.body()).contains("/metrics").contains("/health/ready");
  }
}
