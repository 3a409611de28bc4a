package org.tonpayouts.streams.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
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
import org.tonpayouts.streams.ledger.record.Intent;
import org.tonpayouts.streams.ledger.record.MessageTransitions;
import org.tonpayouts.streams.ledger.record.RecordedVerdict;
import org.tonpayouts.streams.ledger.record.Sends;
import org.tonpayouts.streams.ledger.record.VerdictCommand;
import org.tonpayouts.streams.ledger.record.VerdictResult;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.LedgerStatus;
import org.tonpayouts.streams.ledger.sql.TransferStatus;

/**
 * The chain's verdicts in the ledger on a real PostgreSQL: each moves a message and its transfer
 * in one transaction; expiry only on the node's time; a confirmation of any attempt settles the
 * transfer once; contradictions are audited, never applied.
 */
class MessageTransitionsTest {
  @RegisterExtension
  static final LedgerFixture db = new LedgerFixture(MessageTransitionsTest.class);
  private final Ledger ledger = db.ledger;
  private final MessageTransitions transitions = ledger.transitions();

  private Intent record(String requestId, int attempt, long seqno, String seed) {
    Intent intent = db.intent(requestId, attempt, seqno, seed);
    assertThat(ledger.intents().record(intent).recorded()).isTrue();
    return intent;
  }

  private static long validUntil(Intent intent) {
    return intent.validUntil().getEpochSecond();
  }

  @Test
  void shouldRecordSendsKeepTheFirstSendTimeAndNoteErrorsWithoutChangingTheStatus() {
    Intent intent = record("req-1", 1, 7, "m1");

    Instant firstSend = db.clock.instant();
    assertThat(transitions.recordSends(Map.of(intent.messageHash(), new Sends(firstSend, 2)))).isEqualTo(1);
    db.clock.advance(Duration.ofSeconds(5));
    assertThat(transitions.recordSends(Map.of(intent.messageHash(), Sends.one(db.clock.instant()),
        hash("unknown"), Sends.one(db.clock.instant())))).isEqualTo(1);
    assertThat(transitions.recordError(intent.messageHash(), "HTTP 502")).isTrue();

    LedgerRow row = ledger.queries().findByMessageHash(intent.messageHash()).orElseThrow();
    assertThat(row.status()).isEqualTo(LedgerStatus.SENT);
    assertThat(row.sentAt()).isEqualTo(firstSend);
    assertThat(row.sendCount()).isEqualTo(3);
    assertThat(row.errorCount()).isEqualTo(1);
    assertThat(row.lastError()).isEqualTo("HTTP 502");
  }

  @Test
  void shouldCountASendAcknowledgedAfterTheVerdictWithoutMovingTheStatus() {
    Intent intent = record("req-1", 1, 7, "m1");
    assertThat(transitions.confirm(intent.messageHash(), hash("tx-1"), 42L, 1_700L, 2_000L))
        .isInstanceOf(VerdictResult.Applied.class);
    Instant settledAt = ledger.queries().findByMessageHash(intent.messageHash()).orElseThrow().updatedAt();
    db.clock.advance(Duration.ofSeconds(1));

    assertThat(transitions.recordSends(Map.of(intent.messageHash(), Sends.one(db.clock.instant())))).isEqualTo(1);

    LedgerRow row = ledger.queries().findByMessageHash(intent.messageHash()).orElseThrow();
    assertThat(row.status()).isEqualTo(LedgerStatus.CONFIRMED);
    assertThat(row.sendCount()).isEqualTo(1);
    assertThat(row.sentAt()).isEqualTo(db.clock.instant());
    assertThat(row.updatedAt()).as("a settled row's last change is its verdict").isEqualTo(settledAt);
  }

  @Test
  void shouldConfirmOnceSettleTheTransferAndTreatARepeatAsANoOp() {
    Intent intent = record("req-1", 1, 7, "m1");

    VerdictResult first = transitions.confirm(intent.messageHash(), hash("tx-1"), 42L, 1_700L, 2_000L);
    VerdictResult again = transitions.confirm(intent.messageHash(), hash("tx-1"), 42L, 1_700L, 2_000L);

    assertThat(first).isInstanceOfSatisfying(VerdictResult.Applied.class, a -> {
      assertThat(a.message().status()).isEqualTo(LedgerStatus.CONFIRMED);
      assertThat(a.message().lt()).isEqualTo(42L);
      assertThat(a.message().feeNano()).isEqualTo(2_000L);
      assertThat(a.transfer().status()).isEqualTo(TransferStatus.SETTLED);
      assertThat(a.transfer().txHash()).isEqualTo(hash("tx-1"));
      assertThat(a.transfer().messageHash()).isEqualTo(intent.messageHash());
    });
    assertThat(again).isInstanceOf(VerdictResult.Repeated.class);
  }

