package org.tonpayouts.streams.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;
import static org.tonpayouts.streams.ledger.LedgerFixture.WALLET;
import static org.tonpayouts.streams.ledger.LedgerFixture.hash;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.ConfirmationStatus;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.record.ConfirmBatch;
import org.tonpayouts.streams.ledger.record.Intent;
import org.tonpayouts.streams.ledger.record.RecordedVerdict;
import org.tonpayouts.streams.ledger.record.Sends;
import org.tonpayouts.streams.ledger.record.VerdictCommand;
import org.tonpayouts.streams.ledger.record.VerdictResult;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.LedgerStatus;
import org.tonpayouts.streams.ledger.sql.TransferStatus;

/**
 * A poll's verdicts recorded as one batch on a real PostgreSQL: the clear confirmations settled
 * together ({@link ConfirmBatch}) end exactly as one by one would leave them, every other verdict
 * is judged one by one in its order, and a batch the database refuses falls back to one by one.
 */
class VerdictRecorderTest {
  @RegisterExtension
  static final LedgerFixture db = new LedgerFixture(VerdictRecorderTest.class);
  private final Ledger ledger = db.ledger;

  private Intent record(String requestId, int attempt, long seqno, String seed) {
    Intent intent = db.intent(requestId, attempt, seqno, seed);
    assertThat(ledger.intents().record(intent).recorded()).isTrue();
    return intent;
  }

  private static VerdictCommand confirmed(Intent intent, String tx, long lt) {
    return command(intent, ConfirmationStatus.CONFIRMED, tx, lt);
  }

  private static VerdictCommand command(Intent intent, ConfirmationStatus status, String tx, Long lt) {
    return new VerdictCommand(Confirmation.of(intent.requestId(), intent.transferId(), intent.subwalletId(),
        intent.messageHash(), intent.seqno(), status, tx, lt, lt == null ? null : 1_700L, lt == null ? null : 2_000L,
        status == ConfirmationStatus.CONFIRMED ? null : "chain says " + status, db.clock.instant(),
        status == ConfirmationStatus.EXPIRED ? LedgerFixture.provenExpiry(intent) : null, null), null, null, WALLET);
  }

  private static VerdictResult result(RecordedVerdict recorded) {
    assertThat(recorded).isInstanceOf(RecordedVerdict.OnMessage.class);
    return ((RecordedVerdict.OnMessage) recorded).result();
  }

  @Test
  void shouldSettleABatchOfClearConfirmationsAsOneByOneWould() {
    Intent a = record("req-a", 1, 7, "a");
    Intent b = record("req-b", 1, 8, "b");
    Intent c = record("req-c", 1, 9, "c");
    ledger.transitions().recordSends(Map.of(a.messageHash(), Sends.one(db.clock.instant()),
        c.messageHash(), Sends.one(db.clock.instant())));
    Intent single = record("req-d", 1, 10, "d");
    VerdictResult oneByOne = ledger.transitions().confirm(single.messageHash(), hash("tx-d"), 40L, 1_700L, 2_000L);

    List<RecordedVerdict> recorded = ledger.verdicts().record(List.of(
        confirmed(a, hash("tx-a"), 41L), confirmed(b, hash("tx-b"), 42L), confirmed(c, hash("tx-c"), 43L)));

    assertThat(recorded).extracting(RecordedVerdict::command).extracting(cmd -> cmd.verdict().messageHash())
        .containsExactly(a.messageHash(), b.messageHash(), c.messageHash());
    assertThat(recorded).map(VerdictRecorderTest::result).allSatisfy(r -> assertThat(r)
        .isInstanceOfSatisfying(VerdictResult.Applied.class, applied -> {
          assertThat(applied.message().status()).isEqualTo(LedgerStatus.CONFIRMED);
          assertThat(applied.message().utime()).isEqualTo(1_700L);
          assertThat(applied.message().feeNano()).isEqualTo(2_000L);
          assertThat(applied.message().settledAt()).isEqualTo(db.clock.instant());
          assertThat(applied.transfer().status()).isEqualTo(TransferStatus.SETTLED);
          assertThat(applied.transfer().messageHash()).isEqualTo(applied.message().messageHash());
          assertThat(applied.transfer().txHash()).isEqualTo(applied.message().txHash());
          assertThat(applied.transfer().reason()).isNull();
          assertThat(applied.transfer().settledAt()).isEqualTo(db.clock.instant());
        }));
    assertThat(recorded).map(VerdictRecorderTest::result)
        .extracting(r -> ((VerdictResult.Applied) r).message().txHash(), r -> ((VerdictResult.Applied) r).message().lt())
        .containsExactly(tuple(hash("tx-a"), 41L), tuple(hash("tx-b"), 42L), tuple(hash("tx-c"), 43L));
    // the same columns as the one-by-one path leaves, apart from the transaction's own
    VerdictResult.Applied single1 = (VerdictResult.Applied) oneByOne;
    VerdictResult.Applied batchA = (VerdictResult.Applied) result(recorded.get(0));
    assertThat(batchA.message()).usingRecursiveComparison()
        .ignoringFields("id", "requestId", "messageHash", "normalizedHash", "boc", "seqno", "txHash", "lt", "sentAt",
            "sendCount")
        .isEqualTo(single1.message());
    assertThat(batchA.transfer()).usingRecursiveComparison()
        .ignoringFields("requestId", "seqno", "messageHash", "txHash")
        .isEqualTo(single1.transfer());
    assertThat(ledger.audit().forRequest("req-a")).isEmpty();
  }

