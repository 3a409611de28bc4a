package org.tonpayouts.poller;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ton.ton4j.cell.CellBuilder;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.ConfirmationStatus;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.ChainMessage;
import org.tonpayouts.ton.api.ChainTransaction;
import org.tonpayouts.ton.api.TransactionId;
import org.tonpayouts.ton.api.WalletSnapshot;
import org.tonpayouts.ton.cell.TonCell;

/**
 * The verdict rules on hand-made observations, for chain shapes devnet cannot produce with our
 * signer (aborted transactions, normalized-hash reporting, ambiguous payouts, truncated or
 * lagging scans) and for the exact sequences that decide whether a transfer can be paid twice.
 */
class WalletRoundTest {
  private static final Instant SUBMITTED = Instant.parse("2026-05-01T12:00:00Z");
  private static final Duration SKEW = Duration.ofSeconds(10);
  private static final PollerSettings SETTINGS = new PollerSettings(Duration.ofMillis(100), SKEW,
      Duration.ofSeconds(1), 10, Duration.ofMinutes(10), 32, 4, Duration.ofSeconds(30), Duration.ZERO,
      Duration.ofSeconds(2));
  private static final TonAddress WALLET = TonAddress.of(0, bytes(0x11));
  private static final TonAddress BOB = TonAddress.of(0, bytes(0xb0));
  private static final String OLD_HASH = "a0".repeat(32);
  private static final String HASH = "aa".repeat(32);
  private static final String NORMALIZED = "bb".repeat(32);
  private static final long SEQNO = 5;
  private static final long VALID_UNTIL = SUBMITTED.getEpochSecond() + 60;
  private static final Instant BEFORE_EXPIRY = SUBMITTED.plusSeconds(5);
  private static final Instant AFTER_EXPIRY = Instant.ofEpochSecond(VALID_UNTIL).plus(SKEW);
  private static final TransactionId CURSOR = new TransactionId(100, "cc".repeat(32));

  private static WatchedWallet walletWith(WatchedTransfer t) {
    return new WatchedWallet(7, WALLET.toRaw(), List.of(t), CURSOR, List.of(), List.of());
  }

  /** The transfer's second attempt: both messages carry seqno 5. */
  private static WatchedTransfer transfer() {
    return new WatchedTransfer("r", "r-t0", SEQNO, List.of(OLD_HASH, HASH), List.of(NORMALIZED), VALID_UNTIL,
        BOB.toRaw(), 1_000, false, SUBMITTED, true, null, false);
  }

  /** The transfer whose window this round's scan reaches back to. */
  private static WatchedTransfer rescanning() {
    return transfer().withWindowScanned(false);
  }

  private static WatchedTransfer bounceable() {
    return new WatchedTransfer("r", "r-t0", SEQNO, List.of(HASH), List.of(NORMALIZED), VALID_UNTIL, BOB.toRaw(), 1_000,
        true, SUBMITTED, true, null, false);
  }

  /** A transaction of the wallet applying external message {@code inHash} that carries the transfer's seqno. */
  private static ChainTransaction tx(long lt, String inHash, List<ChainMessage> outs) {
    return tx(lt, inHash, SEQNO, outs);
  }

  private static ChainTransaction tx(long lt, String inHash, long seqno, List<ChainMessage> outs) {
    ChainMessage in = new ChainMessage(inHash, null, WALLET, 0, 0, 0, 0, "dd".repeat(32), null, walletBody(seqno),
        null);
    return new ChainTransaction(WALLET, new TransactionId(lt, String.format("%064x", lt)),
        SUBMITTED.getEpochSecond() + 1, 1_500_000, 0, 1_500_000, in, outs, "");
  }

  /** A WalletV4R2 external body (signature, subwallet_id, valid_until, seqno, op), as a base64 BOC. */
  private static String walletBody(long seqno) {
    return TonCell.builder().storeBytes(new byte[64]).storeUint(698983191L, 32).storeUint(VALID_UNTIL, 32)
        .storeUint(seqno, 32).storeUint(0, 8).endCell().toBase64();
  }

