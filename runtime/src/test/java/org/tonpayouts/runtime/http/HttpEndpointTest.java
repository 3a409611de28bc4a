package org.tonpayouts.runtime.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.embedded.CertificateAuthority;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.StartupException;

/** An HTTP surface: where it listens, HTTPS with a key store, and what a failing handler answers. */
class HttpEndpointTest {
  private static final char[] STORE_PASSWORD = "store-password-for-tests".toCharArray();

  @TempDir
  Path dir;
  private HttpEndpoint endpoint;

  @AfterEach
  void close() {
    if (endpoint != null) {
      endpoint.close();
    }
  }

  @Test
  void shouldListenOnTheConfiguredAddressOnly() {
    PayoutsConfig config = new PayoutsConfig(Map.of(PayoutsConfig.ADMIN_BIND_ADDRESS_CONFIG, "127.0.0.1"));

    endpoint = HttpEndpoint.bind(new HttpBinding(config.adminBindAddress(), 0, PayoutsConfig.ADMIN_BIND_ADDRESS_CONFIG,
        PayoutsConfig.ADMIN_PORT_CONFIG), HttpLimits.defaults(), Optional.empty(), "test-http");

    assertThat(endpoint.address().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
  }

  @Test
  void shouldDefaultTheAdminApiToLoopbackAndMetricsToEveryInterface() {
    PayoutsConfig defaults = new PayoutsConfig(Map.of());

    assertThat(defaults.adminBindAddress()).isEqualTo("127.0.0.1");
    assertThat(defaults.metricsBindAddress()).isEqualTo("0.0.0.0");
    assertThat(defaults.adminTlsKeyStoreFile()).isEmpty();
    assertThat(defaults.httpRequestTimeout()).hasSeconds(10);
    assertThat(defaults.httpMaxConnections()).isEqualTo(32);
  }

  @Test
  void shouldRefuseAnAddressThatIsNotThisMachinesNamingTheKeys() {
    HttpBinding elsewhere = new HttpBinding("192.0.2.1", 0, PayoutsConfig.ADMIN_BIND_ADDRESS_CONFIG,
        PayoutsConfig.ADMIN_PORT_CONFIG);

    assertThatThrownBy(() -> HttpEndpoint.bind(elsewhere, HttpLimits.defaults(), Optional.empty(), "test-http"))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("cannot listen on admin.bind.address 192.0.2.1 admin.port 0");
  }

  @Test
  void shouldAnswerAFailingHandlerWithAShortJsonErrorAndNoStackTrace() throws Exception {
    endpoint = HttpEndpoint.bind(HttpBinding.loopback(0, "test.port"), HttpLimits.defaults(), Optional.empty(),
        "test-http").context("/", exchange -> {
          throw new IllegalStateException("secret internals at org.tonpayouts.Something");
        }).start();

    HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + endpoint.port() + "/anything")).build(), HttpResponse.BodyHandlers.ofString());

    assertThat(response.statusCode()).isEqualTo(500);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(response.body()).isEqualTo("{\"status\":500,\"error\":\"internal error; see the log\"}");
  }

  @Test
  void shouldServeHttpsToAClientThatTrustsTheCaAndFailTheHandshakeOfOneThatDoesNot() throws Exception {
    CertificateAuthority ca = CertificateAuthority.create("admin-test-ca");
    Path store = ca.issueLocalhost("admin").writeKeyStore(dir.resolve("admin.p12"), "admin", STORE_PASSWORD);
    ServerTls tls = ServerTls.fromPkcs12(PayoutsConfig.ADMIN_TLS_KEYSTORE_FILE_CONFIG, store,
        new PayoutsConfig.Secret(new String(STORE_PASSWORD), "test"));
    endpoint = HttpEndpoint.bind(HttpBinding.loopback(0, "test.port"), HttpLimits.defaults(), Optional.of(tls),
        "test-https").context("/", exchange -> HttpEndpoint.respond(exchange, 200, "text/plain", "over tls")).start();
    URI uri = URI.create("https://localhost:" + endpoint.port() + "/");

    HttpResponse<String> trusted = client(ca.clientContext()).send(HttpRequest.newBuilder(uri).build(),
        HttpResponse.BodyHandlers.ofString());

    assertThat(trusted.statusCode()).isEqualTo(200);
    assertThat(trusted.body()).isEqualTo("over tls");
    assertThat(tls.subject()).isEqualTo("CN=admin");
    assertThatThrownBy(() -> client(CertificateAuthority.create("another-ca").clientContext()).send(
        HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString()))
        .isInstanceOf(SSLHandshakeException.class);
    assertThatThrownBy(() -> HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://localhost:" + endpoint.port() + "/")).build(), HttpResponse.BodyHandlers.ofString()))
        .as("plain HTTP on the HTTPS port gets no answer").isInstanceOf(java.io.IOException.class);
  }

  @Test
  void shouldRefuseAWrongKeyStorePasswordNamingTheFileButNotThePassword() {
    CertificateAuthority ca = CertificateAuthority.create("admin-test-ca");
    Path store = ca.issueLocalhost("admin").writeKeyStore(dir.resolve("admin.p12"), "admin", STORE_PASSWORD);

    assertThatThrownBy(() -> ServerTls.fromPkcs12(PayoutsConfig.ADMIN_TLS_KEYSTORE_FILE_CONFIG, store,
        new PayoutsConfig.Secret("not-the-password", "admin.tls.keystore.password.file /run/secrets/p")))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("cannot open admin.tls.keystore.file " + store)
        .hasMessageContaining("with the password from admin.tls.keystore.password.file /run/secrets/p")
        .hasMessageNotContaining("not-the-password");
  }

  @Test
  void shouldReadTheKeyStorePasswordFromAnOwnerOnlyFileAndRefuseALooseOne() throws Exception {
    Path file = Files.writeString(dir.resolve("password"), "from-a-file\n");
    Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    PayoutsConfig config = new PayoutsConfig(Map.of(PayoutsConfig.ADMIN_TLS_KEYSTORE_FILE_CONFIG, "/etc/admin.p12",
        PayoutsConfig.ADMIN_TLS_KEYSTORE_PASSWORD_FILE_CONFIG, file.toString()));

    assertThat(config.adminTlsKeyStorePassword().value()).isEqualTo("from-a-file");

    Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
    assertThatThrownBy(config::adminTlsKeyStorePassword)
        .hasMessageContaining("admin.tls.keystore.password.file '" + file + "'")
        .hasMessageContaining("chmod 600 " + file)
        .hasMessageNotContaining("from-a-file");
    assertThatThrownBy(new PayoutsConfig(Map.of(PayoutsConfig.ADMIN_TLS_KEYSTORE_FILE_CONFIG, "/etc/admin.p12"))
        ::adminTlsKeyStorePassword)
        .hasMessageContaining("admin.tls.keystore.file is set but its password is not")
        .hasMessageContaining("PAYOUTS_ADMIN_TLS_KEYSTORE_PASSWORD");
  }

  private static HttpClient client(SSLContext context) {
    return HttpClient.newBuilder().sslContext(context).build();
  }
}
