package org.tonpayouts.poller;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tonpayouts.schemas.ConfirmationStatus;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.ChainMessage;
import org.tonpayouts.ton.api.ChainTransaction;
import org.tonpayouts.ton.api.TransactionId;

/**
 * The verdict rules on hand-made observations, for chain shapes devnet cannot produce with our
 * signer (aborted transactions, normalized-hash reporting, ambiguous payouts, truncated scans).
 */
class WalletRoundTest {
  private static final Instant SUBMITTED = Instant.parse("2026-05-01T12:00:00Z");
  private static final Duration SKEW = Duration.ofSeconds(10);
  private static final PollerSettings SETTINGS = new PollerSettings(Duration.ofMillis(100), SKEW,
      Duration.ofSeconds(1), 10, Duration.ofMinutes(10), 32, 4);
  private static final TonAddress WALLET = TonAddress.of(0, bytes(0x11));
  private static final TonAddress BOB = TonAddress.of(0, bytes(0xb0));
  private static final String HASH = "aa".repeat(32);
  private static final String NORMALIZED = "bb".repeat(32);
  private static final long VALID_UNTIL = SUBMITTED.getEpochSecond() + 60;
  private static final Instant BEFORE_EXPIRY = SUBMITTED.plusSeconds(5);
  private static final Instant AFTER_EXPIRY = Instant.ofEpochSecond(VALID_UNTIL).plus(SKEW);

  private static WatchedWallet walletWith(WatchedMessage m) {
    return new WatchedWallet(7, WALLET.toRaw(), List.of(m), new TransactionId(100, "cc".repeat(32)), List.of());
  }

  private static WatchedMessage message() {
    return new WatchedMessage("r", "r-t0", HASH, NORMALIZED, 5, VALID_UNTIL, BOB.toRaw(), 1_000, SUBMITTED, true, null);
  }

  private static ChainTransaction tx(long lt, String inHash, List<ChainMessage> outs) {
    ChainMessage in = new ChainMessage(inHash, null, WALLET, 0, 0, 0, 0, "dd".repeat(32), null, null, null);
    return new ChainTransaction(WALLET, new TransactionId(lt, String.format("%064x", lt)),
        SUBMITTED.getEpochSecond() + 1, 1_500_000, 0, 1_500_000, in, outs, "");
  }

  private static ChainMessage payout(TonAddress to, long value) {
    return new ChainMessage("ee".repeat(32), WALLET, to, value, 400_000, 0, 1, "ff".repeat(32), null, null, null);
  }

  @Test
  void shouldMatchTheNormalizedHashAsWell() {
    WalletObservation seen = new WalletObservation(List.of(tx(200, NORMALIZED, List.of(payout(BOB, 1_000)))), true, null);

    WalletRound.Result r = WalletRound.apply(walletWith(message()), seen, BEFORE_EXPIRY, SETTINGS);

    assertThat(r.verdicts()).singleElement()
        .satisfies(v -> assertThat(v.confirmation().status()).isEqualTo(ConfirmationStatus.CONFIRMED));
    assertThat(r.wallet().pending()).isEmpty();
    assertThat(r.wallet().cursor().lt()).isEqualTo(200);
  }

  @Test
  void shouldKeepWatchingAnAbortedTransactionUntilTheSeqnoProvesAnOutcome() {
    ChainTransaction aborted = tx(200, HASH, List.of());
    WalletObservation seqnoKept = new WalletObservation(List.of(aborted), true, 5L);

    WalletRound.Result r = WalletRound.apply(walletWith(message()), seqnoKept, BEFORE_EXPIRY, SETTINGS);

    assertThat(r.verdicts()).isEmpty();
    assertThat(r.wallet().pending()).singleElement().satisfies(m -> assertThat(m.needsWindow()).isTrue());

    WalletRound.Result later = WalletRound.apply(r.wallet(), seqnoKept, AFTER_EXPIRY, SETTINGS);
    assertThat(later.verdicts()).singleElement()
        .satisfies(v -> assertThat(v.confirmation().status()).isEqualTo(ConfirmationStatus.EXPIRED));
  }

  @Test
  void shouldAskForASeqnoReadBeforeCallingASendlessTransactionFailed() {
    WalletObservation noRead = new WalletObservation(List.of(tx(200, HASH, List.of())), true, null);

    assertThat(WalletRound.needsSeqnoRead(walletWith(message()), noRead, BEFORE_EXPIRY, SETTINGS)).isTrue();
    assertThat(WalletRound.apply(walletWith(message()), noRead, BEFORE_EXPIRY, SETTINGS).verdicts()).isEmpty();
    assertThat(WalletRound.apply(walletWith(message()), noRead.withWalletSeqno(6L), BEFORE_EXPIRY, SETTINGS).verdicts())
        .singleElement()
        .satisfies(v -> assertThat(v.confirmation().status()).isEqualTo(ConfirmationStatus.FAILED));
  }