  private static ChainMessage payout(TonAddress to, long value) {
    return new ChainMessage("ee".repeat(32), WALLET, to, value, 400_000, 0, 1, "ff".repeat(32), null, null, null);
  }

  /** A payout with a text comment, as getTransactions reports it ({@code msg.dataText}: no body BOC). */
  private static ChainMessage payout(TonAddress to, long value, String comment) {
    return new ChainMessage("ee".repeat(32), WALLET, to, value, 400_000, 0, 1, "ff".repeat(32), comment, null, null);
  }

  /** A bounce from BOB of {@code value} returning a body that started with {@code comment}. */
  private static ChainMessage bounce(String hashByte, long value, String comment) {
    org.tonpayouts.ton.cell.CellReader original = org.tonpayouts.ton.wallet.TextComment.encode(comment).parse();
    int bits = Math.min(256, original.remainingBits());
    String body = TonCell.builder().storeUint(0xFFFF_FFFFL, 32).storeBits(original.loadBits(bits), 0, bits).endCell()
        .toBase64();
    return new ChainMessage(hashByte.repeat(32), BOB, WALLET, value, 0, 0, 3, null, null, body, null);
  }

  /** The state a node answers with: seqno, last transaction and its own time. */
  private static WalletSnapshot state(long seqno, long lastTxLt, long nodeTime) {
    return new WalletSnapshot("active", 5_000_000_000L, seqno, 698983191L,
        new TransactionId(lastTxLt, String.format("%064x", lastTxLt)), nodeTime);
  }

  private static WalletObservation seen(WalletSnapshot state, boolean complete, ChainTransaction... txs) {
    return new WalletObservation(List.of(txs), complete, state);
  }

  private static Confirmation only(WalletRound.Result r) {
    assertThat(r.verdicts()).hasSize(1);
    return r.verdicts().get(0).confirmation();
  }

  // --- rule 1: one of the transfer's messages is on chain ----------------------------------------

  @Test
  void shouldConfirmTheTransferWhenAnOlderAttemptApplied() {
    WalletRound.Result r = WalletRound.apply(walletWith(transfer()),
        seen(null, true, tx(200, OLD_HASH, List.of(payout(BOB, 1_000)))), BEFORE_EXPIRY, SETTINGS);

    Confirmation c = only(r);
    assertThat(c.status()).isEqualTo(ConfirmationStatus.CONFIRMED);
    assertThat(c.messageHash()).as("the hash that applied, not the newest").isEqualTo(OLD_HASH);
    assertThat(c.lt()).isEqualTo(200);
    assertThat(r.wallet().pending()).isEmpty();
    assertThat(r.wallet().resolvedFor(HASH)).as("any hash of the transfer finds its verdict").isPresent();
    assertThat(r.wallet().cursor().lt()).isEqualTo(200);
  }

  @Test
  void shouldMatchTheNormalizedHashAsWell() {
    Confirmation c = only(WalletRound.apply(walletWith(transfer()),
        seen(null, true, tx(200, NORMALIZED, List.of(payout(BOB, 1_000)))), BEFORE_EXPIRY, SETTINGS));

    assertThat(c.status()).isEqualTo(ConfirmationStatus.CONFIRMED);
    assertThat(c.messageHash()).isEqualTo(HASH);
  }

  @Test
  void shouldConfirmAMessageThatAbortedOnceAndThenApplied() {
    Confirmation c = only(WalletRound.apply(walletWith(transfer()),
        seen(null, true, tx(200, HASH, List.of()), tx(300, HASH, List.of(payout(BOB, 1_000)))), BEFORE_EXPIRY,
        SETTINGS));

    assertThat(c.status()).isEqualTo(ConfirmationStatus.CONFIRMED);
    assertThat(c.lt()).isEqualTo(300);
  }

