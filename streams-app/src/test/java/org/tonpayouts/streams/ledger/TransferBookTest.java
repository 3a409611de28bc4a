package org.tonpayouts.streams.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;
import static org.tonpayouts.streams.ledger.LedgerFixture.DESTINATION;
import static org.tonpayouts.streams.ledger.LedgerFixture.OTHER_WALLET;
import static org.tonpayouts.streams.ledger.LedgerFixture.START;
import static org.tonpayouts.streams.ledger.LedgerFixture.SUBWALLET;
import static org.tonpayouts.streams.ledger.LedgerFixture.WALLET;
import static org.tonpayouts.streams.ledger.LedgerFixture.hash;
import static org.tonpayouts.streams.ledger.LedgerFixture.request;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.record.Intent;
import org.tonpayouts.streams.ledger.record.LedgerQueries.TransferRef;
import org.tonpayouts.streams.ledger.record.TransferDecision;
import org.tonpayouts.streams.ledger.record.TransferHistory;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.TransferRow;
import org.tonpayouts.streams.ledger.sql.TransferStatus;

/**
 * Transfer outcomes without a message verdict, the histories issuing rounds read, the audit log
 * and the schema, on a real PostgreSQL.
 */
class TransferBookTest {
  private static final String ORIGIN = "payout.requests-0@1";
  @RegisterExtension
  static final LedgerFixture db = new LedgerFixture(TransferBookTest.class);
  private final Ledger ledger = db.ledger;

  @Test
  void shouldHaveMigratedToTheLatestSchemaOnce() throws Exception {
    java.nio.file.Path migrations = java.nio.file.Path.of(
        TransferBookTest.class.getClassLoader().getResource("db/migration").toURI());
    long files;
    try (var list = java.nio.file.Files.list(migrations)) {
      files = list.filter(f -> f.getFileName().toString().matches("V\\d+__.*\\.sql")).count();
    }

    assertThat(Ledger.migrate(db.dataSource)).as("nothing left to apply").isZero();
    assertThat(db.queryLong("select count(*) from flyway_schema_history where success")).isEqualTo(files)
        .isGreaterThanOrEqualTo(3);
  }

  @Test
  void shouldFailATransferBeforeSigningAndAbortTheRestOfItsRequest() {
    PayoutRequest request = request("poor", 3);

    TransferDecision failed = ledger.transfers().failBeforeSigning(request, ORIGIN, WALLET, 0,
        "insufficient balance: 5 nanotons");
    List<TransferRow> aborted = ledger.transfers().abortRest(request, ORIGIN, WALLET, 1, "transfer t-0 FAILED");

    assertThat(failed).isInstanceOfSatisfying(TransferDecision.Decided.class, d -> {
      assertThat(d.transfer().status()).isEqualTo(TransferStatus.FAILED);
      assertThat(d.transfer().attempts()).isZero();
      assertThat(d.transfer().reason()).contains("insufficient balance");
    });
    assertThat(aborted).extracting(TransferRow::transferId).containsExactly("t-1", "t-2");
    assertThat(ledger.queries().transfersOf("poor")).extracting(TransferRow::status)
        .containsExactly(TransferStatus.FAILED, TransferStatus.ABORTED, TransferStatus.ABORTED);
    assertThat(ledger.transfers().failBeforeSigning(request, ORIGIN, WALLET, 0, "again"))
        .isInstanceOf(TransferDecision.AlreadyDecided.class);
    assertThat(ledger.audit().forRequest("poor")).extracting(AuditEvent::event)
        .containsExactly(AuditEvent.Type.TRANSFER_REFUSED);
  }

  @Test
  void shouldNotFailATransferWhoseMessageMayStillApply() {
    Intent live = db.intent("req-1", 1, 7, "m1");
    ledger.intents().record(live);

    assertThat(ledger.transfers().failBeforeSigning(live.request(), live.origin(), WALLET, 0, "no"))
        .isInstanceOf(TransferDecision.Refused.class);
  }

  @Test
  void shouldRecordABounceOfASettledPayoutOnceWithAnAuditEvent() {
    Intent paid = db.intent("req-1", 1, 7, "m1");
    ledger.intents().record(paid);
    assertThat(ledger.transfers().recordBounce("req-1", "t-0", hash("bounce"), 1_000L, null))
        .as("not settled yet").isInstanceOf(TransferDecision.Refused.class);
    ledger.transitions().confirm(paid.messageHash(), hash("tx-1"), 10L, null, null);

    TransferDecision first = ledger.transfers().recordBounce("req-1", "t-0", hash("bounce"), 1_499_600_000L, null);
    TransferDecision again = ledger.transfers().recordBounce("req-1", "t-0", hash("bounce"), 1_499_600_000L, null);

    assertThat(first).isInstanceOfSatisfying(TransferDecision.Decided.class, d -> {
      assertThat(d.transfer().status()).as("paid, and came back").isEqualTo(TransferStatus.SETTLED);
      assertThat(d.transfer().bounceTxHash()).isEqualTo(hash("bounce"));
      assertThat(d.transfer().returnedNano()).isEqualTo(1_499_600_000L);
    });
    assertThat(again).isInstanceOf(TransferDecision.AlreadyDecided.class);
    assertThat(ledger.audit().forRequest("req-1")).extracting(AuditEvent::event, AuditEvent::txHash)
        .containsExactly(tuple(AuditEvent.Type.BOUNCE, hash("bounce")));
  }

