package org.tonpayouts.streams.ledger;

import org.tonpayouts.streams.TestClock;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.embedded.EmbeddedPostgresServer;
import org.tonpayouts.embedded.SharedTestInfrastructure;
import org.tonpayouts.schemas.ConfirmationStatus;
import org.tonpayouts.streams.ledger.RecordedIntent.Conflict;
import org.tonpayouts.ton.address.TonAddress;

/** The ledger on a real PostgreSQL (a fresh database for this class): constraints, transitions, races. */
class LedgerTest {
  private static final Instant START = Instant.parse("2026-01-01T12:00:00Z");
  private static final Duration TTL = Duration.ofSeconds(60);
  private static final String WALLET = rawAddress("wallet-A");
  private static final String OTHER_WALLET = rawAddress("wallet-B");
  private static final String DESTINATION = rawAddress("destination");

  private static HikariDataSource dataSource;
  private static int migrationsAtStart;

  private TestClock clock;
  private Ledger ledger;

  @BeforeAll
  static void freshDatabase() {
    EmbeddedPostgresServer postgres = SharedTestInfrastructure.postgres();
    SharedTestInfrastructure.createDatabase(LedgerTest.class);
    String name = SharedTestInfrastructure.databaseName(LedgerTest.class);
    dataSource = Ledger.pooledDataSource(postgres.jdbcUrl(name), postgres.user(), postgres.password(), 4);
    migrationsAtStart = Ledger.migrate(dataSource);
  }

  @AfterAll
  static void closePool() {
    dataSource.close();
  }

  @BeforeEach
  void emptyLedger() throws SQLException {
    execute("truncate ton_transactions, wallet_audit");
    clock = TestClock.fixedAt(START);
    ledger = new Ledger(dataSource, clock);
  }

  // --- schema -----------------------------------------------------------------------------------

  @Test
  void shouldApplyTheMigrationOnceAndThenFindTheSchemaCurrent() throws SQLException {
    assertThat(migrationsAtStart).isEqualTo(1);
    assertThat(Ledger.migrate(dataSource)).isZero();
    assertThat(queryLong("select count(*) from flyway_schema_history where version = '1' and success"))
        .isEqualTo(1);
    assertThat(queryLong("select count(*) from wallet_audit")).isZero();
  }

  // --- recording intents ------------------------------------------------------------------------

  @Test
  void shouldInsertAnIntentAndReadItBack() {
    Intent intent = intent("req-1", "t-1", 1, WALLET, 7, "m1");

    RecordedIntent recorded = ledger.recordIntent(intent);

    assertThat(recorded.inserted()).isTrue();
    assertThat(recorded.conflict()).isEqualTo(Conflict.NONE);
    LedgerRow row = recorded.row();
    assertThat(row.requestId()).isEqualTo("req-1");
    assertThat(row.transferId()).isEqualTo("t-1");
    assertThat(row.transferIndex()).isZero();
    assertThat(row.attempt()).isEqualTo(1);
    assertThat(row.subwalletId()).isEqualTo(698983191L);
    assertThat(row.walletAddress()).isEqualTo(WALLET);
    assertThat(row.destination()).isEqualTo(DESTINATION);
    assertThat(row.amountNano()).isEqualTo(1_500_000_000L);
    assertThat(row.seqno()).isEqualTo(7);
    assertThat(row.messageHash()).isEqualTo(intent.messageHash());
    assertThat(row.normalizedHash()).isEqualTo(intent.normalizedHash());
    assertThat(row.boc()).isEqualTo(intent.boc());
    assertThat(row.validUntil()).isEqualTo(START.plus(TTL));
    assertThat(row.status()).isEqualTo(LedgerStatus.SIGNED);
    assertThat(row.createdAt()).isEqualTo(START);
    assertThat(row.updatedAt()).isEqualTo(START);
    assertThat(row.txHash()).isNull();
    assertThat(row.lt()).isNull();
    assertThat(row.sentAt()).isNull();
    assertThat(row.settledAt()).isNull();
    assertThat(ledger.findByMessageHash(intent.messageHash())).contains(row);
    assertThat(ledger.findCurrentAttempt("req-1", "t-1")).contains(row);
    assertThat(ledger.findCurrentAttempt("req-1", "t-2")).isEmpty();
  }