  @Test
  void shouldCallASendlessTransactionFailedOnlyOnAStateThatHasSeenIt() {
    WalletRound.Result noState = WalletRound.apply(walletWith(transfer()), seen(null, true, tx(200, HASH, List.of())),
        BEFORE_EXPIRY, SETTINGS);
    assertThat(noState.verdicts()).isEmpty();
    WatchedWallet waiting = noState.wallet();
    assertThat(waiting.needsStateRead(BEFORE_EXPIRY, SKEW)).as("next round reads the state first").isTrue();

    WalletRound.Result olderState = WalletRound.apply(waiting, seen(state(6, 150, 1), true), BEFORE_EXPIRY, SETTINGS);
    assertThat(olderState.verdicts()).as("a state older than the transaction proves nothing").isEmpty();

    Confirmation c = only(WalletRound.apply(waiting, seen(state(6, 200, VALID_UNTIL - 30), true), BEFORE_EXPIRY,
        SETTINGS));
    assertThat(c.status()).isEqualTo(ConfirmationStatus.FAILED);
    assertThat(c.txHash()).isEqualTo(String.format("%064x", 200));
    assertThat(c.reason()).contains("skipped");
  }

  @Test
  void shouldKeepWatchingAnAbortedTransactionAndExpireItOnlyByTheNodesTime() {
    WalletRound.Result aborted = WalletRound.apply(walletWith(transfer()),
        seen(state(SEQNO, 200, VALID_UNTIL - 30), true, tx(200, HASH, List.of())), BEFORE_EXPIRY, SETTINGS);
    assertThat(aborted.verdicts()).as("seqno kept: the message may still apply").isEmpty();
    assertThat(aborted.wallet().pending()).singleElement()
        .satisfies(t -> assertThat(t.appliedWithoutSend()).isNull());

    Confirmation c = only(WalletRound.apply(aborted.wallet(), seen(state(SEQNO, 200, VALID_UNTIL + 10), true),
        AFTER_EXPIRY, SETTINGS));
    assertThat(c.status()).isEqualTo(ConfirmationStatus.EXPIRED);
    assertThat(c.evidenceUtime()).isEqualTo(VALID_UNTIL + 10);
  }

  // --- rule 2: expiry by the node's own time -----------------------------------------------------

  @Test
  void shouldNeverExpireOnALaggingNodesStateHoweverLateOurClockIs() {
    // The double payout this project once had: the poller's node lags 220 blocks (88 s). Its state
    // still shows seqno 5 and its own time is before valid_until, while our clock is long past it.
    Instant muchLater = AFTER_EXPIRY.plusSeconds(600);
    WalletSnapshot lagging = state(SEQNO, 90, VALID_UNTIL - 28);

    WalletRound.Result r = WalletRound.apply(walletWith(transfer()), seen(lagging, true), muchLater, SETTINGS);

    assertThat(r.verdicts()).isEmpty();
    assertThat(r.wallet().pending()).hasSize(1);
  }

  @Test
  void shouldExpireOnlyOnceTheNodesTimePassedValidUntilPlusTheMargin() {
    assertThat(WalletRound.apply(walletWith(transfer()), seen(state(SEQNO, 100, VALID_UNTIL + 9), true), AFTER_EXPIRY,
        SETTINGS).verdicts()).as("one second short of the margin").isEmpty();

    Confirmation c = only(WalletRound.apply(walletWith(transfer()), seen(state(SEQNO, 100, VALID_UNTIL + 10), true),
        AFTER_EXPIRY, SETTINGS));
    assertThat(c.status()).isEqualTo(ConfirmationStatus.EXPIRED);
    assertThat(c.messageHash()).as("the newest attempt").isEqualTo(HASH);
    assertThat(c.evidenceUtime()).isEqualTo(VALID_UNTIL + 10);
    assertThat(c.reason()).contains("node time");
  }

