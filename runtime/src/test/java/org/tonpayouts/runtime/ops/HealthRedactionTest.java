package org.tonpayouts.runtime.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;
import org.tonpayouts.runtime.http.HttpBinding;
import org.tonpayouts.runtime.http.HttpLimits;
import org.tonpayouts.runtime.topics.AdminClients;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;

/**
 * {@code /health/ready} with the real checks of a process whose database, Kafka and TON API are all
 * unreachable: it names each check and its status, and nowhere the URL, host, port or credential
 * of what it failed to reach (anyone who reaches the port may ask).
 */
class HealthRedactionTest {
  private static final String DB_PASSWORD = "db-password-never-shown";
  private static final String API_KEY = "api-key-never-shown";

  @Test
  void shouldNameEachCheckAndItsStatusButNoUrlHostOrCredential() throws Exception {
    int closedPort = closedPort();
    PGSimpleDataSource database = new PGSimpleDataSource();
    database.setUrl("jdbc:postgresql://127.0.0.1:" + closedPort + "/payouts");
    database.setUser("ledger_user");
    database.setPassword(DB_PASSWORD);
    URI apiUrl = URI.create("http://127.0.0.1:" + closedPort);
    String bootstrap = "127.0.0.1:" + closedPort;
    try (AdminClients.Session kafka = AdminClients.open(bootstrap, "health-redaction");
        TonApiClient api = new TonApiClient(TonApiConfig.of(apiUrl).withApiKey(API_KEY).withMaxReadAttempts(1));
        ProcessMetrics metrics = new ProcessMetrics("health-test")) {
      NodeClock clock = new NodeClock(api, apiUrl, Clock.systemUTC(), Duration.ofSeconds(10), Duration.ofSeconds(2));
      Health health = new Health()
          .live("streams", () -> CheckResult.up("state RUNNING"))
          .ready("postgres", new DatabaseCheck(database))
          .ready("kafka", new KafkaCheck(kafka.admin(), Duration.ofMillis(500)))
          .ready("tonApi", clock.check());
      try (OpsServer ops = OpsServer.start(HttpBinding.loopback(0, "metrics.port"), HttpLimits.defaults(),
          metrics::scrape, health)) {
        HttpResponse<String> ready = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + ops.port() + "/health/ready")).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(ready.statusCode()).isEqualTo(503);
        JsonNode checks = new ObjectMapper().readTree(ready.body()).get("checks");
        assertThat(checks.fieldNames()).toIterable().containsExactly("streams", "postgres", "kafka", "tonApi");
        assertThat(checks.at("/streams/status").asText()).isEqualTo("UP");
        for (String down : new String[] {"postgres", "kafka", "tonApi"}) {
          assertThat(checks.at("/" + down + "/status").asText()).as(down).isEqualTo("DOWN");
          assertThat(checks.at("/" + down + "/detail").asText()).as(down + " says what kind of failure").isNotBlank();
        }
        assertThat(checks.at("/postgres/detail").asText()).contains("SQLState 08001");
        assertThat(ready.body())
            .doesNotContain("127.0.0.1")
            .doesNotContain(Integer.toString(closedPort))
            .doesNotContain("jdbc:")
            .doesNotContain("http://")
            .doesNotContain("ledger_user")
            .doesNotContain(DB_PASSWORD)
            .doesNotContain(API_KEY);
      }
    }
  }

  private static int closedPort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