  @Test
  void shouldNotReadTheSeqnoBeforeExpiry() {
    WalletObservation nothing = new WalletObservation(List.of(), true, null);

    assertThat(WalletRound.needsSeqnoRead(walletWith(message()), nothing, BEFORE_EXPIRY, SETTINGS)).isFalse();
    assertThat(WalletRound.needsSeqnoRead(walletWith(message()), nothing, AFTER_EXPIRY.minusSeconds(1), SETTINGS))
        .isFalse();
    assertThat(WalletRound.needsSeqnoRead(walletWith(message()), nothing, AFTER_EXPIRY, SETTINGS)).isTrue();
  }

  @Test
  void shouldRequireReconciliationWhenTwoPayoutsMatchDestinationAndAmount() {
    WatchedMessage seenPast = message().withSeqnoSeenPast(7);
    WalletObservation rescan = new WalletObservation(List.of(
        tx(200, "01".repeat(32), List.of(payout(BOB, 1_000))),
        tx(300, "02".repeat(32), List.of(payout(BOB, 1_000)))), true, null);

    WalletRound.Result r = WalletRound.apply(walletWith(seenPast), rescan, AFTER_EXPIRY, SETTINGS);

    assertThat(r.verdicts()).singleElement().satisfies(v -> {
      assertThat(v.confirmation().status()).isEqualTo(ConfirmationStatus.RECONCILIATION_REQUIRED);
      assertThat(v.confirmation().reason()).contains("2 outgoing messages");
    });
  }

  @Test
  void shouldRequireReconciliationWhenTheRescanCouldNotReachTheSubmission() {
    WatchedMessage seenPast = message().withSeqnoSeenPast(7);
    WalletObservation truncated = new WalletObservation(List.of(tx(900, "01".repeat(32), List.of())), false, null);

    WalletRound.Result r = WalletRound.apply(walletWith(seenPast), truncated, AFTER_EXPIRY, SETTINGS);

    assertThat(r.verdicts()).singleElement().satisfies(v -> {
      assertThat(v.confirmation().status()).isEqualTo(ConfirmationStatus.RECONCILIATION_REQUIRED);
      assertThat(v.confirmation().reason()).contains("page limit");
    });
  }

  @Test
  void shouldIgnoreAStaleSeqnoThatWasNotRead() {
    WalletObservation readFailed = new WalletObservation(List.of(), true, null);

    WalletRound.Result r = WalletRound.apply(walletWith(message()), readFailed, AFTER_EXPIRY, SETTINGS);

    assertThat(r.verdicts()).isEmpty();
    assertThat(r.wallet().pending()).hasSize(1);
  }

  @Test
  void shouldForgetRememberedVerdictsAfterTheRetentionAndThenDropTheEntry() {
    WalletObservation applied = new WalletObservation(List.of(tx(200, HASH, List.of(payout(BOB, 1_000)))), true, null);
    WatchedWallet afterVerdict = WalletRound.apply(walletWith(message()), applied, BEFORE_EXPIRY, SETTINGS).wallet();
    assertThat(afterVerdict.knows(HASH)).isTrue();

    assertThat(afterVerdict.forgetResolvedBefore(BEFORE_EXPIRY.plus(SETTINGS.resolvedRetention()), SETTINGS.resolvedRetention())
        .isIdle()).isTrue();
  }

  private static byte[] bytes(int b) {
    byte[] a = new byte[32];
    java.util.Arrays.fill(a, (byte) b);
    return a;
  }

  @Test
  void shouldConfirmAMessageThatAbortedOnceAndThenApplied() {
    WalletObservation abortedThenApplied = new WalletObservation(List.of(
        tx(200, HASH, List.of()), tx(300, HASH, List.of(payout(BOB, 1_000)))), true, 6L);

    WalletRound.Result r = WalletRound.apply(walletWith(message()), abortedThenApplied, BEFORE_EXPIRY, SETTINGS);

    assertThat(r.verdicts()).singleElement().satisfies(v -> {
      assertThat(v.confirmation().status()).isEqualTo(ConfirmationStatus.CONFIRMED);
      assertThat(v.confirmation().lt()).isEqualTo(300);
    });
  }
}