  @Test
  void shouldReadTheStateOnlyWhenOurClockSaysTheNodeMayBePastExpiry() {
    WatchedWallet wallet = walletWith(transfer());

    assertThat(wallet.needsStateRead(BEFORE_EXPIRY, SKEW)).isFalse();
    assertThat(wallet.needsStateRead(AFTER_EXPIRY.minusSeconds(1), SKEW)).isFalse();
    assertThat(wallet.needsStateRead(AFTER_EXPIRY, SKEW)).isTrue();
  }

  @Test
  void shouldKeepWaitingWhenTheStateReadFailed() {
    WalletRound.Result r = WalletRound.apply(walletWith(transfer()), seen(null, true), AFTER_EXPIRY, SETTINGS);

    assertThat(r.verdicts()).isEmpty();
    assertThat(r.wallet().pending()).hasSize(1);
  }

  // --- rule 3: the seqno moved past the transfer's -------------------------------------------------

  @Test
  void shouldWaitWhenTheScanHasNotReachedTheStatesLastTransaction() {
    // The state comes from an up-to-date node, the scan from a lagging one: our transaction may be
    // the one the scan has not reached yet.
    WalletRound.Result r = WalletRound.apply(walletWith(transfer()), seen(state(SEQNO + 1, 400, VALID_UNTIL + 20), true,
        tx(300, "01".repeat(32), List.of())), AFTER_EXPIRY, SETTINGS);

    assertThat(r.verdicts()).isEmpty();
    assertThat(r.wallet().pending()).singleElement().satisfies(t -> assertThat(t.windowScanned()).isFalse());
  }

  @Test
  void shouldRescanBackToTheFirstSubmissionBeforeConcludingThatTheSeqnoWasUsedByAnother() {
    WalletObservation sincePreviousCursor = seen(state(SEQNO + 1, 300, VALID_UNTIL + 20), true,
        tx(300, "01".repeat(32), List.of(payout(BOB, 1_000))));

    WalletRound.Result r = WalletRound.apply(walletWith(transfer()), sincePreviousCursor, AFTER_EXPIRY, SETTINGS);

    assertThat(r.verdicts()).as("this scan started at the cursor, not at the submission").isEmpty();
    assertThat(r.wallet().windowStart(SKEW)).contains(SUBMITTED.getEpochSecond() - SKEW.toSeconds());
  }

  @Test
  void shouldRecoverTheTransferFromTheOnlyPayoutWithItsDestinationAndAmount() {
    Confirmation c = only(WalletRound.apply(walletWith(rescanning()), seen(state(SEQNO + 1, 300, VALID_UNTIL + 20), true,
        tx(300, "01".repeat(32), List.of(payout(BOB, 1_000)))), AFTER_EXPIRY, SETTINGS));

    assertThat(c.status()).isEqualTo(ConfirmationStatus.CONFIRMED);
    assertThat(c.lt()).isEqualTo(300);
    assertThat(c.messageHash()).as("the message that applied, not one of ours that did not").isEqualTo("01".repeat(32));
    assertThat(c.reason()).contains("recovered by destination and amount");
  }

  @Test
  void shouldNameTheAttemptThatAppliedWhenAReCheckKnewOnlyAnOlderOne() {
    // a re-check of attempt 1 (OLD_HASH only), overtaken by attempt 2 (HASH, same seqno) which applied
    WatchedTransfer recheck = new WatchedTransfer("r", "r-t0", SEQNO, List.of(OLD_HASH), List.of(), VALID_UNTIL,
        BOB.toRaw(), 1_000, false, SUBMITTED, true, null, false).withWindowScanned(false);

    Confirmation c = only(WalletRound.apply(walletWith(recheck), seen(state(SEQNO + 1, 300, VALID_UNTIL + 20), true,
        tx(300, HASH, List.of(payout(BOB, 1_000)))), AFTER_EXPIRY, SETTINGS));

    assertThat(c.status()).isEqualTo(ConfirmationStatus.CONFIRMED);
    assertThat(c.messageHash()).isEqualTo(HASH);
    assertThat(c.txHash()).isEqualTo(String.format("%064x", 300));
  }