  @Test
  void shouldRecordTheSendsOfEveryVerdictOfTheBatchInTheSameTransaction() {
    Intent clear = record("req-clear", 1, 7, "clear");
    Intent expired = record("req-expired", 1, 8, "expired");
    Intent noSends = record("req-quiet", 1, 9, "quiet");
    Intent verdictLater = record("req-later", 1, 10, "later");
    Instant firstSend = db.clock.instant();
    db.clock.advance(Duration.ofSeconds(2));

    List<RecordedVerdict> recorded = ledger.verdicts().record(List.of(confirmed(clear, hash("tx-clear"), 41L),
        command(expired, ConfirmationStatus.EXPIRED, null, null), confirmed(noSends, hash("tx-quiet"), 42L)),
        Map.of(clear.messageHash(), new Sends(firstSend, 2), expired.messageHash(), Sends.one(firstSend),
            verdictLater.messageHash(), Sends.one(firstSend)));

    assertThat(recorded).map(VerdictRecorderTest::result).allSatisfy(r -> assertThat(r)
        .isInstanceOf(VerdictResult.Applied.class));
    assertThat(List.of(clear, expired, noSends, verdictLater))
        .map(i -> ledger.queries().findByMessageHash(i.messageHash()).orElseThrow())
        .extracting(LedgerRow::status, LedgerRow::sendCount, LedgerRow::sentAt)
        .containsExactly(
            tuple(LedgerStatus.CONFIRMED, 2, firstSend), // settled with the batch, sends in the same row version
            tuple(LedgerStatus.EXPIRED, 1, firstSend), // judged one by one, sends recorded first
            tuple(LedgerStatus.CONFIRMED, 0, null),
            tuple(LedgerStatus.SENT, 1, firstSend)); // its verdict is yet to come
  }

