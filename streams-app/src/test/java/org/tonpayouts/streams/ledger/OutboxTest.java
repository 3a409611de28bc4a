package org.tonpayouts.streams.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.tonpayouts.schemas.AuditRecord;
import org.tonpayouts.streams.ledger.audit.AuditEvent.Level;
import org.tonpayouts.streams.ledger.audit.AuditEvent.Type;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.audit.Outbox;

/**
 * The audit outbox on a real PostgreSQL: every row reaches the sink, oldest first; a failed sink
 * marks nothing; a row committed after a newer one was published is still published (rows are
 * marked one by one, not behind a watermark); two publishers never take the same rows at once.
 */
class OutboxTest {
  @RegisterExtension
  static final LedgerFixture db = new LedgerFixture(OutboxTest.class);
  private final Ledger ledger = db.ledger;

  private AuditEvent record(String detail) {
    return ledger.audit().record(AuditEvent.aboutWallet(LedgerFixture.SUBWALLET, LedgerFixture.WALLET, 3L,
        Level.ERROR, Type.SEQNO_MISMATCH, detail));
  }

  @Test
  void shouldPublishEveryRowOnceOldestFirstAndCarryTheAuditId() {
    AuditEvent first = record("expected 3, observed 4");
    AuditEvent second = record("expected 4, observed 6");
    List<AuditRecord> sent = new ArrayList<>();

    assertThat(ledger.auditOutbox().publishNext(1, sent::addAll)).isEqualTo(1);
    assertThat(ledger.auditOutbox().publishNext(10, sent::addAll)).isEqualTo(1);
    assertThat(ledger.auditOutbox().publishNext(10, sent::addAll)).isZero();

    assertThat(sent).extracting(AuditRecord::auditId).containsExactly(first.id(), second.id());
    assertThat(sent.get(0)).satisfies(r -> {
      assertThat(r.event()).isEqualTo("SEQNO_MISMATCH");
      assertThat(r.level()).isEqualTo(AuditRecord.Level.ERROR);
      assertThat(r.subwalletId()).isEqualTo(LedgerFixture.SUBWALLET);
      assertThat(r.seqno()).isEqualTo(3L);
      assertThat(r.detail()).isEqualTo("expected 3, observed 4");
      assertThat(r.at()).isEqualTo(first.at());
    });
    assertThat(ledger.auditOutbox().unpublished()).isZero();
  }

  @Test
  void shouldMarkNothingWhenTheSinkFails() {
    record("one");
    List<AuditRecord> sent = new ArrayList<>();

    assertThatThrownBy(() -> ledger.auditOutbox().publishNext(10, rows -> {
      throw new IllegalStateException("broker away");
    })).isInstanceOf(Outbox.SinkException.class).hasMessageContaining("broker away");

    assertThat(ledger.auditOutbox().unpublished()).isEqualTo(1);
    assertThat(ledger.auditOutbox().publishNext(10, sent::addAll)).isEqualTo(1);
    assertThat(sent).hasSize(1);
  }

  @Test
  void shouldPublishARowThatCommitsAfterANewerOneWasPublished() throws Exception {
    List<AuditRecord> sent = new ArrayList<>();
    try (Connection slow = db.dataSource.getConnection()) {
      slow.setAutoCommit(false);
      long early;
      try (PreparedStatement ps = slow.prepareStatement("insert into audit_log (at, level, event, detail)"
          + " values (now(), 'WARNING', 'BOUNCE', 'committed late') returning id")) {
        var rs = ps.executeQuery();
        rs.next();
        early = rs.getLong(1);
      }
      AuditEvent later = record("committed at once");
      assertThat(later.id()).isGreaterThan(early);
      assertThat(ledger.auditOutbox().publishNext(10, sent::addAll)).isEqualTo(1);
      slow.commit();
      assertThat(ledger.auditOutbox().publishNext(10, sent::addAll)).isEqualTo(1);
      assertThat(sent).extracting(AuditRecord::auditId).containsExactly(later.id(), early);
    }
  }

  @Test
  void shouldNeverHandTheSameRowsToTwoPublishersAtOnce() throws Exception {
    record("a");
    record("b");
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    List<AuditRecord> first = new ArrayList<>();
    CompletableFuture<Integer> slow = CompletableFuture.supplyAsync(() -> ledger.auditOutbox().publishNext(1, rows -> {
      first.addAll(rows);
      holding.countDown();
      assertThat(release.await(10, TimeUnit.SECONDS)).isTrue();
    }));
    assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
    List<AuditRecord> second = new ArrayList<>();

    int other = ledger.auditOutbox().publishNext(10, second::addAll);
    release.countDown();

    assertThat(slow.get(10, TimeUnit.SECONDS)).isEqualTo(1);
    assertThat(other).isEqualTo(1);
    assertThat(second).extracting(AuditRecord::auditId).doesNotContainAnyElementsOf(
        first.stream().map(AuditRecord::auditId).toList());
    assertThat(ledger.auditOutbox().unpublished()).isZero();
  }
}