  @Test
  void shouldCreditOneBounceToOnePayoutOnly() throws Exception {
    Intent first = db.intent("req-1", 1, 7, "m1");
    Intent second = db.intent("req-2", 1, 8, "m2");
    for (Intent paid : List.of(first, second)) {
      ledger.intents().record(paid);
      ledger.transitions().confirm(paid.messageHash(), hash("tx-" + paid.requestId()), 10L + paid.seqno(), null, null);
    }
    assertThat(ledger.transfers().recordBounce("req-1", "t-0", hash("bounce"), 1_000L, null))
        .isInstanceOf(TransferDecision.Decided.class);

    TransferDecision twice = ledger.transfers().recordBounce("req-2", "t-0", hash("bounce"), 1_000L, null);

    assertThat(twice).isInstanceOfSatisfying(TransferDecision.Refused.class,
        r -> assertThat(r.why()).contains("credited to transfer req-1/t-0 already"));
    assertThat(ledger.queries().transfer("req-2", "t-0")).get().satisfies(t -> assertThat(t.bounceTxHash()).isNull());
    assertThat(ledger.audit().forRequest("req-2")).extracting(AuditEvent::event, AuditEvent::level)
        .containsExactly(tuple(AuditEvent.Type.LEDGER_CONFLICT, AuditEvent.Level.ERROR));
    // and the database holds the line for any writer
    assertThatThrownBy(() -> db.execute("update payout_transfers set bounce_tx_hash = '" + hash("bounce")
        + "' where request_id = 'req-2'")).isInstanceOf(java.sql.SQLException.class)
        .hasMessageContaining("payout_transfers_bounce_tx");
  }

  @Test
  void shouldReadHistoriesWithConflictsOriginsAndEveryAttemptInOneCall() {
    Intent first = db.intent("req-1", 1, 7, "attempt-1");
    ledger.intents().record(first);
    ledger.transitions().expire(first.messageHash(), LedgerFixture.provenExpiry(first));
    Intent second = db.intent("req-1", 2, 7, "attempt-2");
    ledger.intents().record(second);
    PayoutRequest sameIdOtherContent = request("req-1", SUBWALLET, 1, 7L);
    PayoutRequest unknown = request("req-new", 1);

    Map<TransferRef, TransferHistory> histories = ledger.queries().histories(List.of(
        new TransferRef(first.request(), 0), new TransferRef(sameIdOtherContent, 0), new TransferRef(unknown, 0)));

    TransferHistory known = histories.get(new TransferRef(first.request(), 0));
    assertThat(known.conflict()).isNull();
    assertThat(known.hashes()).containsExactly(first.messageHash(), second.messageHash());
    assertThat(known.liveMessage()).get().extracting(LedgerRow::messageHash).isEqualTo(second.messageHash());
    assertThat(known.boundSeqno()).isEqualTo(7L);
    assertThat(known.attempts()).isEqualTo(2);
    assertThat(known.recordedFromAnotherCopy(first.origin())).isFalse();
    assertThat(known.recordedFromAnotherCopy("payout.requests-3@99")).isTrue();
    assertThat(histories.get(new TransferRef(sameIdOtherContent, 0)).conflict().differences())
        .containsExactly("transfers[0].amountNano: 1500000000 -> 7");
    TransferHistory none = histories.get(new TransferRef(unknown, 0));
    assertThat(none.transfer()).isNull();
    assertThat(none.messages()).isEmpty();
    assertThat(none.recordedOrigin()).isNull();
  }

  @Test
  void shouldTellTheHighestAppliedSeqnoOfAWallet() {
    assertThat(ledger.queries().highestAppliedSeqno(WALLET)).isEmpty();
    Intent confirmed = db.intent("req-1", 1, 5, "c5");
    Intent failed = db.intent("req-2", 1, 6, "f6");
    Intent inFlight = db.intent("req-3", 1, 7, "s7");
    Intent elsewhere = db.intent(request("req-4", 1), 0, 1, OTHER_WALLET, 40, "o40");
    ledger.intents().record(List.of(confirmed, failed, inFlight, elsewhere));
    ledger.transitions().confirm(confirmed.messageHash(), hash("tx5"), 5L, null, null);
    ledger.transitions().fail(failed.messageHash(), "skipped send", hash("tx6"), 6L, null, null);
    ledger.transitions().confirm(elsewhere.messageHash(), hash("tx40"), 40L, null, null);

    assertThat(ledger.queries().highestAppliedSeqno(WALLET)).contains(6L);
    assertThat(ledger.queries().unsettled()).extracting(LedgerRow::messageHash)
        .containsExactly(inFlight.messageHash());
  }

  @Test
  void shouldRecordAndReadAuditEvents() {
    AuditEvent recorded = ledger.audit().record(AuditEvent.aboutWallet(SUBWALLET, WALLET, 11L,
        AuditEvent.Level.ERROR, AuditEvent.Type.SEQNO_MISMATCH, "expected 8, observed 11"));

    assertThat(recorded.id()).isPositive();
    assertThat(recorded.at()).isEqualTo(START);
    assertThat(ledger.audit().forWallet(WALLET)).singleElement().satisfies(e -> {
      assertThat(e.event()).isEqualTo(AuditEvent.Type.SEQNO_MISMATCH);
      assertThat(e.seqno()).isEqualTo(11L);
      assertThat(e.detail()).contains("observed 11");
    });
    assertThat(ledger.audit().since(START, 10)).hasSize(1);
    assertThat(ledger.audit().forWallet(OTHER_WALLET)).isEmpty();
    assertThat(DESTINATION).startsWith("0:");
  }
}