  @Test
  void shouldJudgeEveryOtherVerdictOneByOneInItsOrder() throws SQLException {
    Intent clear = record("req-clear", 1, 7, "clear");
    Intent repeated = record("req-repeated", 1, 8, "repeated");
    ledger.transitions().confirm(repeated.messageHash(), hash("tx-repeated"), 50L, null, null);
    Intent claimsTaken = record("req-claims", 1, 9, "claims");
    Intent overturned = record("req-overturned", 1, 10, "overturned");
    ledger.transitions().expire(overturned.messageHash(), LedgerFixture.provenExpiry(overturned));
    Intent expiresThenApplies = record("req-twice", 1, 11, "twice");
    Intent failed = record("req-failed", 1, 12, "failed");
    Intent unknown = db.intent("req-unknown", 1, 13, "never recorded");
    Intent alsoClear = record("req-also", 1, 14, "also");

    List<RecordedVerdict> recorded = ledger.verdicts().record(List.of(
        confirmed(clear, hash("tx-shared"), 60L),
        confirmed(repeated, hash("tx-repeated"), 50L),
        confirmed(claimsTaken, hash("tx-shared"), 61L),
        confirmed(overturned, hash("tx-overturned"), 62L),
        command(expiresThenApplies, ConfirmationStatus.EXPIRED, null, null),
        confirmed(expiresThenApplies, hash("tx-twice"), 63L),
        command(failed, ConfirmationStatus.FAILED, hash("tx-failed"), 64L),
        confirmed(alsoClear, hash("tx-also"), 66L),
        confirmed(unknown, hash("tx-unknown"), 65L)));

    assertThat(recorded).map(VerdictRecorderTest::result).map(Object::getClass).map(Class::getSimpleName)
        .containsExactly("Applied", "Repeated", "Contradicted", "Applied", "Applied", "Applied", "Applied", "Applied", "Unknown");
    assertThat(ledger.queries().attempts("req-twice", "t-0")).extracting(LedgerRow::status)
        .containsExactly(LedgerStatus.CONFIRMED);
    assertThat(ledger.queries().attempts("req-claims", "t-0")).extracting(LedgerRow::status)
        .containsExactly(LedgerStatus.SIGNED);
    assertThat(ledger.audit().forRequest("req-overturned")).extracting(AuditEvent::event)
        .containsExactly(AuditEvent.Type.EXPIRY_OVERTURNED);
    assertThat(ledger.audit().forRequest("req-claims")).extracting(AuditEvent::event)
        .containsExactly(AuditEvent.Type.LEDGER_CONFLICT);
    assertThat(db.queryLong("select count(*) from payout_transfers where status = 'SETTLED'")).isEqualTo(5);
    assertThat(db.queryLong("select count(*) from payout_transfers where status = 'FAILED'")).isEqualTo(1);
  }

  @Test
  void shouldSettleInTheBatchOnlyTheConfirmationsThatNeedNoJudgement() throws SQLException {
    Intent clear = record("req-clear", 1, 7, "clear");
    Intent alsoClear = record("req-also", 1, 8, "also");
    Intent settled = record("req-settled", 1, 9, "settled");
    ledger.transitions().confirm(settled.messageHash(), hash("tx-settled"), 50L, null, null);
    Intent expired = record("req-expired", 1, 10, "expired");
    ledger.transitions().expire(expired.messageHash(), LedgerFixture.provenExpiry(expired));
    Intent claims = record("req-claims", 1, 11, "claims");
    Intent sameTransfer = record("req-same", 1, 12, "same");
    List<VerdictCommand> commands = List.of(
        confirmed(clear, hash("tx-clear"), 1L),
        confirmed(settled, hash("tx-settled"), 50L),
        confirmed(expired, hash("tx-expired"), 2L),
        confirmed(claims, hash("tx-settled"), 3L),
        command(sameTransfer, ConfirmationStatus.EXPIRED, null, null),
        confirmed(sameTransfer, hash("tx-same"), 4L),
        command(alsoClear, ConfirmationStatus.FAILED, hash("tx-also"), 5L),
        confirmed(alsoClear, hash("tx-also-2"), 6L),
        confirmed(db.intent("req-unknown", 1, 13, "unknown"), hash("tx-unknown"), 7L));

    try (java.sql.Connection c = db.dataSource.getConnection()) {
      c.setAutoCommit(false);
      var taken = ConfirmBatch.settle(c, commands, Map.of(), db.clock.instant());
      c.rollback();

      assertThat(taken).containsOnlyKeys(0);
      assertThat(taken.get(0).transfer().status()).isEqualTo(TransferStatus.SETTLED);
    }
    assertThat(ledger.queries().attempts("req-clear", "t-0")).extracting(LedgerRow::status)
        .as("rolled back with the transaction").containsExactly(LedgerStatus.SIGNED);
  }

