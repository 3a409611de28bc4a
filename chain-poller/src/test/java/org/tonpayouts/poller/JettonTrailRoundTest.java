package org.tonpayouts.poller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tonpayouts.poller.JettonChain.AMOUNT;
import static org.tonpayouts.poller.JettonChain.ATTACHED;
import static org.tonpayouts.poller.JettonChain.HASH;
import static org.tonpayouts.poller.JettonChain.ORDER;
import static org.tonpayouts.poller.JettonChain.QUERY_ID;
import static org.tonpayouts.poller.JettonChain.RECEIVER_JW;
import static org.tonpayouts.poller.JettonChain.SENDER_JW;
import static org.tonpayouts.poller.JettonChain.STRANGER;
import static org.tonpayouts.poller.JettonChain.STRANGER_JW;
import static org.tonpayouts.poller.JettonChain.SUBMITTED;
import static org.tonpayouts.poller.JettonChain.TRANSFER_MSG_LT;
import static org.tonpayouts.poller.JettonChain.WALLET;
import static org.tonpayouts.poller.JettonChain.WALLET_LT;
import static org.tonpayouts.poller.JettonChain.WALLET_TX;
import static org.tonpayouts.poller.JettonChain.bounceBody;
import static org.tonpayouts.poller.JettonChain.cell;
import static org.tonpayouts.poller.JettonChain.internalTransferBody;
import static org.tonpayouts.poller.JettonChain.message;
import static org.tonpayouts.poller.JettonChain.receiverAccepted;
import static org.tonpayouts.poller.JettonChain.receiverRefused;
import static org.tonpayouts.poller.JettonChain.recredit;
import static org.tonpayouts.poller.JettonChain.senderTook;
import static org.tonpayouts.poller.JettonChain.transferBody;
import static org.tonpayouts.poller.JettonChain.tx;
import static org.tonpayouts.poller.JettonChain.unrelated;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tonpayouts.poller.JettonTrail.Cursor;
import org.tonpayouts.poller.JettonTrail.Stage;
import org.tonpayouts.poller.JettonTrailRound.Observation;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.ConfirmationStatus;
import org.tonpayouts.schemas.JettonDelivery;
import org.tonpayouts.schemas.JsonSerde;
import org.tonpayouts.schemas.Submission;
import org.tonpayouts.ton.api.ChainTransaction;
import org.tonpayouts.ton.api.TransactionId;
import org.tonpayouts.ton.jetton.JettonOps;

/**
 * The jetton follow's verdicts on hand-made jetton wallet transactions: delivered, refused by our
 * jetton wallet, refused by the receiver and re-credited, look-alikes from other senders, searches
 * cut short, and the trail kept across rounds, new attempts and the store.
 */
class JettonTrailRoundTest {
  private static final Instant NOW = SUBMITTED.plusSeconds(5);
  private static final PollerSettings SETTINGS = new PollerSettings(Duration.ofMillis(100), Duration.ofSeconds(10),
      Duration.ofSeconds(1), 10, Duration.ofMinutes(10), 32, 4, Duration.ofSeconds(30), Duration.ZERO,
      Duration.ofSeconds(2));
  private static final List<String> KEY = List.of("r", "r-t0");

  /** A jetton transfer the wallet's transaction {@link JettonChain#WALLET_TX} handed over. */
  private static WatchedTransfer handedOver() {
    return new WatchedTransfer("r", "r-t0", 5, List.of(HASH), List.of(), SUBMITTED.getEpochSecond() + 60,
        JettonChain.OWNER.toRaw(), ATTACHED, true, SUBMITTED, true, null, false, ORDER,
        JettonTrail.handedOver(new JettonTrail.HandOver(HASH, WALLET_TX, WALLET_LT, SUBMITTED.getEpochSecond() + 1,
            1_900_000, TRANSFER_MSG_LT, null)));
  }

  private static WatchedWallet walletWith(WatchedTransfer t) {
    return new WatchedWallet(7, WALLET.toRaw(), List.of(t), new TransactionId(WALLET_LT, WALLET_TX), List.of(),
        List.of());
  }

