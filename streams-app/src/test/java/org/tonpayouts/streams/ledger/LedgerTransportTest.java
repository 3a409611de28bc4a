package org.tonpayouts.streams.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.tonpayouts.streams.ledger.sql.LedgerTransport;

/** Which ledger URLs streams-app warns about: a remote server reached without verifying its certificate. */
class LedgerTransportTest {

  @Test
  void shouldCallARemoteServerWithTheDriversDefaultUnverified() {
    LedgerTransport transport = LedgerTransport.of("jdbc:postgresql://db.internal:5432/payouts");

    assertThat(transport).isEqualTo(new LedgerTransport.Unverified("prefer"));
    assertThat(((LedgerTransport.Unverified) transport).advice())
        .contains("sslmode=verify-full&sslrootcert=")
        .doesNotContain("db.internal");
  }

  @Test
  void shouldCallRequireUnverifiedBecauseItChecksNoCertificate() {
    assertThat(LedgerTransport.of("jdbc:postgresql://db.internal/payouts?sslmode=require"))
        .isEqualTo(new LedgerTransport.Unverified("require"));
  }

  @Test
  void shouldAcceptVerifyFullVerifyCaAndTheDriversSslTrue() {
    assertThat(LedgerTransport.of("jdbc:postgresql://db.internal/payouts?sslmode=verify-full&sslrootcert=/ca.pem"))
        .isEqualTo(new LedgerTransport.Verified("verify-full"));
    assertThat(LedgerTransport.of("jdbc:postgresql://db1,db2:5433/payouts?sslmode=VERIFY-CA"))
        .isEqualTo(new LedgerTransport.Verified("verify-ca"));
    assertThat(LedgerTransport.of("jdbc:postgresql://db.internal/payouts?ssl=true"))
        .isEqualTo(new LedgerTransport.Verified("verify-full"));
  }

  @Test
  void shouldNotWarnAboutALoopbackServer() {
    assertThat(LedgerTransport.of("jdbc:postgresql://localhost:5432/payouts")).isEqualTo(new LedgerTransport.Local());
    assertThat(LedgerTransport.of("jdbc:postgresql://127.0.0.1/payouts")).isEqualTo(new LedgerTransport.Local());
    assertThat(LedgerTransport.of("jdbc:postgresql://[::1]:5432/payouts")).isEqualTo(new LedgerTransport.Local());
    assertThat(LedgerTransport.of("jdbc:postgresql://localhost,db.internal/payouts"))
        .isEqualTo(new LedgerTransport.Unverified("prefer"));
  }

  @Test
  void shouldRefuseSomethingThatIsNotAPostgresUrl() {
    assertThatThrownBy(() -> LedgerTransport.of("jdbc:mysql://db/payouts"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("postgres.url");
  }
}
