package org.tonpayouts.streams.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;
import static org.tonpayouts.streams.ledger.LedgerFixture.DESTINATION;
import static org.tonpayouts.streams.ledger.LedgerFixture.MAX_ATTEMPTS;
import static org.tonpayouts.streams.ledger.LedgerFixture.OTHER_WALLET;
import static org.tonpayouts.streams.ledger.LedgerFixture.START;
import static org.tonpayouts.streams.ledger.LedgerFixture.SUBWALLET;
import static org.tonpayouts.streams.ledger.LedgerFixture.TTL;
import static org.tonpayouts.streams.ledger.LedgerFixture.WALLET;
import static org.tonpayouts.streams.ledger.LedgerFixture.hash;
import static org.tonpayouts.streams.ledger.LedgerFixture.rawAddress;
import static org.tonpayouts.streams.ledger.LedgerFixture.request;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.TransferKind;
import org.tonpayouts.schemas.TransferRequest;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.record.Intent;
import org.tonpayouts.streams.ledger.record.RecordResult.Recorded;
import org.tonpayouts.streams.ledger.record.RecordResult.Refusal;
import org.tonpayouts.streams.ledger.record.RecordResult.Refused;
import org.tonpayouts.streams.ledger.record.RecordResult;
import org.tonpayouts.streams.ledger.record.VerdictResult;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.LedgerStatus;
import org.tonpayouts.streams.ledger.sql.TransferRow;
import org.tonpayouts.streams.ledger.sql.TransferStatus;
import org.tonpayouts.ton.address.TonAddress;

/**
 * Recording intents on a real PostgreSQL: every transfer bound to one seqno, one live message per
 * transfer, attempts counted and capped, request ids unique across wallets, and races.
 */
class IntentRecorderTest {
  @RegisterExtension
  static final LedgerFixture db = new LedgerFixture(IntentRecorderTest.class);
  private final Ledger ledger = db.ledger;

  private static Refused refused(RecordResult result) {
    assertThat(result).isInstanceOf(Refused.class);
    return (Refused) result;
  }

  private static LedgerRow recorded(RecordResult result) {
    assertThat(result).isInstanceOf(Recorded.class);
    return ((Recorded) result).row();
  }

  /** Attempt 1 recorded and then provably expired, so attempt 2 may follow. */
  private Intent expiredFirstAttempt(String requestId, long seqno) {
    Intent first = db.intent(requestId, 1, seqno, requestId + "-1");
    recorded(ledger.intents().record(first));
    assertThat(ledger.transitions().expire(first.messageHash(), LedgerFixture.provenExpiry(first)))
        .isInstanceOf(VerdictResult.Applied.class);
    return first;
  }

  @Test
  void shouldRecordAnIntentWithItsRequestAndTransfers() {
    PayoutRequest request = request("req-1", 2);
    Intent intent = db.intent(request, 0, 1, TonAddress.parse(WALLET).toFriendly(true, false), 7, "m1");

    LedgerRow row = recorded(ledger.intents().record(intent));

    assertThat(row.requestId()).isEqualTo("req-1");
    assertThat(row.transferId()).isEqualTo("t-0");
    assertThat(row.attempt()).isEqualTo(1);
    assertThat(row.walletAddress()).as("any spelling is stored raw").isEqualTo(WALLET);
    assertThat(row.destination()).isEqualTo(DESTINATION);
    assertThat(row.amountNano()).isEqualTo(1_500_000_000L);
    assertThat(row.seqno()).isEqualTo(7);
    assertThat(row.boc()).isEqualTo(intent.boc());
    assertThat(row.validUntil()).isEqualTo(START.plus(TTL));
    assertThat(row.status()).isEqualTo(LedgerStatus.SIGNED);
    assertThat(row.createdAt()).isEqualTo(START);
    assertThat(ledger.queries().transfersOf("req-1"))
        .extracting(TransferRow::transferId, TransferRow::status, TransferRow::seqno, TransferRow::attempts,
            TransferRow::kind, TransferRow::requestedAt)
        .containsExactly(
            tuple("t-0", TransferStatus.OPEN, 7L, 1, "PAYOUT", START.minusSeconds(5)),
            tuple("t-1", TransferStatus.OPEN, null, 0, "PAYOUT", START.minusSeconds(5)));
  }