  private static Observation seen(Stage stage, Cursor from, boolean reached, ChainTransaction... newestFirst) {
    return new Observation(stage, from, List.of(newestFirst), reached);
  }

  private static WalletRound.Result apply(WatchedWallet wallet, Observation... observations) {
    return JettonTrailRound.apply(wallet, Map.of(KEY, List.of(observations)), NOW, SETTINGS);
  }

  private static Confirmation only(WalletRound.Result r) {
    assertThat(r.verdicts()).hasSize(1);
    return r.verdicts().get(0).confirmation();
  }

  private static WatchedTransfer kept(WalletRound.Result r) {
    assertThat(r.verdicts()).isEmpty();
    return r.wallet().pending().get(0);
  }

  @Test
  void shouldConfirmWhenTheReceiversJettonWalletAcceptedOurInternalTransfer() {
    WalletRound.Result r = apply(walletWith(handedOver()),
        seen(Stage.SENDER, Cursor.above(WALLET_LT), true, unrelated(SENDER_JW, 250), senderTook()),
        seen(Stage.RECEIVER, Cursor.above(200), true, receiverAccepted()));

    Confirmation c = only(r);
    assertThat(c.status()).isEqualTo(ConfirmationStatus.CONFIRMED);
    assertThat(c.messageHash()).isEqualTo(HASH);
    assertThat(c.txHash()).as("the wallet's transaction").isEqualTo(WALLET_TX);
    assertThat(c.lt()).isEqualTo(WALLET_LT);
    assertThat(c.reason()).isNull();
    JettonDelivery d = c.jetton();
    assertThat(d.delivered()).isTrue();
    assertThat(d).isEqualTo(new JettonDelivery(ORDER.master(), AMOUNT, QUERY_ID, SENDER_JW.toRaw(),
        senderTook().id().hash(), 200L, RECEIVER_JW.toRaw(), receiverAccepted().id().hash(), 300L, null, null, null));
    assertThat(r.wallet().pending()).isEmpty();
    assertThat(r.wallet().resolvedFor(HASH)).isPresent();
  }

  @Test
  void shouldFailWithOurJettonWalletsExitCodeWhenItRefusedTheTransfer() {
    ChainTransaction refused = tx(SENDER_JW, 200, message(WALLET, SENDER_JW, ATTACHED, TRANSFER_MSG_LT,
        transferBody(QUERY_ID)), cell(706, true), message(SENDER_JW, WALLET, 45_000_000, 201,
        bounceBody(JettonOps.TRANSFER, QUERY_ID)));

    Confirmation c = only(apply(walletWith(handedOver()), seen(Stage.SENDER, Cursor.above(WALLET_LT), true, refused)));

    assertThat(c.status()).isEqualTo(ConfirmationStatus.FAILED);
    assertThat(c.txHash()).as("the wallet's transaction: the seqno is consumed").isEqualTo(WALLET_TX);
    assertThat(c.reason()).contains("exit code 706", "not enough jettons", refused.id().hash());
    assertThat(c.jetton().exitCode()).isEqualTo(706);
    assertThat(c.jetton().failedAccount()).isEqualTo(SENDER_JW.toRaw());
    assertThat(c.jetton().senderTxHash()).isEqualTo(refused.id().hash());
    assertThat(c.jetton().receiverJettonWallet()).isNull();
  }

  @Test
  void shouldFailOnABounceBackToOurWalletWhenTheTransactionCellCannotBeRead() {
    ChainTransaction refused = tx(SENDER_JW, 200, message(WALLET, SENDER_JW, ATTACHED, TRANSFER_MSG_LT,
        transferBody(QUERY_ID)), null, message(SENDER_JW, WALLET, 45_000_000, 201,
        bounceBody(JettonOps.TRANSFER, QUERY_ID)));

    Confirmation c = only(apply(walletWith(handedOver()), seen(Stage.SENDER, Cursor.above(WALLET_LT), true, refused)));

    assertThat(c.status()).isEqualTo(ConfirmationStatus.FAILED);
    assertThat(c.jetton().exitCode()).isNull();
    assertThat(c.reason()).contains("bounce back to our wallet");
  }

