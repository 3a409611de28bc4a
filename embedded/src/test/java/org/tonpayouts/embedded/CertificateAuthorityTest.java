package org.tonpayouts.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CertificateAuthorityTest {
  private static final char[] PASSWORD = "changeit".toCharArray();

  @TempDir Path dir;

  @Test
  void aClientThatTrustsTheCaVerifiesTheServerAndItsHostname() throws Exception {
    CertificateAuthority ca = CertificateAuthority.create("test-ca");
    CertificateAuthority.Issued server = ca.issueLocalhost("server");
    SSLContext serverContext = context(server.writeKeyStore(dir.resolve("server.p12"), "server", PASSWORD),
        ca.writeTrustStore(dir.resolve("trust.p12"), PASSWORD));

    try (SSLServerSocket listener = (SSLServerSocket) serverContext.getServerSocketFactory().createServerSocket(0)) {
      CompletableFuture<Integer> served = CompletableFuture.supplyAsync(() -> {
        try (SSLSocket accepted = (SSLSocket) listener.accept(); InputStream in = accepted.getInputStream()) {
          return in.read();
        } catch (Exception e) {
          return -2;
        }
      });
      assertThat(roundTrip(ca.writeTrustStore(dir.resolve("client-trust.p12"), PASSWORD), "localhost",
          listener.getLocalPort())).isTrue();
      assertThat(served.get(30, TimeUnit.SECONDS)).isEqualTo(42);
    }
  }

  @Test
  void aClientThatTrustsAnotherCaRefusesTheServer() throws Exception {
    CertificateAuthority ca = CertificateAuthority.create("test-ca");
    CertificateAuthority other = CertificateAuthority.create("other-ca");
    SSLContext serverContext = context(
        ca.issueLocalhost("server").writeKeyStore(dir.resolve("server.p12"), "server", PASSWORD),
        ca.writeTrustStore(dir.resolve("trust.p12"), PASSWORD));
    try (SSLServerSocket listener = (SSLServerSocket) serverContext.getServerSocketFactory().createServerSocket(0)) {
      CompletableFuture.runAsync(() -> {
        try (SSLSocket accepted = (SSLSocket) listener.accept()) {
          accepted.startHandshake();
        } catch (Exception expected) {
          // the client hangs up during the handshake
        }
      });
      assertThatThrownBy(() -> roundTrip(other.writeTrustStore(dir.resolve("other.p12"), PASSWORD), "localhost",
          listener.getLocalPort())).isInstanceOf(SSLHandshakeException.class);
    }
  }

  @Test
  void privateKeysArePkcs8PemReadableByTheOwnerOnly() throws Exception {
    CertificateAuthority.Issued issued = CertificateAuthority.create("test-ca").issueLocalhost("db");
    Path key = issued.writePrivateKeyPem(dir.resolve("server.key"));
    assertThat(Files.readString(key)).startsWith("-----BEGIN PRIVATE KEY-----");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(key))).isEqualTo("rw-------");
    assertThat(Files.readString(issued.writeCertificatePem(dir.resolve("server.crt"))))
        .startsWith("-----BEGIN CERTIFICATE-----");
  }

  private static boolean roundTrip(Path trustStore, String host, int port) throws Exception {
    SSLContext client = context(null, trustStore);
    try (SSLSocket socket = (SSLSocket) client.getSocketFactory().createSocket(host, port)) {
      SSLParameters params = socket.getSSLParameters();
      params.setEndpointIdentificationAlgorithm("HTTPS");
      socket.setSSLParameters(params);
      socket.startHandshake();
      try (OutputStream out = socket.getOutputStream()) {
        out.write(42);
        out.flush();
      }
      return true;
    }
  }

  private static SSLContext context(Path keyStore, Path trustStore) throws Exception {
    KeyManagerFactory keys = null;
    if (keyStore != null) {
      KeyStore store = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(keyStore)) {
        store.load(in, PASSWORD);
      }
      keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(store, PASSWORD);
    }
    KeyStore trust = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(trustStore)) {
      trust.load(in, PASSWORD);
    }
    TrustManagerFactory trusts = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trusts.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys == null ? null : keys.getKeyManagers(), trusts.getTrustManagers(), null);
    return context;
  }
}