  @Test
  void shouldRequireReconciliationWhenTwoPayoutsOfTheSeqnoMatchDestinationAndAmount() {
    Confirmation c = only(WalletRound.apply(walletWith(rescanning()), seen(state(SEQNO + 1, 300, VALID_UNTIL + 20), true,
        tx(300, "01".repeat(32), List.of(payout(BOB, 1_000), payout(BOB, 1_000)))), AFTER_EXPIRY, SETTINGS));

    assertThat(c.status()).isEqualTo(ConfirmationStatus.RECONCILIATION_REQUIRED);
    assertThat(c.reason()).contains("2 outgoing messages");
  }

  @Test
  void shouldNeverRecoverTheTransferFromAPayoutOfAnotherSeqno() {
    // the earlier payout of seqno 4 pays BOB the amount too; seqno 5 was taken by a payment to someone else
    Confirmation c = only(WalletRound.apply(walletWith(rescanning()), seen(state(SEQNO + 1, 300, VALID_UNTIL + 20), true,
        tx(200, "01".repeat(32), SEQNO - 1, List.of(payout(BOB, 1_000))),
        tx(300, "02".repeat(32), SEQNO, List.of(payout(TonAddress.of(0, bytes(0x77)), 1_000)))), AFTER_EXPIRY,
        SETTINGS));

    assertThat(c.status()).isEqualTo(ConfirmationStatus.RECONCILIATION_REQUIRED);
    assertThat(c.txHash()).isNull();
    assertThat(c.reason()).contains("0 outgoing messages of the transaction that took seqno " + SEQNO);
  }

  @Test
  void shouldNeverRecoverTheTransferFromATransactionWithoutItsSeqnoOrCarryingAnotherTransfersHash() {
    WatchedTransfer other = new WatchedTransfer("r2", "r2-t0", SEQNO + 1, List.of("0e".repeat(32)), List.of(),
        VALID_UNTIL, BOB.toRaw(), 1_000, false, SUBMITTED, true, null, false);
    WatchedWallet wallet = new WatchedWallet(7, WALLET.toRaw(), List.of(rescanning(), other), CURSOR, List.of(),
        List.of());
    ChainMessage bodiless = new ChainMessage("01".repeat(32), null, WALLET, 0, 0, 0, 0, "dd".repeat(32), null, null,
        null);
    ChainTransaction unreadable = new ChainTransaction(WALLET, new TransactionId(200, String.format("%064x", 200)),
        SUBMITTED.getEpochSecond() + 1, 1_500_000, 0, 1_500_000, bodiless, List.of(payout(BOB, 1_000)), "");

    // which transaction took the seqno is unknown from a bodiless answer; the other one is another transfer's
    WalletRound.Result r = WalletRound.apply(wallet, seen(state(SEQNO + 2, 300, VALID_UNTIL + 20), true, unreadable,
        tx(300, "0e".repeat(32), SEQNO, List.of(payout(BOB, 1_000)))), AFTER_EXPIRY, SETTINGS,
        java.util.Set.of(WalletRound.key(rescanning())));

    assertThat(only(r).status()).isEqualTo(ConfirmationStatus.RECONCILIATION_REQUIRED);
  }

  @Test
  void shouldRequireReconciliationWhenSomeoneElseUsedTheSeqno() {
    Confirmation c = only(WalletRound.apply(walletWith(rescanning()), seen(state(SEQNO + 1, 300, VALID_UNTIL + 20), true,
        tx(300, "01".repeat(32), List.of(payout(TonAddress.of(0, bytes(0x77)), 5)))), AFTER_EXPIRY, SETTINGS));

    assertThat(c.status()).isEqualTo(ConfirmationStatus.RECONCILIATION_REQUIRED);
    assertThat(c.reason()).contains("0 outgoing messages", OLD_HASH, HASH);
  }