  @Test
  void shouldFailARefusalByTheReceiverOnlyOnceOurJettonWalletReCreditedIt() {
    WatchedWallet wallet = walletWith(handedOver());

    WalletRound.Result refused = apply(wallet, seen(Stage.SENDER, Cursor.above(WALLET_LT), true, senderTook()),
        seen(Stage.RECEIVER, Cursor.above(200), true, receiverRefused(45)));
    WatchedTransfer waiting = kept(refused);
    assertThat(waiting.trail().stage()).isEqualTo(Stage.RECREDIT);
    assertThat(waiting.trail().receiver().exitCode()).isEqualTo(45);
    assertThat(waiting.trail().cursor()).isEqualTo(Cursor.above(300));

    WalletRound.Result notYet = apply(refused.wallet(), seen(Stage.RECREDIT, Cursor.above(300), true));
    assertThat(kept(notYet).trail().stage()).isEqualTo(Stage.RECREDIT);

    Confirmation c = only(apply(notYet.wallet(), seen(Stage.RECREDIT, Cursor.above(300), true,
        unrelated(SENDER_JW, 450), recredit())));
    assertThat(c.status()).isEqualTo(ConfirmationStatus.FAILED);
    assertThat(c.txHash()).isEqualTo(WALLET_TX);
    assertThat(c.reason()).contains("exit code 45", "locked", receiverRefused(45).id().hash(), recredit().id().hash());
    JettonDelivery d = c.jetton();
    assertThat(d.exitCode()).isEqualTo(45);
    assertThat(d.failedAccount()).isEqualTo(RECEIVER_JW.toRaw());
    assertThat(d.receiverJettonWallet()).isEqualTo(RECEIVER_JW.toRaw());
    assertThat(d.returnTxHash()).isEqualTo(recredit().id().hash());
    assertThat(d.senderTxHash()).isEqualTo(senderTook().id().hash());
    assertThat(d.delivered()).isFalse();
  }

  @Test
  void shouldTakeABounceBackFromTheReceiverForARefusalEvenWithoutAReadableCell() {
    ChainTransaction refused = tx(RECEIVER_JW, 300, JettonChain.internalTransferIn(201), null,
        message(RECEIVER_JW, SENDER_JW, 30_000_000, 301, bounceBody(JettonOps.INTERNAL_TRANSFER, QUERY_ID)));

    WalletRound.Result r = apply(walletWith(handedOver()), seen(Stage.SENDER, Cursor.above(WALLET_LT), true,
        senderTook()), seen(Stage.RECEIVER, Cursor.above(200), true, refused));

    assertThat(kept(r).trail().stage()).as("never confirmed on a bounce back").isEqualTo(Stage.RECREDIT);
  }

  @Test
  void shouldNeverTakeALookAlikeFromAnotherJettonWalletForOurDelivery() {
    // the same query_id and amount to the same receiver, from a stranger's jetton wallet, above our floor
    ChainTransaction lookAlike = tx(RECEIVER_JW, 250, message(STRANGER_JW, RECEIVER_JW, 40_000_000, 240,
        internalTransferBody(QUERY_ID, AMOUNT, STRANGER)), cell(0, false));
    // and one claiming to come from our wallet, from the stranger's jetton wallet
    ChainTransaction forged = tx(RECEIVER_JW, 260, message(STRANGER_JW, RECEIVER_JW, 40_000_000, 255,
        internalTransferBody(QUERY_ID, AMOUNT, WALLET)), cell(0, false));

    WalletRound.Result r = apply(walletWith(handedOver()),
        seen(Stage.SENDER, Cursor.above(WALLET_LT), true, senderTook()),
        seen(Stage.RECEIVER, Cursor.above(200), true, forged, lookAlike));

    WatchedTransfer t = kept(r);
    assertThat(t.trail().stage()).isEqualTo(Stage.RECEIVER);
    assertThat(t.trail().cursor()).as("searched up to the newest").isEqualTo(Cursor.above(260));
  }

