package org.tonpayouts.poller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tonpayouts.poller.JettonChain.ATTACHED;
import static org.tonpayouts.poller.JettonChain.HASH;
import static org.tonpayouts.poller.JettonChain.ORDER;
import static org.tonpayouts.poller.JettonChain.OWNER;
import static org.tonpayouts.poller.JettonChain.SENDER_JW;
import static org.tonpayouts.poller.JettonChain.SUBMITTED;
import static org.tonpayouts.poller.JettonChain.WALLET;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tonpayouts.poller.JettonTrail.Cursor;
import org.tonpayouts.poller.JettonTrail.Stage;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.ConfirmationStatus;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.ChainMessage;
import org.tonpayouts.ton.api.ChainTransaction;
import org.tonpayouts.ton.api.TransactionId;
import org.tonpayouts.ton.api.WalletSnapshot;
import org.tonpayouts.ton.cell.TonCell;

/**
 * The wallet's rules for a jetton transfer: the transaction that sent the wallet's message to our
 * jetton wallet (found by hash, or recovered by that destination and the TON attached) hands the
 * transfer over without a verdict; a skipped send and an expiry are the wallet's to decide.
 */
class WalletRoundJettonTest {
  private static final long SEQNO = 5;
  private static final long VALID_UNTIL = SUBMITTED.getEpochSecond() + 60;
  private static final Duration SKEW = Duration.ofSeconds(10);
  private static final Instant AFTER_EXPIRY = Instant.ofEpochSecond(VALID_UNTIL).plus(SKEW);
  private static final PollerSettings SETTINGS = new PollerSettings(Duration.ofMillis(100), SKEW,
      Duration.ofSeconds(1), 10, Duration.ofMinutes(10), 32, 4, Duration.ofSeconds(30), Duration.ZERO,
      Duration.ofSeconds(2));
  private static final TransactionId CURSOR = new TransactionId(50, "cc".repeat(32));

  private static WatchedTransfer jettonTransfer(boolean windowScanned) {
    return new WatchedTransfer("r", "r-t0", SEQNO, List.of(HASH), List.of(), VALID_UNTIL, OWNER.toRaw(), ATTACHED,
        true, SUBMITTED, windowScanned, null, false, ORDER, null);
  }

  private static WatchedWallet walletWith(WatchedTransfer t) {
    return new WatchedWallet(7, WALLET.toRaw(), List.of(t), CURSOR, List.of(), List.of());
  }

  /** The wallet's transaction applying external message {@code inHash} (seqno 5) and sending {@code outs}. */
  private static ChainTransaction walletTx(long lt, String inHash, ChainMessage... outs) {
    String body = TonCell.builder().storeBytes(new byte[64]).storeUint(698983191L, 32).storeUint(VALID_UNTIL, 32)
        .storeUint(SEQNO, 32).storeUint(0, 8).endCell().toBase64();
    ChainMessage in = new ChainMessage(inHash, null, WALLET, 0, 0, 0, 0, "dd".repeat(32), null, body, null);
    return new ChainTransaction(WALLET, new TransactionId(lt, String.format("%064x", lt)),
        SUBMITTED.getEpochSecond() + 1, 1_900_000, 0, 1_900_000, in, List.of(outs), "");
  }

  /** The wallet's message to {@code to}, as the block feed keeps it (no body). */
  private static ChainMessage sent(TonAddress to, long value, long createdLt) {
    return new ChainMessage("ee".repeat(32), WALLET, to, value, 400_000, 0, createdLt, "ff".repeat(32), null, null,
        null);
  }

  private static WalletSnapshot state(long seqno, long lastTxLt, long nodeTime) {
    return new WalletSnapshot("active", 5_000_000_000L, seqno, 698983191L,
        new TransactionId(lastTxLt, String.format("%064x", lastTxLt)), nodeTime);
  }

  @Test
  void shouldHandTheTransferOverWithoutAVerdictWhenTheWalletsMessageReachedOurJettonWallet() {
    ChainTransaction tx = walletTx(100, HASH, sent(SENDER_JW, ATTACHED, 101));

    WalletRound.Result r = WalletRound.apply(walletWith(jettonTransfer(true)),
        new WalletObservation(List.of(tx), true, null), SUBMITTED.plusSeconds(5), SETTINGS);

    assertThat(r.verdicts()).as("the wallet's transaction proves no delivery").isEmpty();
    WatchedTransfer t = r.wallet().pending().get(0);
    assertThat(t.handedOver()).isTrue();
    assertThat(t.trail().handOver()).isEqualTo(new JettonTrail.HandOver(HASH, tx.id().hash(), 100,
        tx.utime(), tx.fee(), 101L, null));
    assertThat(t.trail().stage()).isEqualTo(Stage.SENDER);
    assertThat(t.trail().cursor()).isEqualTo(Cursor.above(100));
    assertThat(r.wallet().bounceWatches()).isEmpty();
    // from now on the wallet itself has nothing to say: no state read, no window, no wallet reads
    assertThat(r.wallet().needsStateRead(AFTER_EXPIRY, SKEW)).isFalse();
    assertThat(r.wallet().windowStart(SKEW)).isEmpty();
    assertThat(r.wallet().needsWalletReads()).isFalse();
    assertThat(r.wallet().needsPolling()).isTrue();
    WalletRound.Result later = WalletRound.apply(r.wallet(),
        new WalletObservation(List.of(), true, state(SEQNO + 1, 100, AFTER_EXPIRY.getEpochSecond())), AFTER_EXPIRY,
        SETTINGS);
    assertThat(later.verdicts()).as("never expired once handed over").isEmpty();
    assertThat(later.wallet().pending().get(0)).isEqualTo(t);
  }