  @Test
  void shouldNotConcludeFromATruncatedScan() {
    WalletRound.Result r = WalletRound.apply(walletWith(transfer()),
        seen(state(SEQNO + 1, 900, VALID_UNTIL + 20), false, tx(900, "01".repeat(32), List.of())), AFTER_EXPIRY,
        SETTINGS);

    assertThat(r.verdicts()).isEmpty();
    assertThat(r.wallet().pending()).singleElement().satisfies(t -> assertThat(t.windowScanned()).isFalse());
    assertThat(r.wallet().windowStart(SKEW)).as("the next scan reaches back to the submission")
        .contains(SUBMITTED.getEpochSecond() - SKEW.toSeconds());
  }

  // --- bounces and memory -----------------------------------------------------------------------

  @Test
  void shouldReportABounceFromTheDestinationAfterABounceablePayout() {
    WalletRound.Result confirmed = WalletRound.apply(walletWith(bounceable()),
        seen(null, true, tx(200, HASH, List.of(payout(BOB, 1_000)))), BEFORE_EXPIRY, SETTINGS);
    assertThat(only(confirmed).status()).isEqualTo(ConfirmationStatus.CONFIRMED);
    assertThat(confirmed.wallet().needsPolling()).as("watched for a bounce").isTrue();

    ChainMessage unrelated = new ChainMessage("12".repeat(32), BOB, WALLET, 300, 0, 0, 2, null, null, comment("hi"),
        null);
    ChainMessage bounce = new ChainMessage("34".repeat(32), BOB, WALLET, 600, 0, 0, 3, null, null, bouncedBody(), null);
    WalletRound.Result later = WalletRound.apply(confirmed.wallet(), seen(null, true,
        incoming(250, unrelated), incoming(260, bounce)), BEFORE_EXPIRY.plusSeconds(1), SETTINGS);

    Confirmation c = only(later);
    assertThat(c.status()).isEqualTo(ConfirmationStatus.BOUNCED);
    assertThat(c.messageHash()).isEqualTo(HASH);
    assertThat(c.lt()).isEqualTo(260);
    assertThat(c.returnedNano()).isEqualTo(600);
    assertThat(later.wallet().bounceWatches()).isEmpty();
  }

  /** Two bounceable payouts of the transfer's amount to BOB with comment "refund", confirmed at lt 200 and 210. */
  private static WatchedWallet watchingTwoPayouts() {
    WatchedTransfer second = new WatchedTransfer("r2", "r2-t0", SEQNO + 1, List.of("0f".repeat(32)), List.of(),
        VALID_UNTIL, BOB.toRaw(), 1_000, true, SUBMITTED, true, null, false);
    WatchedWallet both = new WatchedWallet(7, WALLET.toRaw(), List.of(bounceable(), second), CURSOR, List.of(),
        List.of());
    WalletRound.Result confirmed = WalletRound.apply(both, seen(null, true,
        tx(200, HASH, SEQNO, List.of(payout(BOB, 1_000, "refund"))),
        tx(210, "0f".repeat(32), SEQNO + 1, List.of(payout(BOB, 1_000, "refund")))), BEFORE_EXPIRY, SETTINGS);
    assertThat(confirmed.verdicts()).extracting(v -> v.confirmation().status())
        .containsExactly(ConfirmationStatus.CONFIRMED, ConfirmationStatus.CONFIRMED);
    return confirmed.wallet();
  }

  @Test
  void shouldCreditABounceSeenAgainInALaterRoundToNoOtherPayout() {
    WatchedWallet watching = watchingTwoPayouts();
    ChainTransaction first = incoming(260, bounce("34", 900, "refund"));

    WalletRound.Result one = WalletRound.apply(watching, seen(null, true, first), BEFORE_EXPIRY, SETTINGS);
    // the feed serves the same bounce again a round later, after the second payout: still the first's
    WalletRound.Result again = WalletRound.apply(one.wallet(), seen(null, true, first), BEFORE_EXPIRY.plusSeconds(1),
        SETTINGS);
    WalletRound.Result second = WalletRound.apply(again.wallet(), seen(null, true, first,
        incoming(270, bounce("35", 900, "refund"))), BEFORE_EXPIRY.plusSeconds(2), SETTINGS);

    assertThat(only(one).requestId()).isEqualTo("r");
    assertThat(again.verdicts()).isEmpty();
    assertThat(only(second)).satisfies(c -> {
      assertThat(c.requestId()).isEqualTo("r2");
      assertThat(c.lt()).isEqualTo(270);
    });
    assertThat(second.wallet().creditedBounces()).extracting(CreditedBounce::txHash)
        .containsExactly(String.format("%064x", 260), String.format("%064x", 270));
  }