  @Test
  void shouldNeverTakeATransferFromAnotherWalletWithOurQueryIdForOurs() {
    ChainTransaction theirs = tx(SENDER_JW, 150, message(STRANGER, SENDER_JW, ATTACHED, 140,
        transferBody(QUERY_ID)), cell(706, true));

    WalletRound.Result r = apply(walletWith(handedOver()), seen(Stage.SENDER, Cursor.above(WALLET_LT), true, theirs));

    assertThat(kept(r).trail().stage()).isEqualTo(Stage.SENDER);
  }

  @Test
  void shouldNotTakeAnotherMessageOfOurJettonWalletWithTheSameQueryIdForTheOneItSentUs() {
    // our jetton wallet's internal_transfer created at lt 201; one created at 205 is not it
    ChainTransaction other = tx(RECEIVER_JW, 300, JettonChain.internalTransferIn(205), cell(0, false));

    WalletRound.Result r = apply(walletWith(handedOver()), seen(Stage.SENDER, Cursor.above(WALLET_LT), true,
        senderTook()), seen(Stage.RECEIVER, Cursor.above(200), true, other));

    assertThat(kept(r).trail().stage()).isEqualTo(Stage.RECEIVER);
  }

  @Test
  void shouldRequireReconciliationWhenOurJettonWalletNeitherRefusedNorSentTheTransferOn() {
    ChainTransaction silent = tx(SENDER_JW, 200, message(WALLET, SENDER_JW, ATTACHED, TRANSFER_MSG_LT,
        transferBody(QUERY_ID)), cell(0, false));

    Confirmation c = only(apply(walletWith(handedOver()), seen(Stage.SENDER, Cursor.above(WALLET_LT), true, silent)));

    assertThat(c.status()).isEqualTo(ConfirmationStatus.RECONCILIATION_REQUIRED);
    assertThat(c.reason()).contains("neither refused it nor sent internal_transfer");
  }

  @Test
  void shouldGoOnFromWhereASearchCutShortStoppedAndThenAboveWhereItBegan() {
    WatchedWallet wallet = walletWith(handedOver());

    // the newest two pages: nothing of ours, the budget spent
    WalletRound.Result first = apply(wallet, seen(Stage.SENDER, Cursor.above(WALLET_LT), false,
        unrelated(SENDER_JW, 500), unrelated(SENDER_JW, 450)));
    Cursor resumed = kept(first).trail().cursor();
    assertThat(resumed).isEqualTo(new Cursor(WALLET_LT, new TransactionId(450, String.format("%064x", 450)), 500L));

    // the rest down to the floor: still nothing; next time only what is above 500 is read
    WalletRound.Result second = apply(first.wallet(), seen(Stage.SENDER, resumed, true, unrelated(SENDER_JW, 300)));
    assertThat(kept(second).trail().cursor()).isEqualTo(Cursor.above(500));

    // a search read for a cursor the trail has left is not applied
    WalletRound.Result stale = apply(second.wallet(), seen(Stage.SENDER, resumed, true, senderTook()));
    assertThat(kept(stale).trail().cursor()).isEqualTo(Cursor.above(500));
  }

  @Test
  void shouldMakeNoVerdictFromAFollowThatFoundNothing() {
    WatchedWallet wallet = walletWith(handedOver());

    WalletRound.Result r = apply(wallet, seen(Stage.SENDER, Cursor.above(WALLET_LT), true));

    assertThat(kept(r)).isEqualTo(handedOver());
    assertThat(JettonTrailRound.apply(wallet, Map.of(), NOW, SETTINGS).wallet()).isEqualTo(wallet);
  }