  @Test
  void shouldBindEveryAttemptOfATransferToItsFirstSeqno() throws SQLException {
    expiredFirstAttempt("req-1", 7);

    Refused elsewhere = refused(ledger.intents().record(db.intent("req-1", 2, 8, "attempt-2-at-8")));
    LedgerRow retry = recorded(ledger.intents().record(db.intent("req-1", 2, 7, "attempt-2-at-7")));

    assertThat(elsewhere.refusal()).isEqualTo(Refusal.SEQNO_BOUND);
    assertThat(elsewhere.detail()).contains("bound to seqno 7");
    assertThat(retry.seqno()).isEqualTo(7);
    assertThat(ledger.queries().attempts("req-1", "t-0"))
        .extracting(LedgerRow::attempt, LedgerRow::seqno, LedgerRow::status)
        .containsExactly(tuple(1, 7L, LedgerStatus.EXPIRED), tuple(2, 7L, LedgerStatus.SIGNED));
    // Behind the API's back the database holds the same line: a trigger refuses another seqno...
    assertThatThrownBy(() -> db.execute("insert into ton_transactions (request_id, transfer_id, transfer_index,"
        + " attempt, subwallet_id, wallet_address, destination, amount_nano, seqno, message_hash, boc, valid_until,"
        + " status, created_at, updated_at) values ('req-1', 't-0', 0, 3, 1, '" + WALLET + "', 'd', 1, 9, '"
        + hash("forged") + "', 'te6', now(), 'SIGNED', now(), now())"))
        .isInstanceOf(SQLException.class).hasMessageContaining("is bound to 7");
    // ...and the binding itself never moves.
    assertThatThrownBy(() -> db.execute("update payout_transfers set seqno = 9 where request_id = 'req-1'"))
        .isInstanceOf(SQLException.class).hasMessageContaining("cannot rebind it to 9");
  }

  @Test
  void shouldRefuseASecondMessageWhileTheTransfersMessageMayStillApply() throws SQLException {
    LedgerRow first = recorded(ledger.intents().record(db.intent("req-1", 1, 7, "m1")));

    Refused replay = refused(ledger.intents().record(db.intent("req-1", 1, 7, "m1-signed-again")));
    Refused next = refused(ledger.intents().record(db.intent("req-1", 2, 7, "m2-too-early")));

    assertThat(replay.refusal()).isEqualTo(Refusal.LIVE_MESSAGE);
    assertThat(next.refusal()).isEqualTo(Refusal.LIVE_MESSAGE);
    assertThat(ledger.queries().attempts("req-1", "t-0")).containsExactly(first);
  }

  @Test
  void shouldRefuseAnAttemptNumberThatWasTaken() {
    expiredFirstAttempt("req-1", 7);

    Refused replayOfAttemptOne = refused(ledger.intents().record(db.intent("req-1", 1, 7, "attempt-1-again")));

    assertThat(replayOfAttemptOne.refusal()).isEqualTo(Refusal.ATTEMPT_TAKEN);
  }

  @Test
  void shouldRefuseTheAttemptAfterTheLastAndFailTheTransferWhenItsLastExpires() throws SQLException {
    Intent last = null;
    for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      last = db.intent("req-1", attempt, 7, "attempt-" + attempt);
      recorded(ledger.intents().record(last));
      VerdictResult expiry = ledger.transitions().expire(last.messageHash(), LedgerFixture.provenExpiry(last));
      assertThat(expiry).isInstanceOf(attempt < MAX_ATTEMPTS ? VerdictResult.Applied.class : VerdictResult.GaveUp.class);
    }

    Refused beyond = refused(ledger.intents().record(db.intent("req-1", MAX_ATTEMPTS + 1, 7, "one-too-many")));