  @Test
  void shouldRecoverTheHandOverByOurJettonWalletAndTheTonAttachedWhenAForeignMessageTookTheSeqno() {
    String foreign = "fa".repeat(32);
    ChainTransaction tx = walletTx(100, foreign, sent(SENDER_JW, ATTACHED, 101));
    WalletObservation seen = new WalletObservation(List.of(tx), true, state(SEQNO + 1, 100,
        AFTER_EXPIRY.getEpochSecond()));

    WalletRound.Result r = WalletRound.apply(walletWith(jettonTransfer(false)), seen, AFTER_EXPIRY, SETTINGS);

    assertThat(r.verdicts()).isEmpty();
    JettonTrail.HandOver h = r.wallet().pending().get(0).trail().handOver();
    assertThat(h.messageHash()).as("the message that applied").isEqualTo(foreign);
    assertThat(h.txHash()).isEqualTo(tx.id().hash());
    assertThat(h.note()).contains("recovered by destination and amount", SENDER_JW.toRaw());

    WalletRound.Result delivered = JettonTrailRound.apply(r.wallet(), Map.of(List.of("r", "r-t0"), List.of(
        new JettonTrailRound.Observation(Stage.SENDER, Cursor.above(100), List.of(JettonChain.senderTook()), true),
        new JettonTrailRound.Observation(Stage.RECEIVER, Cursor.above(200), List.of(JettonChain.receiverAccepted()),
            true))), AFTER_EXPIRY, SETTINGS);
    Confirmation c = delivered.verdicts().get(0).confirmation();
    assertThat(c.status()).isEqualTo(ConfirmationStatus.CONFIRMED);
    assertThat(c.messageHash()).isEqualTo(foreign);
    assertThat(c.reason()).as("how the wallet's transaction was found").contains("recovered by destination");
  }

  @Test
  void shouldNotRecoverByTheOwnersAddressAJettonTransferNeverPaysTo() {
    ChainTransaction tx = walletTx(100, "fa".repeat(32), sent(OWNER, ATTACHED, 101));
    WalletObservation seen = new WalletObservation(List.of(tx), true, state(SEQNO + 1, 100,
        AFTER_EXPIRY.getEpochSecond()));

    WalletRound.Result r = WalletRound.apply(walletWith(jettonTransfer(false)), seen, AFTER_EXPIRY, SETTINGS);

    assertThat(r.verdicts().get(0).confirmation().status()).isEqualTo(ConfirmationStatus.RECONCILIATION_REQUIRED);
    assertThat(r.verdicts().get(0).confirmation().jetton()).isNull();
  }

  @Test
  void shouldFailASkippedSendAsForTonWithoutAJettonDelivery() {
    ChainTransaction tx = walletTx(100, HASH);
    WalletObservation seen = new WalletObservation(List.of(tx), true, state(SEQNO + 1, 100,
        SUBMITTED.getEpochSecond() + 5));

    WalletRound.Result r = WalletRound.apply(walletWith(jettonTransfer(true)), seen, SUBMITTED.plusSeconds(5),
        SETTINGS);

    Confirmation c = r.verdicts().get(0).confirmation();
    assertThat(c.status()).isEqualTo(ConfirmationStatus.FAILED);
    assertThat(c.reason()).contains("sent nothing");
    assertThat(c.jetton()).isNull();
  }

  @Test
  void shouldExpireAsForTon() {
    WalletObservation seen = new WalletObservation(List.of(), true, state(SEQNO, 40, AFTER_EXPIRY.getEpochSecond()));

    WalletRound.Result r = WalletRound.apply(walletWith(jettonTransfer(true)), seen, AFTER_EXPIRY, SETTINGS);

    assertThat(r.verdicts().get(0).confirmation().status()).isEqualTo(ConfirmationStatus.EXPIRED);
    assertThat(r.verdicts().get(0).confirmation().jetton()).isNull();
  }
}