  @Test
  void shouldExpireOnlyOnTheNodesTimeAndReleaseTheTransferForItsNextAttempt() {
    Intent intent = record("req-1", 1, 7, "m1");

    // the wallet refuses the message from valid_until on; the verdict must show the skew margin past it too
    VerdictResult atValidUntil = transitions.expire(intent.messageHash(), validUntil(intent));
    VerdictResult early = transitions.expire(intent.messageHash(), LedgerFixture.provenExpiry(intent) - 1);
    VerdictResult proven = transitions.expire(intent.messageHash(), LedgerFixture.provenExpiry(intent));

    assertThat(atValidUntil).isInstanceOf(VerdictResult.TooEarly.class);
    assertThat(early).isInstanceOf(VerdictResult.TooEarly.class);
    assertThat(proven).isInstanceOfSatisfying(VerdictResult.Applied.class, a -> {
      assertThat(a.message().status()).isEqualTo(LedgerStatus.EXPIRED);
      assertThat(a.message().evidenceUtime()).isEqualTo(LedgerFixture.provenExpiry(intent));
      assertThat(a.transfer().status()).isEqualTo(TransferStatus.OPEN);
    });
    // Our own clock is irrelevant: this ledger's clock is still at the start, long before valid_until.
    assertThat(db.clock.instant()).isBefore(intent.validUntil());
  }

  @Test
  void shouldSettleTheTransferOnAConfirmationOfAnOlderAttemptAndCloseTheNewerOne() throws SQLException {
    // attempt 1 judged expired (wrongly: its node's clock ran ahead), attempt 2 signed with the same seqno,
    // then attempt 1 applies after all
    Intent first = record("req-1", 1, 7, "attempt-1");
    assertThat(transitions.expire(first.messageHash(), LedgerFixture.provenExpiry(first))).isInstanceOf(VerdictResult.Applied.class);
    Intent second = record("req-1", 2, 7, "attempt-2");
    transitions.recordSends(Map.of(second.messageHash(), Sends.one(db.clock.instant())));

    VerdictResult result = transitions.confirm(first.messageHash(), hash("tx-1"), 42L, null, null);

    assertThat(result).isInstanceOfSatisfying(VerdictResult.Applied.class, a -> {
      assertThat(a.transfer().status()).isEqualTo(TransferStatus.SETTLED);
      assertThat(a.transfer().messageHash()).isEqualTo(first.messageHash());
    });
    assertThat(ledger.queries().attempts("req-1", "t-0"))
        .extracting(LedgerRow::attempt, LedgerRow::status)
        .containsExactly(tuple(1, LedgerStatus.CONFIRMED), tuple(2, LedgerStatus.EXPIRED));
    assertThat(ledger.queries().attempts("req-1", "t-0").get(1).lastError()).contains("superseded");
    assertThat(ledger.audit().forRequest("req-1")).extracting(AuditEvent::event, AuditEvent::level)
        .containsExactly(tuple(AuditEvent.Type.EXPIRY_OVERTURNED, AuditEvent.Level.WARNING));
    assertThat(db.queryLong("select count(*) from ton_transactions where status = 'CONFIRMED' and seqno = 7"))
        .isEqualTo(1);
  }

