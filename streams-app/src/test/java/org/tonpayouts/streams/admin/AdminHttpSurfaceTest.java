package org.tonpayouts.streams.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;
import org.tonpayouts.embedded.CertificateAuthority;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.streams.PayoutTestKit;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.metrics.PayoutMetrics;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;
import org.tonpayouts.ton.wallet.Subwallets;

/**
 * The admin API's HTTP surface, for calls that are refused before they reach the ledger or the
 * chain: malformed input answered 400 with a short JSON error (never 500 or a stack trace), and the
 * API served over HTTPS from the configured key store, to clients that trust its CA only.
 */
class AdminHttpSurfaceTest {
  private static final String TOKEN = "surface-test-admin-token-0123456789";
  private static final char[] STORE_PASSWORD = "admin-store-password".toCharArray();
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  static Path dir;
  private static CertificateAuthority ca;
  private static TonApiClient api;
  private static AdminServer plain;
  private static AdminServer https;

  @BeforeAll
  static void start() throws Exception {
    // nothing here reaches the ledger or the chain: both point nowhere
    PGSimpleDataSource nowhere = new PGSimpleDataSource();
    nowhere.setUrl("jdbc:postgresql://127.0.0.1:1/none");
    Ledger ledger = new Ledger(nowhere, Clock.systemUTC());
    api = new TonApiClient(TonApiConfig.of(URI.create("http://127.0.0.1:1")));
    Subwallets subwallets = new Subwallets(PayoutTestKit.KEY, 0);
    plain = AdminServer.start(0, TOKEN, PayoutTestKit.config(Map.of()), null, ledger, subwallets, api,
        PayoutMetrics.inMemory(), Clock.systemUTC());

    ca = CertificateAuthority.create("admin-api-test-ca");
    Path store = ca.issueLocalhost("payouts-admin").writeKeyStore(dir.resolve("admin.p12"), "admin", STORE_PASSWORD);
    Path password = Files.writeString(dir.resolve("admin.p12.password"), new String(STORE_PASSWORD) + "\n");
    Files.setPosixFilePermissions(password, PosixFilePermissions.fromString("rw-------"));
    Map<String, Object> tls = new HashMap<>();
    tls.put(PayoutsConfig.ADMIN_TLS_KEYSTORE_FILE_CONFIG, store.toString());
    tls.put(PayoutsConfig.ADMIN_TLS_KEYSTORE_PASSWORD_FILE_CONFIG, password.toString());
    https = AdminServer.start(0, TOKEN, PayoutTestKit.config(tls), null, ledger, subwallets, api,
        PayoutMetrics.inMemory(), Clock.systemUTC());
  }

  @AfterAll
  static void stop() {
    if (plain != null) {
      plain.close();
    }
    if (https != null) {
      https.close();
    }
    if (api != null) {
      api.close();
    }
  }

  @Test
  void shouldHaveTheServerRefuseAMalformedPercentEscapeWith400AndNoStackTrace() throws Exception {
    // the JDK's server parses the request line into a java.net.URI before any handler runs, and
    // answers a malformed escape itself: 400 with a one-line HTML body
    for (String line : new String[] {"GET /admin/reconciliations?limit=%zz HTTP/1.1", "GET /admin/requests/abc%2 HTTP/1.1"}) {
      Raw answer = raw(line);

      assertThat(answer.status()).as(line).isEqualTo(400);
      assertThat(answer.body()).as(line).hasLineCount(1).doesNotContain("\tat ").doesNotContain("org.tonpayouts");
    }
  }

  @Test
  void shouldAnswerEscapesThatAreNotUtf8With400AndAJsonError() throws Exception {
    Raw id = raw("GET /admin/requests/%C3%28 HTTP/1.1");
    Raw limit = raw("GET /admin/reconciliations?limit=%C3%28 HTTP/1.1");

    assertThat(id.status()).isEqualTo(400);
    assertThat(id.json().get("error").asText()).startsWith("requestId must be 1 to 128 characters");
    assertThat(limit.status()).isEqualTo(400);
    assertThat(limit.json().get("error").asText()).startsWith("limit must be a number");
  }

  @Test
  void shouldAnswerBadNumbersWith400NamingTheParameter() throws Exception {
    Raw limit = raw("GET /admin/reconciliations?limit=99999999999 HTTP/1.1");
    Raw wallet = raw("GET /admin/wallets/12x HTTP/1.1");

    assertThat(limit.status()).isEqualTo(400);
    assertThat(limit.json().get("error").asText()).isEqualTo("limit must be a number, got '99999999999'");
    assertThat(wallet.status()).isEqualTo(400);
    assertThat(wallet.json().get("error").asText()).startsWith("subwalletId must be a decimal number");
  }

  @Test
  void shouldRefuseBadInputWithoutTheTokenWith401() throws Exception {
    Raw answer = raw("GET /admin/requests/%C3%28 HTTP/1.1", false);

    assertThat(answer.status()).isEqualTo(401);
  }

  @Test
  void shouldServeHttpsFromTheConfiguredKeyStoreToClientsThatTrustItsCa() throws Exception {
    URI openapi = URI.create("https://localhost:" + https.port() + "/admin/openapi.yaml");

    HttpResponse<String> answer = HttpClient.newBuilder().sslContext(ca.clientContext()).build().send(
        HttpRequest.newBuilder(openapi).header("Authorization", "Bearer " + TOKEN).build(),
        HttpResponse.BodyHandlers.ofString());

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body()).contains("openapi:");
    assertThatThrownBy(() -> HttpClient.newBuilder().sslContext(CertificateAuthority.create("stranger").clientContext())
        .build().send(HttpRequest.newBuilder(openapi).build(), HttpResponse.BodyHandlers.ofString()))
        .isInstanceOf(SSLHandshakeException.class);
    assertThatThrownBy(() -> HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://localhost:" + https.port() + "/admin/openapi.yaml")).build(),
        HttpResponse.BodyHandlers.ofString()))
        .as("no plain HTTP on the HTTPS port").isInstanceOf(IOException.class);
  }

  /** An answer read off the socket: the request line is sent as given, which java.net.URI would refuse. */
  private record Raw(int status, String body) {
    JsonNode json() throws IOException {
      return JSON.readTree(body);
    }
  }

  private static Raw raw(String requestLine) throws IOException {
    return raw(requestLine, true);
  }

  private static Raw raw(String requestLine, boolean withToken) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", plain.port()), 2_000);
      s.setSoTimeout(5_000);
      String request = requestLine + "\r\nHost: localhost\r\nConnection: close\r\n"
          + (withToken ? "Authorization: Bearer " + TOKEN + "\r\n" : "") + "\r\n";
      s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
      String response = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      int bodyAt = response.indexOf("\r\n\r\n");
      return new Raw(Integer.parseInt(response.substring(9, 12)), bodyAt < 0 ? "" : response.substring(bodyAt + 4));
    }
  }
}