  @Test
  void shouldKeepTheTrailWhenANewAttemptOrARecheckIsMerged() {
    WalletRound.Result r = apply(walletWith(handedOver()),
        seen(Stage.SENDER, Cursor.above(WALLET_LT), true, senderTook()));
    WatchedWallet following = r.wallet();
    JettonTrail trail = kept(r).trail();
    Submission next = Submission.of("r", "r-t0", 0, 7, WALLET.toRaw(), 5, "ac".repeat(32), "ad".repeat(32),
        SUBMITTED.getEpochSecond() + 120, JettonChain.OWNER.toRaw(), ATTACHED, 2, NOW, List.of(HASH, "ac".repeat(32)),
        SUBMITTED, true, false).withJetton(ORDER);

    WatchedTransfer merged = following.watch(next).pending().get(0);
    WatchedTransfer rechecked = following.watch(next.asRecheck(NOW)).pending().get(0);

    assertThat(merged.trail()).isEqualTo(trail);
    assertThat(merged.hashes()).containsExactly(HASH, "ac".repeat(32));
    assertThat(rechecked.trail()).isEqualTo(trail);
    assertThat(rechecked.needsStateRead(NOW.plusSeconds(3600), Duration.ofSeconds(10)))
        .as("handed over: the wallet's state has nothing more to say").isFalse();
    Confirmation c = only(apply(following.watch(next), seen(Stage.RECEIVER, Cursor.above(200), true,
        receiverAccepted())));
    assertThat(c.status()).isEqualTo(ConfirmationStatus.CONFIRMED);
    assertThat(c.messageHash()).as("the message that applied, not the newest attempt").isEqualTo(HASH);
  }

  @Test
  void shouldStoreAndReadBackAWalletFollowingAJettonTransfer() {
    WalletRound.Result r = apply(walletWith(handedOver()), seen(Stage.SENDER, Cursor.above(WALLET_LT), true,
        senderTook()), seen(Stage.RECEIVER, Cursor.above(200), false, unrelated(RECEIVER_JW, 900),
        unrelated(RECEIVER_JW, 800)));
    WatchedWallet wallet = r.wallet();
    JsonSerde<WatchedWallet> serde = JsonSerde.of(WatchedWallet.class);

    byte[] bytes = serde.serializer().serialize("t", wallet);
    WatchedWallet back = serde.deserializer().deserialize("t", bytes);

    assertThat(back).isEqualTo(wallet);
    assertThat(back.pending().get(0).trail().cursor().resumeFrom()).isNotNull();
    assertThat(new String(bytes, java.nio.charset.StandardCharsets.UTF_8)).contains("\"queryId\":\"42\"");
  }

  @Test
  void shouldReadAWalletStoredBeforeJettonsWithoutThem() {
    String old = "{\"subwalletId\":7,\"walletAddress\":\"" + WALLET.toRaw() + "\",\"pending\":[{\"requestId\":\"r\","
        + "\"transferId\":\"r-t0\",\"seqno\":5,\"hashes\":[\"" + HASH + "\"],\"normalizedHashes\":[],"
        + "\"validUntil\":1777636860,\"destination\":\"" + JettonChain.OWNER.toRaw() + "\",\"amountNano\":1000,"
        + "\"bounce\":false,\"firstSubmittedAt\":\"2026-05-01T12:00:00Z\",\"windowScanned\":true,"
        + "\"appliedWithoutSend\":null,\"recheck\":false}],\"cursor\":null,\"resolved\":[],\"bounceWatches\":[]}";

    WatchedWallet back = JsonSerde.of(WatchedWallet.class).deserializer().deserialize("t",
        old.getBytes(java.nio.charset.StandardCharsets.UTF_8));

    WatchedTransfer t = back.pending().get(0);
    assertThat(t.jetton()).isNull();
    assertThat(t.trail()).isNull();
    assertThat(t.handedOver()).isFalse();
    assertThat(t.messageDestination()).isEqualTo(JettonChain.OWNER.toRaw());
  }

  @Test
  void shouldReadTheExitCodeFromTheTransactionCell() {
    assertThat(ComputeOutcome.of(receiverRefused(45))).hasValue(new ComputeOutcome(45, null, true));
    assertThat(ComputeOutcome.of(receiverAccepted())).hasValue(new ComputeOutcome(0, null, false));
    assertThat(ComputeOutcome.of(unrelated(SENDER_JW, 300))).isEmpty();
    assertThat(ComputeOutcome.of(tx(SENDER_JW, 1, null, "bm90IGEgYm9j"))).isEmpty();
  }
}