  @Test
  void shouldConfirmTheAttemptARecoveredHashNamesEvenWhenTheVerdictCameFromAWatchOfAnOlderOne() {
    // a re-check of attempt 1 overtaken by attempt 2: the poller recovers the hash that applied (attempt 2's)
    Intent first = record("req-1", 1, 7, "attempt-1");
    assertThat(transitions.expire(first.messageHash(), LedgerFixture.provenExpiry(first))).isInstanceOf(VerdictResult.Applied.class);
    Intent second = record("req-1", 2, 7, "attempt-2");
    Confirmation recovered = Confirmation.of("req-1", "t-0", LedgerFixture.SUBWALLET, second.messageHash(), 7,
        ConfirmationStatus.CONFIRMED, hash("tx-1"), 42L, 1_700L, 2_000L,
        "recovered by destination and amount: none of the transfer's hashes [" + first.messageHash() + "] is on chain",
        db.clock.instant());

    List<RecordedVerdict> recorded = ledger.verdicts().record(List.of(new VerdictCommand(recovered, null, null, WALLET)));

    assertThat(recorded).singleElement().isInstanceOfSatisfying(RecordedVerdict.OnMessage.class,
        m -> assertThat(m.result()).isInstanceOf(VerdictResult.Applied.class));
    assertThat(ledger.queries().attempts("req-1", "t-0"))
        .extracting(LedgerRow::attempt, LedgerRow::status, LedgerRow::txHash)
        .containsExactly(tuple(1, LedgerStatus.EXPIRED, null), tuple(2, LedgerStatus.CONFIRMED, hash("tx-1")));
    assertThat(ledger.audit().forRequest("req-1")).as("no expiry overturned: attempt 1 never applied").isEmpty();
  }

  @Test
  void shouldClaimNothingWhenAMessageTheLedgerNeverRecordedPaidTheTransfer() throws SQLException {
    Intent ours = record("req-1", 1, 7, "m1");
    transitions.recordSends(Map.of(ours.messageHash(), Sends.one(db.clock.instant())));
    Confirmation recovered = Confirmation.of("req-1", "t-0", LedgerFixture.SUBWALLET, hash("someone-else"), 7,
        ConfirmationStatus.CONFIRMED, hash("tx-1"), 42L, 1_700L, 2_000L,
        "recovered by destination and amount", db.clock.instant());

    List<RecordedVerdict> recorded = ledger.verdicts().record(List.of(new VerdictCommand(recovered, null, null, WALLET)));

    assertThat(recorded).singleElement().isInstanceOfSatisfying(RecordedVerdict.OnMessage.class,
        m -> assertThat(m.result()).isInstanceOfSatisfying(VerdictResult.Applied.class, a -> {
          assertThat(a.transfer().status()).isEqualTo(TransferStatus.RECONCILIATION_REQUIRED);
          assertThat(a.transfer().reason()).contains(hash("tx-1"), hash("someone-else"), "never signed");
          assertThat(a.transfer().txHash()).isNull();
        }));
    assertThat(ledger.queries().attempts("req-1", "t-0")).extracting(LedgerRow::status)
        .containsExactly(LedgerStatus.RECONCILIATION_REQUIRED);
    assertThat(db.queryLong("select count(*) from ton_transactions where status = 'CONFIRMED'")).isZero();
  }

  @Test
  void shouldRefuseAVerdictThatContradictsTheLedgerAndAuditIt() {
    Intent failed = record("req-1", 1, 7, "failed");
    Intent confirmed = record("req-2", 1, 8, "confirmed");
    transitions.fail(failed.messageHash(), "skipped send", hash("tx-f"), 1L, null, null);
    transitions.confirm(confirmed.messageHash(), hash("tx-c"), 2L, null, null);

    VerdictResult onFailed = transitions.confirm(failed.messageHash(), hash("tx-x"), 3L, null, null);
    VerdictResult otherTx = transitions.confirm(confirmed.messageHash(), hash("tx-y"), 4L, null, null);
    Intent third = record("req-3", 1, 9, "third");
    VerdictResult claimedTx = transitions.confirm(third.messageHash(), hash("tx-c"), 2L, null, null);

    assertThat(onFailed).isInstanceOf(VerdictResult.Contradicted.class);
    assertThat(otherTx).isInstanceOf(VerdictResult.Contradicted.class);
    assertThat(claimedTx).isInstanceOfSatisfying(VerdictResult.Contradicted.class,
        x -> assertThat(x.why()).contains("already confirms another message"));
    assertThat(ledger.queries().findByMessageHash(third.messageHash()).orElseThrow().status())
        .isEqualTo(LedgerStatus.SIGNED);
    assertThat(ledger.audit().forWallet(WALLET)).extracting(AuditEvent::event)
        .containsOnly(AuditEvent.Type.LEDGER_CONFLICT).hasSize(3);
  }