  @Test
  void shouldTakeTheVerdictsOneByOneWhenTheDatabaseRefusesTheBatchSoOnlyTheRefusedOneWaits() throws SQLException {
    Intent first = record("req-1", 1, 7, "first");
    Intent refused = record("req-2", 1, 8, "refused");
    Intent last = record("req-3", 1, 9, "last");
    // stands for whatever the database may refuse in one row (a constraint, a trigger of an operator)
    db.execute("create function refuse_tx() returns trigger language plpgsql as $$ begin"
        + " if new.tx_hash = '" + hash("tx-refused") + "' then raise exception 'refused by the test'; end if;"
        + " return new; end; $$");
    db.execute("create trigger refuse_tx before update on ton_transactions for each row execute function refuse_tx()");
    try {
      List<RecordedVerdict> recorded = ledger.verdicts().record(List.of(
          confirmed(first, hash("tx-first"), 1L), confirmed(refused, hash("tx-refused"), 2L),
          confirmed(last, hash("tx-last"), 3L)));

      assertThat(recorded).map(Object::getClass).map(Class::getSimpleName)
          .containsExactly("OnMessage", "Failed", "OnMessage");
      assertThat(((RecordedVerdict.Failed) recorded.get(1)).why()).contains("refused by the test");
      assertThat(db.queryLong("select count(*) from payout_transfers where status = 'SETTLED'")).isEqualTo(2);
      assertThat(ledger.queries().attempts("req-2", "t-0")).extracting(LedgerRow::status)
          .containsExactly(LedgerStatus.SIGNED);
    } finally {
      db.execute("drop trigger refuse_tx on ton_transactions");
      db.execute("drop function refuse_tx()");
    }
  }

  @Test
  void shouldNeverTakeAVerdictNamingAnotherTransfersMessageAsEvidenceForItsOwn() {
    Intent other = record("req-other", 1, 7, "other"); // live: the batch would have settled it
    Intent own = record("req-own", 1, 8, "own");
    Intent expiredElsewhere = record("req-third", 1, 9, "third");
    VerdictCommand claimsOthersPayment = new VerdictCommand(Confirmation.of("req-own", "t-0", own.subwalletId(),
        other.messageHash(), own.seqno(), ConfirmationStatus.CONFIRMED, hash("tx-other"), 50L, 1_700L, 2_000L,
        "recovered by destination and amount", db.clock.instant()), null, null, WALLET);
    VerdictCommand expiresOthers = new VerdictCommand(Confirmation.of("req-third", "t-0", expiredElsewhere.subwalletId(),
        other.messageHash(), expiredElsewhere.seqno(), ConfirmationStatus.EXPIRED, null, null, null, null, "expired",
        db.clock.instant(), LedgerFixture.provenExpiry(other), null), null, null, WALLET);

    List<RecordedVerdict> recorded = ledger.verdicts().record(List.of(claimsOthersPayment, expiresOthers));

    assertThat(result(recorded.get(0))).as("its own seqno was used without its messages: an operator decides")
        .isInstanceOfSatisfying(VerdictResult.Applied.class, a -> {
          assertThat(a.transfer().requestId()).isEqualTo("req-own");
          assertThat(a.transfer().status()).isEqualTo(TransferStatus.RECONCILIATION_REQUIRED);
          assertThat(a.message().messageHash()).isEqualTo(own.messageHash());
        });
    assertThat(result(recorded.get(1))).isInstanceOfSatisfying(VerdictResult.OtherTransfer.class,
        o -> assertThat(o.message().requestId()).isEqualTo("req-other"));
    assertThat(ledger.queries().attempts("req-other", "t-0")).extracting(LedgerRow::status)
        .as("the message named is untouched").containsExactly(LedgerStatus.SIGNED);
    assertThat(ledger.queries().attempts("req-third", "t-0")).extracting(LedgerRow::status)
        .containsExactly(LedgerStatus.SIGNED);
    assertThat(ledger.audit().forRequest("req-own")).extracting(AuditEvent::event)
        .containsExactly(AuditEvent.Type.LEDGER_CONFLICT, AuditEvent.Type.RECONCILIATION_REQUIRED);
    assertThat(ledger.audit().forRequest("req-third")).extracting(AuditEvent::event)
        .containsExactly(AuditEvent.Type.LEDGER_CONFLICT);
  }
}