    assertThat(beyond.refusal()).isEqualTo(Refusal.TRANSFER_DECIDED);
    TransferRow transfer = ledger.queries().transfer("req-1", "t-0").orElseThrow();
    assertThat(transfer.status()).isEqualTo(TransferStatus.FAILED);
    assertThat(transfer.reason()).contains("gave up after 3 attempts");
    assertThat(transfer.txHash()).as("no transaction: the seqno is free for the next transfer").isNull();
    assertThat(ledger.audit().forRequest("req-1")).extracting(AuditEvent::event)
        .containsExactly(AuditEvent.Type.TRANSFER_GIVEN_UP);
    // The next transfer of the wallet may bind seqno 7 now: none of req-1's messages can ever apply.
    recorded(ledger.intents().record(db.intent("req-2", 1, 7, "next-transfer")));
  }

  @Test
  void shouldRefuseASeqnoAnotherTransferOfTheWalletHolds() {
    recorded(ledger.intents().record(db.intent("req-1", 1, 7, "holder")));

    Refused other = refused(ledger.intents().record(db.intent("req-2", 1, 7, "stale-read")));
    LedgerRow otherWallet = recorded(ledger.intents().record(
        db.intent(request("req-3", 1), 0, 1, OTHER_WALLET, 7, "other-wallet")));

    assertThat(other.refusal()).isEqualTo(Refusal.SEQNO_TAKEN);
    assertThat(otherWallet.seqno()).isEqualTo(7);
  }

  @Test
  void shouldRefuseARequestIdRecordedWithOtherContentAndNameTheDifferences() {
    recorded(ledger.intents().record(db.intent("shared-id", 1, 7, "first")));
    PayoutRequest reused = PayoutRequest.of("shared-id", SUBWALLET + 1, List.of(
        new TransferRequest("t-0", TransferKind.PAYOUT, DESTINATION, 9_000_000_000L, "deal shared-id", null)),
        START);

    Refused conflict = refused(ledger.intents().record(db.intent(reused, 0, 1, OTHER_WALLET, 3, "second")));

    assertThat(conflict.refusal()).isEqualTo(Refusal.REQUEST_CONFLICT);
    assertThat(conflict.detail()).contains("subwalletId: 698983191 -> 698983192")
        .contains("transfers[0].amountNano: 1500000000 -> 9000000000");
    assertThat(ledger.queries().attempts("shared-id", "t-0")).hasSize(1);
  }

  @Test
  void shouldRecordABatchOfHundredIntentsInOneCall() throws SQLException {
    List<Intent> intents = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      intents.add(db.intent(request("req-" + i, 1), 0, 1, rawAddress("batch-wallet-" + i), i, "batch-" + i));
    }
    intents.add(db.intent(request("req-dup", 1), 0, 1, rawAddress("batch-wallet-5"), 5, "batch-seqno-taken"));

    long started = System.nanoTime();
    List<RecordResult> results = ledger.intents().record(intents);
    System.out.printf("ledger: recording %d intents took %d ms%n", intents.size(),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));

    assertThat(results).hasSize(101);
    assertThat(results.subList(0, 100)).allMatch(RecordResult::recorded);
    for (int i = 0; i < 100; i++) {
      assertThat(results.get(i).intent()).isEqualTo(intents.get(i));
    }
    assertThat(refused(results.get(100)).refusal()).isEqualTo(Refusal.SEQNO_TAKEN);
    assertThat(db.queryLong("select count(*) from ton_transactions")).isEqualTo(100);
  }

  @Test
  void shouldLetExactlyOneOfTwoRacingInstancesRecordAnAttempt() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 25; round++) {
        String requestId = "race-" + round;
        PayoutRequest request = request(requestId, 1);
        Intent mine = db.intent(request, 0, 1, WALLET, round, "race-mine-" + round);
        Intent theirs = db.intent(request, 0, 1, WALLET, round, "race-theirs-" + round);
        CyclicBarrier start = new CyclicBarrier(2);
        Ledger otherInstance = new Ledger(db.dataSource, db.clock, MAX_ATTEMPTS);
        Future<RecordResult> a = pool.submit(racer(start, ledger, mine));
        Future<RecordResult> b = pool.submit(racer(start, otherInstance, theirs));
        RecordResult ra = a.get(10, TimeUnit.SECONDS);
        RecordResult rb = b.get(10, TimeUnit.SECONDS);

        assertThat(ra.recorded() ^ rb.recorded()).as("exactly one winner in round %d", round).isTrue();
        RecordResult winner = ra.recorded() ? ra : rb;
        Refused loser = (Refused) (ra.recorded() ? rb : ra);
        assertThat(loser.refusal()).isIn(Refusal.LIVE_MESSAGE, Refusal.ATTEMPT_TAKEN);
        assertThat(ledger.queries().attempts(requestId, "t-0")).containsExactly(((Recorded) winner).row());
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static Callable<RecordResult> racer(CyclicBarrier start, Ledger ledger, Intent intent) {
    return () -> {
      start.await(10, TimeUnit.SECONDS);
      return ledger.intents().record(intent);
    };
  }

  @Test
  void shouldKeepTheBocOutOfToStringAndRefuseMalformedIntents() {
    Intent intent = db.intent("req-1", 1, 7, "m1");
    LedgerRow row = recorded(ledger.intents().record(intent));

    assertThat(intent.toString()).doesNotContain(intent.boc()).contains(intent.messageHash());
    assertThat(row.toString()).doesNotContain(intent.boc()).contains(intent.messageHash());
    assertThatThrownBy(() -> db.intent("req-1", 0, 7, "m1")).hasMessageContaining("attempt");
    assertThatThrownBy(() -> db.intent("req-1", 1, 1L << 32, "m1")).hasMessageContaining("seqno");
    assertThatThrownBy(() -> db.intent(request("req-1", 1), 1, 1, WALLET, 7, "m1"))
        .hasMessageContaining("transferIndex");
  }
}