  @Test
  void shouldCreditNoBounceThatReturnsMoreThanThePayoutOrAnotherBody() {
    WatchedWallet watching = watchingTwoPayouts();

    WalletRound.Result r = WalletRound.apply(watching, seen(null, true, incoming(260, bounce("34", 1_001, "refund")),
        incoming(261, bounce("35", 900, "another payment"))), BEFORE_EXPIRY, SETTINGS);

    assertThat(r.verdicts()).isEmpty();
    assertThat(r.wallet().bounceWatches()).hasSize(2);
  }

  @Test
  void shouldCreditNoBounceToAPayoutBelowWhereATruncatedScanStopped() {
    WatchedWallet watching = watchingTwoPayouts();
    // a scan cut short saw everything from lt 205 up: the first payout's bounce may be below it
    WalletObservation truncated = new WalletObservation(List.of(incoming(260, bounce("34", 900, "refund"))), false,
        null, 205L);

    WalletRound.Result r = WalletRound.apply(watching, truncated, BEFORE_EXPIRY, SETTINGS);

    assertThat(only(r).requestId()).as("only the payout the scan reached back to").isEqualTo("r2");
    assertThat(r.wallet().cursor()).as("the gap below stays to be scanned").isEqualTo(watching.cursor());
  }

  @Test
  void shouldStopWatchingForABounceAfterTheWindow() {
    WatchedWallet watching = WalletRound.apply(walletWith(bounceable()),
        seen(null, true, tx(200, HASH, List.of(payout(BOB, 1_000)))), BEFORE_EXPIRY, SETTINGS).wallet();

    WatchedWallet after = watching.forgetBefore(BEFORE_EXPIRY.plus(SETTINGS.bounceWindow()), Duration.ofDays(1));

    assertThat(after.bounceWatches()).isEmpty();
    assertThat(after.needsPolling()).isFalse();
  }

  @Test
  void shouldForgetRememberedVerdictsAfterTheRetentionAndThenDropTheEntry() {
    WatchedWallet afterVerdict = WalletRound.apply(walletWith(transfer()),
        seen(null, true, tx(200, HASH, List.of(payout(BOB, 1_000)))), BEFORE_EXPIRY, SETTINGS).wallet();
    assertThat(afterVerdict.resolvedFor(HASH)).isPresent();

    assertThat(afterVerdict.forgetBefore(BEFORE_EXPIRY.plus(SETTINGS.resolvedRetention()), SETTINGS.resolvedRetention())
        .isIdle()).isTrue();
  }

  private static ChainTransaction incoming(long lt, ChainMessage in) {
    return new ChainTransaction(WALLET, new TransactionId(lt, String.format("%064x", lt)),
        SUBMITTED.getEpochSecond() + 2, 100_000, 0, 100_000, in, List.of(), "");
  }

  private static String bouncedBody() {
    return CellBuilder.beginCell().storeUint(BigInteger.valueOf(0xFFFF_FFFFL), 32).storeUint(BigInteger.ZERO, 32)
        .endCell().toBase64();
  }

  private static String comment(String text) {
    return CellBuilder.beginCell().storeUint(BigInteger.ZERO, 32).storeString(text).endCell().toBase64();
  }

  private static byte[] bytes(int b) {
    byte[] a = new byte[32];
    java.util.Arrays.fill(a, (byte) b);
    return a;
  }
}
