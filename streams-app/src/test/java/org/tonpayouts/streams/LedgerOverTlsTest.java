package org.tonpayouts.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.embedded.CertificateAuthority;
import org.tonpayouts.embedded.EmbeddedPostgresServer;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.StartupException;
import org.tonpayouts.streams.ledger.Ledger;

/**
 * streams-app's ledger over TLS, through the pool streams-app opens at start: a real PostgreSQL with
 * {@code ssl=on} that refuses plaintext, a server certificate made by the test's CA, and
 * {@code sslmode=verify-full} in {@code postgres.url}.
 */
class LedgerOverTlsTest {
  private static final String DATABASE = "ledger_over_tls";

  @TempDir
  static Path dir;
  private static CertificateAuthority ca;
  private static EmbeddedPostgresServer postgres;

  @BeforeAll
  static void startPostgresWithTls() {
    ca = CertificateAuthority.create("ledger-test-ca");
    postgres = EmbeddedPostgresServer.builder().tls(ca.issueLocalhost("postgres")).start();
    postgres.createDatabase(DATABASE);
  }

  @AfterAll
  static void stop() {
    if (postgres != null) {
      postgres.close();
    }
  }

  @Test
  void shouldMigrateAndRunTheLedgerOverAVerifiedEncryptedConnection() throws Exception {
    Path rootCert = ca.writeCertificatePem(dir.resolve("ca.pem"));

    try (HikariDataSource pool = StreamsAppMain.ledgerPool(config("sslmode=verify-full&sslrootcert=" + rootCert), "")) {
      assertThat(Ledger.migrate(pool)).isPositive();
      try (Connection c = pool.getConnection(); Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT ssl, version FROM pg_stat_ssl WHERE pid = pg_backend_pid()")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getBoolean("ssl")).as("this session is encrypted").isTrue();
        assertThat(rs.getString("version")).startsWith("TLSv1.");
      }
    }
  }

  @Test
  void shouldRefuseAServerWhoseCertificateAnotherCaIssued() {
    Path strangerCa = CertificateAuthority.create("some-other-ca").writeCertificatePem(dir.resolve("other-ca.pem"));

    assertThatThrownBy(() -> StreamsAppMain.ledgerPool(config("sslmode=verify-full&sslrootcert=" + strangerCa), ""))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("cannot use the ledger database")
        .hasMessageContaining("The TLS handshake failed: sslrootcert must name the CA that issued the server's"
            + " certificate")
        .hasMessageContaining("docs/production.md, PostgreSQL over TLS");
  }

  @Test
  void shouldBeRefusedByTheServerWithoutTls() {
    assertThatThrownBy(() -> StreamsAppMain.ledgerPool(config("sslmode=disable"), ""))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("no pg_hba.conf entry")
        .hasMessageContaining("no encryption");
  }

  private static PayoutsConfig config(String parameters) {
    return new PayoutsConfig(Map.of(
        PayoutsConfig.POSTGRES_URL_CONFIG, postgres.jdbcUrl(DATABASE) + "?" + parameters,
        PayoutsConfig.POSTGRES_USER_CONFIG, postgres.user(),
        PayoutsConfig.POSTGRES_PASSWORD_CONFIG, postgres.password()));
  }
}