  @Test
  void shouldStoreAnyWalletSpellingAsTheRawAddress() {
    String friendly = TonAddress.parse(WALLET).toFriendly(true, false);
    LedgerRow row = ledger.recordIntent(intent("req-1", "t-1", 1, friendly, 7, "m1")).row();

    assertThat(row.walletAddress()).isEqualTo(WALLET);
    // The same wallet spelled differently still holds its seqno.
    RecordedIntent other = ledger.recordIntent(intent("req-2", "t-1", 1, WALLET, 7, "m2"));
    assertThat(other.conflict()).isEqualTo(Conflict.SAME_WALLET_SEQNO);
  }

  @Test
  void shouldRefuseASecondLiveAttemptForATransferAndReturnTheExistingRow() throws SQLException {
    LedgerRow first = ledger.recordIntent(intent("req-1", "t-1", 1, WALLET, 7, "m1")).row();

    // Same transfer signed again (a replay after a crash signs a different valid_until, so another hash).
    RecordedIntent second = ledger.recordIntent(intent("req-1", "t-1", 1, WALLET, 7, "m1-again"));

    assertThat(second.inserted()).isFalse();
    assertThat(second.conflict()).isEqualTo(Conflict.SAME_TRANSFER);
    assertThat(second.row()).isEqualTo(first);
    assertThat(queryLong("select count(*) from ton_transactions")).isEqualTo(1);
  }

  @Test
  void shouldFindTheSameMessageRecordedTwice() {
    Intent intent = intent("req-1", "t-1", 1, WALLET, 7, "m1");
    LedgerRow first = ledger.recordIntent(intent).row();

    RecordedIntent replay = ledger.recordIntent(intent);

    assertThat(replay.conflict()).isEqualTo(Conflict.SAME_MESSAGE);
    assertThat(replay.row()).isEqualTo(first);
  }

  @Test
  void shouldRefuseASecondMessageForTheSameWalletAndSeqno() {
    LedgerRow holder = ledger.recordIntent(intent("req-1", "t-1", 1, WALLET, 7, "m1")).row();

    RecordedIntent other = ledger.recordIntent(intent("req-2", "t-1", 1, WALLET, 7, "m2"));
    RecordedIntent otherWallet = ledger.recordIntent(intent("req-3", "t-1", 1, OTHER_WALLET, 7, "m3"));

    assertThat(other.inserted()).isFalse();
    assertThat(other.conflict()).isEqualTo(Conflict.SAME_WALLET_SEQNO);
    assertThat(other.row()).isEqualTo(holder);
    assertThat(otherWallet.inserted()).isTrue();
  }

  @Test
  void shouldAcceptANewAttemptWithTheSameSeqnoOnceTheOldOneExpired() {
    Intent first = intent("req-1", "t-1", 1, WALLET, 7, "m1");
    ledger.recordIntent(first);
    ledger.markSent(first.messageHash());
    clock.advance(TTL.plusSeconds(1));
    assertThat(ledger.markExpired(first.messageHash())).isTrue();

    RecordedIntent second = ledger.recordIntent(intent("req-1", "t-1", 2, WALLET, 7, "m1-attempt-2"));

    assertThat(second.inserted()).isTrue();
    assertThat(ledger.findCurrentAttempt("req-1", "t-1")).contains(second.row());
    assertThat(ledger.attempts("req-1", "t-1"))
        .extracting(LedgerRow::attempt, LedgerRow::status)
        .containsExactly(
            tuple(1, LedgerStatus.EXPIRED),
            tuple(2, LedgerStatus.SIGNED));
  }

  @Test
  void shouldRecordABatchOfHundredIntentsInOneCall() throws SQLException {
    List<Intent> intents = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      intents.add(intent("req-" + i, "t-0", 1, rawAddress("batch-wallet-" + i), i, "batch-" + i));
    }
    // Two intents that collide inside the batch: the first one wins, in order.
    intents.add(intent("req-0", "t-0", 1, rawAddress("batch-wallet-0"), 0, "batch-0-again"));
    intents.add(intent("req-dup", "t-0", 1, rawAddress("batch-wallet-5"), 5, "batch-seqno-taken"));