  @Test
  void shouldFailAndFlagReconciliationWithTheirTransfers() {
    Intent failed = record("req-1", 1, 7, "failed");
    Intent unclear = record("req-2", 1, 8, "unclear");

    VerdictResult f = transitions.fail(failed.messageHash(), "skipped send", hash("tx-f"), 5L, null, null);
    VerdictResult r = transitions.reconcile(unclear.messageHash(), "seqno moved past 8 without our hash");

    assertThat(f).isInstanceOfSatisfying(VerdictResult.Applied.class, a -> {
      assertThat(a.transfer().status()).isEqualTo(TransferStatus.FAILED);
      assertThat(a.transfer().txHash()).as("applied: the seqno stays used").isEqualTo(hash("tx-f"));
    });
    assertThat(r).isInstanceOfSatisfying(VerdictResult.Applied.class, a -> {
      assertThat(a.message().status()).isEqualTo(LedgerStatus.RECONCILIATION_REQUIRED);
      assertThat(a.transfer().status()).isEqualTo(TransferStatus.RECONCILIATION_REQUIRED);
      assertThat(a.transfer().reason()).contains("seqno moved past 8");
    });
    assertThat(ledger.audit().forRequest("req-2")).extracting(AuditEvent::event, AuditEvent::level)
        .containsExactly(tuple(AuditEvent.Type.RECONCILIATION_REQUIRED, AuditEvent.Level.ERROR));
    assertThat(transitions.reconcile(failed.messageHash(), "late")).isInstanceOf(VerdictResult.Repeated.class);
    assertThat(transitions.expire(failed.messageHash(), Long.MAX_VALUE / 2)).isInstanceOf(VerdictResult.Repeated.class);
    assertThat(transitions.confirm(hash("nobody"), hash("tx"), 1L, null, null)).isInstanceOf(VerdictResult.Unknown.class);
  }

  @Test
  void shouldRefuseBackwardTransitionsAndUnprovenRowsEvenInHandWrittenSql() {
    Intent intent = record("req-1", 1, 7, "m1");
    assertThatThrownBy(() -> db.execute("update ton_transactions set status = 'CONFIRMED' where message_hash = '"
        + intent.messageHash() + "'"))
        .isInstanceOf(SQLException.class).hasMessageContaining("ton_transactions_confirmed_has_tx");
    transitions.confirm(intent.messageHash(), hash("tx-1"), 1L, null, null);

    assertThatThrownBy(() -> db.execute("update ton_transactions set status = 'SENT' where message_hash = '"
        + intent.messageHash() + "'"))
        .isInstanceOf(SQLException.class).hasMessageContaining("illegal status change CONFIRMED -> SENT");
    assertThatThrownBy(() -> db.execute("update payout_transfers set status = 'OPEN' where request_id = 'req-1'"))
        .isInstanceOf(SQLException.class).hasMessageContaining("illegal status change SETTLED -> OPEN");
    Intent other = record("req-2", 1, 8, "m2");
    assertThatThrownBy(() -> db.execute("update ton_transactions set status = 'CONFIRMED', tx_hash = '"
        + hash("tx-1") + "', lt = 1 where message_hash = '" + other.messageHash() + "'"))
        .as("one transaction confirms one message")
        .isInstanceOf(SQLException.class).hasMessageContaining("ton_transactions_confirmed_tx");
  }

  @Test
  void shouldMapMessageStatusesToTheChainPollersVerdicts() {
    assertThat(LedgerStatus.CONFIRMED.asConfirmationStatus()).isEqualTo(ConfirmationStatus.CONFIRMED);
    assertThat(LedgerStatus.EXPIRED.asConfirmationStatus()).isEqualTo(ConfirmationStatus.EXPIRED);
    assertThatThrownBy(LedgerStatus.SENT::asConfirmationStatus).isInstanceOf(IllegalStateException.class);
    assertThat(TransferStatus.RECONCILIATION_REQUIRED.asSettlementStatus().name()).isEqualTo("RECONCILIATION_REQUIRED");
    assertThatThrownBy(TransferStatus.OPEN::asSettlementStatus).isInstanceOf(IllegalStateException.class);
  }
}
