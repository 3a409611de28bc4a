package org.tonpayouts.streams.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.tonpayouts.schemas.AuditRecord;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.audit.AuditEvent.Level;
import org.tonpayouts.streams.ledger.audit.AuditEvent.Type;

/**
 * The audit log is append-only in the database itself (V14): whoever connects, an UPDATE of a row's
 * content, a DELETE or a TRUNCATE is refused with a message saying so; only the outbox publisher's
 * one mark (published_at from null to a time) passes.
 */
class AuditLogAppendOnlyTest {
  @RegisterExtension
  static final LedgerFixture db = new LedgerFixture(AuditLogAppendOnlyTest.class);
  private final Ledger ledger = db.ledger;

  private AuditEvent record(String detail) {
    return ledger.audit().record(AuditEvent.aboutWallet(LedgerFixture.SUBWALLET, LedgerFixture.WALLET, 3L,
        Level.ERROR, Type.SEQNO_MISMATCH, detail));
  }

  @Test
  void shouldRefuseAnUpdateOfARowsContent() throws SQLException {
    AuditEvent event = record("expected 3, observed 4");

    assertThatThrownBy(() -> db.execute("update audit_log set detail = 'nothing happened' where id = " + event.id()))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("audit_log is append-only")
        .hasMessageContaining("row " + event.id());
    assertThatThrownBy(() -> db.execute("update audit_log set level = 'INFO', published_at = now() where id = "
        + event.id())).hasMessageContaining("audit_log is append-only");

    assertThat(ledger.audit().forWallet(LedgerFixture.WALLET)).extracting(AuditEvent::detail)
        .containsExactly("expected 3, observed 4");
  }

  @Test
  void shouldRefuseDeleteAndTruncate() throws SQLException {
    AuditEvent event = record("kept");

    assertThatThrownBy(() -> db.execute("delete from audit_log where id = " + event.id()))
        .isInstanceOf(SQLException.class).hasMessageContaining("audit_log is append-only: DELETE");
    assertThatThrownBy(() -> db.execute("truncate audit_log"))
        .isInstanceOf(SQLException.class).hasMessageContaining("audit_log is append-only: TRUNCATE");

    assertThat(db.queryLong("select count(*) from audit_log")).isEqualTo(1);
  }

  @Test
  void shouldLetTheOutboxMarkARowPublishedOnceAndNeverUnmarkIt() throws SQLException {
    AuditEvent event = record("published");
    List<AuditRecord> sent = new ArrayList<>();

    assertThat(ledger.auditOutbox().publishNext(10, sent::addAll)).isEqualTo(1);

    assertThat(sent).extracting(AuditRecord::auditId).containsExactly(event.id());
    assertThat(ledger.auditOutbox().unpublished()).isZero();
    assertThatThrownBy(() -> db.execute("update audit_log set published_at = null where id = " + event.id()))
        .hasMessageContaining("audit_log is append-only");
    assertThatThrownBy(() -> db.execute("update audit_log set published_at = now() where id = " + event.id()))
        .hasMessageContaining("audit_log is append-only");
  }
}