    long started = System.nanoTime();
    List<RecordedIntent> recorded = ledger.recordIntents(intents);
    System.out.printf(
        "ledger: recordIntents of %d intents took %d ms%n",
        intents.size(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));

    assertThat(recorded).hasSize(102);
    assertThat(recorded.subList(0, 100)).allMatch(RecordedIntent::inserted);
    for (int i = 0; i < 100; i++) {
      assertThat(recorded.get(i).intent()).isEqualTo(intents.get(i));
      assertThat(recorded.get(i).row().messageHash()).isEqualTo(intents.get(i).messageHash());
    }
    assertThat(recorded.get(100).conflict()).isEqualTo(Conflict.SAME_TRANSFER);
    assertThat(recorded.get(100).row().messageHash()).isEqualTo(intents.get(0).messageHash());
    assertThat(recorded.get(101).conflict()).isEqualTo(Conflict.SAME_WALLET_SEQNO);
    assertThat(recorded.get(101).row().messageHash()).isEqualTo(intents.get(5).messageHash());
    assertThat(queryLong("select count(*) from ton_transactions")).isEqualTo(100);
  }

  @Test
  void shouldLetExactlyOneOfTwoRacingInstancesRecordATransfer() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 25; round++) {
        String request = "race-" + round;
        Intent mine = intent(request, "t-1", 1, WALLET, round, "race-mine-" + round);
        Intent theirs = intent(request, "t-1", 1, WALLET, round, "race-theirs-" + round);
        CyclicBarrier start = new CyclicBarrier(2);
        Ledger otherInstance = new Ledger(dataSource, clock);
        Future<RecordedIntent> a = pool.submit(racer(start, ledger, mine));
        Future<RecordedIntent> b = pool.submit(racer(start, otherInstance, theirs));
        RecordedIntent ra = a.get(10, TimeUnit.SECONDS);
        RecordedIntent rb = b.get(10, TimeUnit.SECONDS);

        assertThat(ra.inserted() ^ rb.inserted()).as("exactly one winner in round %d", round).isTrue();
        RecordedIntent winner = ra.inserted() ? ra : rb;
        RecordedIntent loser = ra.inserted() ? rb : ra;
        assertThat(loser.conflict()).isEqualTo(Conflict.SAME_TRANSFER);
        assertThat(loser.row()).isEqualTo(winner.row());
        assertThat(ledger.attempts(request, "t-1")).containsExactly(winner.row());
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static Callable<RecordedIntent> racer(CyclicBarrier start, Ledger ledger, Intent intent) {
    return () -> {
      start.await(10, TimeUnit.SECONDS);
      return ledger.recordIntent(intent);
    };
  }

  // --- transitions ------------------------------------------------------------------------------

  @Test
  void shouldRecordSendsAndKeepTheFirstSendTime() {
    Intent intent = intent("req-1", "t-1", 1, WALLET, 7, "m1");
    ledger.recordIntent(intent);

    assertThat(ledger.markSent(intent.messageHash())).isTrue();
    Instant firstSend = clock.instant();
    clock.advance(Duration.ofSeconds(5));
    assertThat(ledger.markSent(intent.messageHash())).isTrue();

    LedgerRow row = ledger.findByMessageHash(intent.messageHash()).orElseThrow();
    assertThat(row.status()).isEqualTo(LedgerStatus.SENT);
    assertThat(row.sendCount()).isEqualTo(2);
    assertThat(row.sentAt()).isEqualTo(firstSend);
    assertThat(row.updatedAt()).isEqualTo(clock.instant());
  }

  @Test
  void shouldMarkManySentInOneCallAndCountOnlyLiveRows() {
    Intent a = intent("req-1", "t-1", 1, WALLET, 1, "a");
    Intent b = intent("req-2", "t-1", 1, WALLET, 2, "b");
    Intent settled = intent("req-3", "t-1", 1, WALLET, 3, "c");
    ledger.recordIntents(List.of(a, b, settled));
    ledger.markConfirmed(settled.messageHash(), hash("tx-c"), 100L, 1_700_000_000L, 5_000_000L);

    int applied = ledger.markSent(List.of(a.messageHash(), b.messageHash(), settled.messageHash(), hash("unknown")));

    assertThat(applied).isEqualTo(2);
    assertThat(ledger.findByMessageHash(settled.messageHash()).orElseThrow().status())
        .isEqualTo(LedgerStatus.CONFIRMED);
  }

  @Test
  void shouldConfirmOnceAndTreatARepeatAsANoOp() {
    Intent intent = intent("req-1", "t-1", 1, WALLET, 7, "m1");
    ledger.recordIntent(intent);
    ledger.markSent(intent.messageHash());
    clock.advance(Duration.ofSeconds(3));

    assertThat(ledger.markConfirmed(intent.messageHash(), hash("tx-1"), 4242L, 1_767_268_803L, 2_500_000L))
        .isTrue();
    Instant confirmedAt = clock.instant();
    clock.advance(Duration.ofSeconds(1));
    assertThat(ledger.markConfirmed(intent.messageHash(), hash("tx-1"), 4242L, 1_767_268_803L, 2_500_000L))
        .isFalse();

    LedgerRow row = ledger.findByMessageHash(intent.messageHash()).orElseThrow();
    assertThat(row.status()).isEqualTo(LedgerStatus.CONFIRMED);
    assertThat(row.txHash()).isEqualTo(hash("tx-1"));
    assertThat(row.lt()).isEqualTo(4242L);
    assertThat(row.utime()).isEqualTo(1_767_268_803L);
    assertThat(row.feeNano()).isEqualTo(2_500_000L);
    assertThat(row.settledAt()).isEqualTo(confirmedAt);
    assertThat(row.updatedAt()).isEqualTo(confirmedAt);
  }

  @Test
  void shouldRefuseEveryOtherVerdictOnAConfirmedMessage() {
    Intent intent = intent("req-1", "t-1", 1, WALLET, 7, "m1");
    ledger.recordIntent(intent);
    ledger.markConfirmed(intent.messageHash(), hash("tx-1"), 1L, null, null);
    clock.advance(TTL.plusSeconds(5));

    assertThat(ledger.markSent(intent.messageHash())).isFalse();
    assertThat(ledger.markFailed(intent.messageHash(), "bounced")).isFalse();
    assertThat(ledger.markExpired(intent.messageHash())).isFalse();
    assertThat(ledger.markReconciliationRequired(intent.messageHash(), "seqno moved")).isFalse();
    assertThatThrownBy(() -> ledger.markConfirmed(intent.messageHash(), hash("tx-2"), 2L, null, null))
        .isInstanceOf(LedgerConflictException.class)
        .hasMessageContaining("CONFIRMED");

    LedgerRow row = ledger.findByMessageHash(intent.messageHash()).orElseThrow();
    assertThat(row.status()).isEqualTo(LedgerStatus.CONFIRMED);
    assertThat(row.txHash()).isEqualTo(hash("tx-1"));
    assertThat(row.utime()).isNull();
  }

  @Test
  void shouldNeverConfirmAnExpiredMessage() {
    Intent intent = intent("req-1", "t-1", 1, WALLET, 7, "m1");
    ledger.recordIntent(intent);
    clock.advance(TTL.plusSeconds(1));
    ledger.markExpired(intent.messageHash());

    assertThatThrownBy(() -> ledger.markConfirmed(intent.messageHash(), hash("tx-1"), 1L, null, null))
        .isInstanceOfSatisfying(
            LedgerConflictException.class,
            e -> assertThat(e.current().status()).isEqualTo(LedgerStatus.EXPIRED))
        .hasMessageContaining("EXPIRED");
    assertThat(ledger.findByMessageHash(intent.messageHash()).orElseThrow().status())
        .isEqualTo(LedgerStatus.EXPIRED);
  }

  @Test
  void shouldNotExpireAMessageBeforeItsValidUntil() {
    Intent intent = intent("req-1", "t-1", 1, WALLET, 7, "m1");
    ledger.recordIntent(intent);
    clock.advance(TTL);

    assertThat(ledger.markExpired(intent.messageHash())).isFalse();
    assertThat(ledger.findCurrentAttempt("req-1", "t-1").orElseThrow().status()).isEqualTo(LedgerStatus.SIGNED);

    clock.advance(Duration.ofSeconds(1));
    assertThat(ledger.markExpired(intent.messageHash())).isTrue();
    assertThat(ledger.markExpired(intent.messageHash())).isFalse();
    assertThat(ledger.findCurrentAttempt("req-1", "t-1")).isEmpty();
  }

  @Test
  void shouldFailAndFlagReconciliationOnlyFromLiveStatuses() {
    Intent failing = intent("req-1", "t-1", 1, WALLET, 1, "f");
    Intent ambiguous = intent("req-2", "t-1", 1, WALLET, 2, "r");
    ledger.recordIntents(List.of(failing, ambiguous));
    ledger.markSent(ambiguous.messageHash());

    assertThat(ledger.markFailed(failing.messageHash(), "skipped send", hash("tx-f"), 10L, 1_767_268_900L, 1_000L))
        .isTrue();
    assertThat(ledger.markFailed(failing.messageHash(), "skipped send")).isFalse();
    assertThat(ledger.markReconciliationRequired(ambiguous.messageHash(), "seqno moved, no match")).isTrue();
    assertThat(ledger.markReconciliationRequired(ambiguous.messageHash(), "again")).isFalse();
    assertThat(ledger.markFailed(ambiguous.messageHash(), "late")).isFalse();
    assertThatThrownBy(() -> ledger.markConfirmed(ambiguous.messageHash(), hash("tx-r"), 1L, null, null))
        .isInstanceOf(LedgerConflictException.class);

    LedgerRow failed = ledger.findByMessageHash(failing.messageHash()).orElseThrow();
    assertThat(failed.status()).isEqualTo(LedgerStatus.FAILED);
    assertThat(failed.lastError()).isEqualTo("skipped send");
    assertThat(failed.txHash()).isEqualTo(hash("tx-f"));
    assertThat(failed.settledAt()).isEqualTo(START);
    LedgerRow flagged = ledger.findByMessageHash(ambiguous.messageHash()).orElseThrow();
    assertThat(flagged.status()).isEqualTo(LedgerStatus.RECONCILIATION_REQUIRED);
    assertThat(flagged.lastError()).isEqualTo("seqno moved, no match");
  }

  @Test
  void shouldReportUnknownMessagesAsNotApplied() {
    String unknown = hash("never-signed");

    assertThat(ledger.markSent(unknown)).isFalse();
    assertThat(ledger.markConfirmed(unknown, hash("tx"), 1L, null, null)).isFalse();
    assertThat(ledger.markFailed(unknown, "x")).isFalse();
    assertThat(ledger.markExpired(unknown)).isFalse();
    assertThat(ledger.markReconciliationRequired(unknown, "x")).isFalse();
    assertThat(ledger.recordError(unknown, "x")).isFalse();
    assertThat(ledger.findByMessageHash(unknown)).isEmpty();
  }

  @Test
  void shouldRecordSendErrorsWithoutChangingTheStatus() {
    Intent intent = intent("req-1", "t-1", 1, WALLET, 7, "m1");
    ledger.recordIntent(intent);

    assertThat(ledger.recordError(intent.messageHash(), "HttpTimeoutException: request timed out")).isTrue();
    assertThat(ledger.recordError(intent.messageHash(), "HTTP 502")).isTrue();

    LedgerRow row = ledger.findByMessageHash(intent.messageHash()).orElseThrow();
    assertThat(row.status()).isEqualTo(LedgerStatus.SIGNED);
    assertThat(row.errorCount()).isEqualTo(2);
    assertThat(row.lastError()).isEqualTo("HTTP 502");
  }

  // --- the table's own guards -------------------------------------------------------------------

  @Test
  void shouldNeverHoldTwoConfirmedRowsForOneWalletAndSeqno() throws SQLException {
    Intent old = intent("req-1", "t-1", 1, WALLET, 7, "old");
    ledger.recordIntent(old);
    clock.advance(TTL.plusSeconds(1));
    ledger.markExpired(old.messageHash());
    Intent retry = intent("req-1", "t-1", 2, WALLET, 7, "retry");
    ledger.recordIntent(retry);
    ledger.markConfirmed(retry.messageHash(), hash("tx-retry"), 7L, null, null);

    // Through the API: refused.
    assertThatThrownBy(() -> ledger.markConfirmed(old.messageHash(), hash("tx-old"), 8L, null, null))
        .isInstanceOf(LedgerConflictException.class);
    // Behind the API's back: the trigger refuses to revive an EXPIRED row...
    assertThatThrownBy(
            () -> execute("update ton_transactions set status = 'CONFIRMED', tx_hash = '" + hash("tx-old")
                + "', lt = 8 where message_hash = '" + old.messageHash() + "'"))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("illegal status change EXPIRED -> CONFIRMED");
    // ...and the unique index refuses a second CONFIRMED row for (wallet, seqno) however it comes.
    assertThatThrownBy(
            () -> execute("insert into ton_transactions (request_id, transfer_id, transfer_index, attempt,"
                + " subwallet_id, wallet_address, destination, amount_nano, seqno, message_hash, boc,"
                + " valid_until, status, tx_hash, lt, created_at, updated_at) values ('req-9', 't-1', 0, 1,"
                + " 1, '" + WALLET + "', '" + DESTINATION + "', 1, 7, '" + hash("forged") + "', 'te6', now(),"
                + " 'CONFIRMED', '" + hash("tx-forged") + "', 9, now(), now())"))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("ton_transactions_live_wallet_seqno");
    assertThat(queryLong("select count(*) from ton_transactions where status = 'CONFIRMED' and seqno = 7"))
        .isEqualTo(1);
  }

  @Test
  void shouldRefuseBackwardTransitionsEvenInHandWrittenSql() {
    Intent intent = intent("req-1", "t-1", 1, WALLET, 7, "m1");
    ledger.recordIntent(intent);
    ledger.markConfirmed(intent.messageHash(), hash("tx-1"), 1L, null, null);

    assertThatThrownBy(
            () -> execute("update ton_transactions set status = 'SENT' where message_hash = '"
                + intent.messageHash() + "'"))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("illegal status change CONFIRMED -> SENT");
  }

  @Test
  void shouldRefuseAConfirmedRowWithoutItsTransaction() {
    Intent intent = intent("req-1", "t-1", 1, WALLET, 7, "m1");
    ledger.recordIntent(intent);

    assertThatThrownBy(
            () -> execute("update ton_transactions set status = 'CONFIRMED' where message_hash = '"
                + intent.messageHash() + "'"))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("ton_transactions_confirmed_has_tx");
  }

  // --- queries ----------------------------------------------------------------------------------

  @Test
  void shouldTellTheHighestConfirmedAndAppliedSeqnoOfAWallet() {
    assertThat(ledger.highestConfirmedSeqno(WALLET)).isEmpty();
    assertThat(ledger.highestAppliedSeqno(WALLET)).isEmpty();
    Intent confirmed = intent("req-1", "t-1", 1, WALLET, 5, "c5");
    Intent failed = intent("req-2", "t-1", 1, WALLET, 6, "f6");
    Intent inFlight = intent("req-3", "t-1", 1, WALLET, 7, "s7");
    Intent elsewhere = intent("req-4", "t-1", 1, OTHER_WALLET, 40, "o40");
    ledger.recordIntents(List.of(confirmed, failed, inFlight, elsewhere));
    ledger.markConfirmed(confirmed.messageHash(), hash("tx5"), 5L, null, null);
    ledger.markFailed(failed.messageHash(), "skipped send");
    ledger.markSent(inFlight.messageHash());
    ledger.markConfirmed(elsewhere.messageHash(), hash("tx40"), 40L, null, null);

    assertThat(ledger.highestConfirmedSeqno(WALLET)).contains(5L);
    assertThat(ledger.highestAppliedSeqno(WALLET)).contains(6L);
    assertThat(ledger.highestAppliedSeqno(TonAddress.parse(WALLET).toFriendly(false, true))).contains(6L);
  }

  @Test
  void shouldListUnsettledMessagesByWalletAndSeqno() {
    Intent signed = intent("req-1", "t-1", 1, WALLET, 2, "signed");
    Intent sent = intent("req-2", "t-1", 1, WALLET, 1, "sent");
    Intent done = intent("req-3", "t-1", 1, OTHER_WALLET, 1, "done");
    ledger.recordIntents(List.of(signed, sent, done));
    ledger.markSent(sent.messageHash());
    ledger.markConfirmed(done.messageHash(), hash("tx"), 1L, null, null);

    assertThat(ledger.unsettled())
        .extracting(LedgerRow::messageHash)
        .containsExactly(sent.messageHash(), signed.messageHash());
  }

  @Test
  void shouldAuditSeqnoMismatches() {
    ledger.recordSeqnoMismatch(698983191L, WALLET, 8, 11, "seqno read before request req-9 transfer t-1");

    assertThat(ledger.seqnoMismatches(WALLET))
        .singleElement()
        .satisfies(
            m -> {
              assertThat(m.subwalletId()).isEqualTo(698983191L);
              assertThat(m.walletAddress()).isEqualTo(WALLET);
              assertThat(m.expectedSeqno()).isEqualTo(8L);
              assertThat(m.observedSeqno()).isEqualTo(11L);
              assertThat(m.detail()).contains("req-9");
              assertThat(m.at()).isEqualTo(START);
            });
    assertThat(ledger.seqnoMismatches(OTHER_WALLET)).isEmpty();
  }

  // --- values -----------------------------------------------------------------------------------

  @Test
  void shouldKeepTheBocOutOfToString() {
    Intent intent = intent("req-1", "t-1", 1, WALLET, 7, "m1");
    LedgerRow row = ledger.recordIntent(intent).row();

    assertThat(intent.toString()).doesNotContain(intent.boc()).contains(intent.messageHash());
    assertThat(row.toString()).doesNotContain(intent.boc()).contains(intent.messageHash());
  }

  @Test
  void shouldRefuseMalformedIntents() {
    assertThatThrownBy(() -> intentWithHash("not-hex"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("messageHash");
    assertThatThrownBy(() -> intent("req-1", "t-1", 0, WALLET, 7, "m1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("attempt");
    assertThatThrownBy(() -> intent("req-1", "t-1", 1, WALLET, 1L << 32, "m1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("seqno");
    assertThat(intentWithHash(hash("x").toUpperCase()).messageHash()).isEqualTo(hash("x"));
  }

  @Test
  void shouldMapSettledStatusesToTheChainPollersVerdicts() {
    assertThat(LedgerStatus.CONFIRMED.asConfirmationStatus()).isEqualTo(ConfirmationStatus.CONFIRMED);
    assertThat(LedgerStatus.FAILED.asConfirmationStatus()).isEqualTo(ConfirmationStatus.FAILED);
    assertThat(LedgerStatus.EXPIRED.asConfirmationStatus()).isEqualTo(ConfirmationStatus.EXPIRED);
    assertThat(LedgerStatus.RECONCILIATION_REQUIRED.asConfirmationStatus())
        .isEqualTo(ConfirmationStatus.RECONCILIATION_REQUIRED);
    assertThatThrownBy(LedgerStatus.SENT::asConfirmationStatus).isInstanceOf(IllegalStateException.class);
    assertThat(LedgerStatus.SIGNED.isLive()).isTrue();
    assertThat(LedgerStatus.SENT.isLive()).isTrue();
    assertThat(LedgerStatus.RECONCILIATION_REQUIRED.isLive()).isFalse();
  }

  // --- helpers ----------------------------------------------------------------------------------

  private Intent intent(String request, String transfer, int attempt, String wallet, long seqno, String seed) {
    return new Intent(
        request, transfer, 0, attempt, 698983191L, wallet, DESTINATION, 1_500_000_000L, seqno,
        hash(seed), hash("normalized-" + seed), "te6cckEBAQEA" + seed, clock.instant().plus(TTL));
  }

  private Intent intentWithHash(String messageHash) {
    return new Intent(
        "req-1", "t-1", 0, 1, 698983191L, WALLET, DESTINATION, 1L, 1L, messageHash, null, "te6",
        START);
  }

  private static String hash(String seed) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(seed.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String rawAddress(String seed) {
    return "0:" + hash(seed);
  }

  private static void execute(String sql) throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  private static long queryLong(String sql) throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
