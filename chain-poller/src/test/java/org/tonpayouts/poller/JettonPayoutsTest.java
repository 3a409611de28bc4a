package org.tonpayouts.poller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tonpayouts.poller.Wallets.BOB;
import static org.tonpayouts.poller.Wallets.TON;
import static org.tonpayouts.poller.Wallets.send;

import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.devnet.chain.DevnetTransaction;
import org.tonpayouts.devnet.chain.jetton.JettonFlavor;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.ConfirmationStatus;
import org.tonpayouts.schemas.JettonDelivery;
import org.tonpayouts.schemas.JettonOrder;
import org.tonpayouts.schemas.Submission;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.jetton.JettonTransfer;
import org.tonpayouts.ton.wallet.SignedTransfer;
import org.tonpayouts.ton.wallet.TransferOrder;

/**
 * Jetton payouts followed across the three accounts on a real devnet over HTTP, with real signed
 * WalletV4R2 messages and the real jetton wallets' behaviour (reference and stablecoin): the
 * wallet's transaction only hands the transfer over; the receiver jetton wallet's acceptance
 * confirms it, a jetton wallet's refusal fails it with its exit code.
 */
class JettonPayoutsTest {
  private static final BigInteger MINTED = BigInteger.valueOf(1_000_000);
  private static final long ATTACHED = 50_000_000;

  @TempDir
  Path stateDir;

  private PollerDriver poller;
  private Devnet devnet;
  private Wallets wallets;

  @BeforeEach
  void setUp() {
    poller = new PollerDriver(stateDir);
    devnet = poller.devnet;
    wallets = poller.wallets;
  }

  @AfterEach
  void tearDown() {
    poller.close();
  }

  /** A subwallet funded with TON and holding {@link #MINTED} of a new jetton of {@code flavor}. */
  private TonAddress jettonOf(JettonFlavor flavor, long subwallet) {
    TonAddress master = devnet.deployJetton(flavor, "poller:test/" + flavor.id());
    devnet.fund(wallets.address(subwallet), 5 * TON);
    assertThat(devnet.mintJettons(master, wallets.address(subwallet), MINTED).ok()).isTrue();
    return master;
  }

  /** A stablecoin paid by {@code subwallet} whose jetton wallet of BOB is deployed, then locked: it refuses every transfer. */
  private TonAddress stablecoinBobCannotReceive(long subwallet) {
    TonAddress master = jettonOf(JettonFlavor.STABLECOIN, subwallet);
    devnet.mintJettons(master, BOB, BigInteger.ONE);
    assertThat(devnet.setJettonWalletStatus(master, BOB, 2).wallet().status()).isEqualTo(2);
    return master;
  }

  private TonAddress jettonWallet(TonAddress master, TonAddress owner) {
    return devnet.jettonWallet(master, owner).address();
  }

  /** The subwallet's message sending {@code amount} jettons to {@code owner}, {@code attached} TON on it. */
  private SignedTransfer signJetton(TonAddress master, long subwallet, long seqno, long queryId, long amount,
      TonAddress owner, long attached) {
    TonAddress wallet = wallets.address(subwallet);
    TransferOrder order = TransferOrder.withBody(jettonWallet(master, wallet), attached,
        new JettonTransfer(queryId, BigInteger.valueOf(amount), owner, wallet, 1, "payout " + queryId).toCell(), true);
    return wallets.signer.sign(subwallet, seqno, poller.clock.instant().plus(PollerDriver.TTL), List.of(order));
  }

  /** What streams-app publishes for {@code t}: the owner as destination, the TON attached as amountNano. */
  private Submission submission(SignedTransfer t, TonAddress master, long queryId, long amount, TonAddress owner) {
    TransferOrder order = t.orders().get(0);
    return Submission.first("req-" + queryId, "req-" + queryId + "-t0", 0, t.subwalletId(), t.wallet().toRaw(),
            t.seqno(), t.messageHash(), t.normalizedHash(), t.validUntil(), owner.toFriendly(true, false),
            order.amountNano(), poller.clock.instant(), true)
        .withJetton(new JettonOrder(master.toRaw(), BigInteger.valueOf(amount), queryId,
            order.destination().toRaw(), 1));
  }

  /** Sends and watches a jetton payout, then runs rounds until a verdict (at most a few). */
  private Confirmation pay(TonAddress master, long subwallet, long queryId, long amount, TonAddress owner,
      long attached) {
    SignedTransfer t = signJetton(master, subwallet, 0, queryId, amount, owner, attached);
    send(poller.api, t);
    poller.watch(submission(t, master, queryId, amount, owner));
    return verdictWithin(4);
  }

  private Confirmation verdictWithin(int rounds) {
    for (int i = 0; i < rounds && poller.confirmations.isEmpty(); i++) {
      poller.round();
    }
    assertThat(poller.confirmations.isEmpty()).as("a verdict within " + rounds + " rounds").isFalse();
    Confirmation c = poller.confirmations.readValue();
    assertThat(poller.confirmations.isEmpty()).as("one verdict").isTrue();
    return c;
  }

  /** The subwallet's transaction that applied {@code t}: the transfer's, whatever the jetton wallets did. */
  private DevnetTransaction walletTx(SignedTransfer t) {
    return Wallets.transactionOf(devnet, t.wallet(), t.messageHash()).orElseThrow();
  }

  /** The only transaction of {@code account} whose inbound message came from {@code source}. */
  private DevnetTransaction onlyFrom(TonAddress account, TonAddress source) {
    List<DevnetTransaction> txs = devnet.transactions(account).stream()
        .filter(tx -> source.equals(tx.inMsg().source())).toList();
    assertThat(txs).hasSize(1);
    return txs.get(0);
  }

  @ParameterizedTest
  @EnumSource(JettonFlavor.class)
  void shouldConfirmOnlyWhenTheReceiversJettonWalletAcceptedTheTransfer(JettonFlavor flavor) {
    long sub = 3001;
    TonAddress master = jettonOf(flavor, sub);
    TonAddress ours = jettonWallet(master, wallets.address(sub));
    TonAddress theirs = jettonWallet(master, BOB);
    SignedTransfer t = signJetton(master, sub, 0, 7001, 250, BOB, ATTACHED);
    send(poller.api, t);
    poller.watch(submission(t, master, 7001, 250, BOB));

    // one block holds the wallet's, our jetton wallet's and the receiver's jetton wallet's
    // transactions: the round that sees the wallet hand the transfer over follows it at once
    Confirmation c = verdictWithin(1);

    DevnetTransaction senderTx = onlyFrom(ours, wallets.address(sub));
    DevnetTransaction receiverTx = onlyFrom(theirs, ours);
    assertThat(c.status()).isEqualTo(ConfirmationStatus.CONFIRMED);
    assertThat(c.messageHash()).isEqualTo(t.messageHash());
    assertThat(c.txHash()).as("the wallet's transaction").isEqualTo(walletTx(t).hash());
    assertThat(c.lt()).isEqualTo(walletTx(t).lt());
    JettonDelivery d = c.jetton();
    assertThat(d.delivered()).isTrue();
    assertThat(d.master()).isEqualTo(master.toRaw());
    assertThat(d.amount()).isEqualTo(BigInteger.valueOf(250));
    assertThat(d.queryId()).isEqualTo(7001);
    assertThat(d.senderJettonWallet()).isEqualTo(ours.toRaw());
    assertThat(d.senderTxHash()).isEqualTo(senderTx.hash());
    assertThat(d.senderLt()).isEqualTo(senderTx.lt());
    assertThat(d.receiverJettonWallet()).isEqualTo(theirs.toRaw());
    assertThat(d.receiverTxHash()).as("the receiver jetton wallet's transaction on devnet").isEqualTo(receiverTx.hash());
    assertThat(d.receiverLt()).isEqualTo(receiverTx.lt());
    assertThat(d.exitCode()).isNull();
    assertThat(devnet.jettonWallet(master, BOB).balance()).isEqualTo(BigInteger.valueOf(250));
    assertThat(poller.metrics.verdicts(ConfirmationStatus.BOUNCED)).isZero();

    poller.round();
    assertThat(poller.confirmations.isEmpty()).isTrue();
  }

  @ParameterizedTest
  @EnumSource(JettonFlavor.class)
  void shouldFailWithTheExitCodeWhenOurJettonWalletHoldsTooFew(JettonFlavor flavor) {
    long sub = 3002;
    TonAddress master = jettonOf(flavor, sub);
    TonAddress ours = jettonWallet(master, wallets.address(sub));

    Confirmation c = pay(master, sub, 7002, MINTED.longValueExact() + 1, BOB, ATTACHED);

    int code = flavor == JettonFlavor.REFERENCE ? 706 : 47;
    DevnetTransaction refused = onlyFrom(ours, wallets.address(sub));
    assertThat(c.status()).isEqualTo(ConfirmationStatus.FAILED);
    assertThat(c.reason()).contains("exit code " + code, "not enough jettons");
    assertThat(c.txHash()).as("the wallet's transaction: its seqno is consumed")
        .isEqualTo(Wallets.transactionOf(devnet, wallets.address(sub), c.messageHash()).orElseThrow().hash());
    assertThat(c.jetton().exitCode()).isEqualTo(code);
    assertThat(c.jetton().failedAccount()).isEqualTo(ours.toRaw());
    assertThat(c.jetton().senderTxHash()).isEqualTo(refused.hash());
    assertThat(c.jetton().receiverTxHash()).isNull();
    assertThat(c.jetton().delivered()).isFalse();
    assertThat(devnet.jettonWallet(master, wallets.address(sub)).balance()).isEqualTo(MINTED);
  }

  @ParameterizedTest
  @EnumSource(JettonFlavor.class)
  void shouldFailWithTheExitCodeWhenTooLittleTonIsAttached(JettonFlavor flavor) {
    long sub = 3003;
    TonAddress master = jettonOf(flavor, sub);
    // the reference wallet refuses 0.01 TON, the stablecoin accepts 0.01 and refuses 0.005 (TON-FACTS)
    long attached = flavor == JettonFlavor.REFERENCE ? 10_000_000 : 5_000_000;

    Confirmation c = pay(master, sub, 7003, 100, BOB, attached);

    int code = flavor == JettonFlavor.REFERENCE ? 709 : 48;
    assertThat(c.status()).isEqualTo(ConfirmationStatus.FAILED);
    assertThat(c.reason()).contains("exit code " + code, "not enough TON");
    assertThat(c.jetton().exitCode()).isEqualTo(code);
    assertThat(c.jetton().failedAccount()).isEqualTo(jettonWallet(master, wallets.address(sub)).toRaw());
  }

  @Test
  void shouldFailALockedReceiversRefusalOnlyWithOurJettonWalletsReCredit() {
    long sub = 3004;
    TonAddress master = stablecoinBobCannotReceive(sub);
    TonAddress ours = jettonWallet(master, wallets.address(sub));
    TonAddress theirs = jettonWallet(master, BOB);

    Confirmation c = pay(master, sub, 7004, 300, BOB, ATTACHED);

    DevnetTransaction refusal = onlyFrom(theirs, ours);
    DevnetTransaction recredit = onlyFrom(ours, theirs);
    assertThat(recredit.inMsg().bounced()).isTrue();
    assertThat(c.status()).isEqualTo(ConfirmationStatus.FAILED);
    assertThat(c.reason()).contains("exit code 45", "locked", refusal.hash(), recredit.hash());
    JettonDelivery d = c.jetton();
    assertThat(d.exitCode()).isEqualTo(45);
    assertThat(d.failedAccount()).isEqualTo(theirs.toRaw());
    assertThat(d.receiverJettonWallet()).isEqualTo(theirs.toRaw());
    assertThat(d.returnTxHash()).as("the re-credit").isEqualTo(recredit.hash());
    assertThat(d.delivered()).isFalse();
    assertThat(devnet.jettonWallet(master, wallets.address(sub)).balance()).isEqualTo(MINTED);
  }

  @Test
  void shouldNeverTakeAForeignLookAlikeForOurDelivery() {
    long sub = 3005;
    long foreigner = 3006;
    TonAddress master = jettonOf(JettonFlavor.REFERENCE, sub);
    devnet.fund(wallets.address(foreigner), 5 * TON);
    devnet.mintJettons(master, wallets.address(foreigner), MINTED);
    TonAddress ours = jettonWallet(master, wallets.address(sub));
    TonAddress theirs = jettonWallet(master, BOB);
    // the same query_id and amount to the same receiver from another owner's jetton wallet, sent
    // first: its receipt comes after our jetton wallet's transaction, before our own receipt
    send(poller.api, signJetton(master, foreigner, 0, 7005, 400, BOB, ATTACHED));
    SignedTransfer t = signJetton(master, sub, 0, 7005, 400, BOB, ATTACHED);
    send(poller.api, t);
    poller.watch(submission(t, master, 7005, 400, BOB));

    Confirmation c = verdictWithin(3);

    DevnetTransaction lookAlike = onlyFrom(theirs, jettonWallet(master, wallets.address(foreigner)));
    DevnetTransaction receipt = onlyFrom(theirs, ours);
    assertThat(lookAlike.lt()).as("the look-alike is above our trail's floor and older than ours")
        .isGreaterThan(onlyFrom(ours, wallets.address(sub)).lt()).isLessThan(receipt.lt());
    assertThat(c.status()).isEqualTo(ConfirmationStatus.CONFIRMED);
    assertThat(c.jetton().receiverTxHash()).isEqualTo(receipt.hash()).isNotEqualTo(lookAlike.hash());
  }

  @Test
  void shouldNotConfirmOnALookAlikeWhileOursHasNotArrived() {
    long sub = 3007;
    long foreigner = 3008;
    TonAddress master = jettonOf(JettonFlavor.REFERENCE, sub);
    devnet.fund(wallets.address(foreigner), 5 * TON);
    devnet.mintJettons(master, wallets.address(foreigner), MINTED);
    // ours is refused by our own jetton wallet (too little TON); the look-alike is delivered in the same block
    SignedTransfer t = signJetton(master, sub, 0, 7007, 400, BOB, 10_000_000);
    send(poller.api, t);
    send(poller.api, signJetton(master, foreigner, 0, 7007, 400, BOB, ATTACHED));
    poller.watch(submission(t, master, 7007, 400, BOB));

    Confirmation c = verdictWithin(3);

    assertThat(devnet.jettonWallet(master, BOB).balance()).as("the look-alike arrived").isEqualTo(BigInteger.valueOf(400));
    assertThat(c.status()).isEqualTo(ConfirmationStatus.FAILED);
    assertThat(c.jetton().exitCode()).isEqualTo(709);
    assertThat(poller.metrics.verdicts(ConfirmationStatus.CONFIRMED)).isZero();
  }

  @Test
  void shouldOnlyWaitWhileTheNodeCannotServeTheJettonWalletsTransactions() {
    startTheBlockFeed(); // the wallet's own transactions come from the blocks, not getTransactions
    long sub = 3011;
    TonAddress master = jettonOf(JettonFlavor.REFERENCE, sub);
    SignedTransfer t = signJetton(master, sub, 0, 7011, 100, BOB, ATTACHED);
    send(poller.api, t);
    poller.watch(submission(t, master, 7011, 100, BOB));
    devnet.faults().withhold(java.util.Set.of("getTransactions"));

    poller.round(); // handed over (seen in the block), its follow refused
    poller.round();

    assertThat(poller.confirmations.isEmpty()).as("no verdict from a node that does not answer").isTrue();
    assertThat(poller.store().get(String.valueOf(sub)).pending()).singleElement()
        .satisfies(w -> assertThat(w.handedOver()).isTrue());
    assertThat(poller.metrics.count(PollerMetrics.WALLET_POLL_FAILURES)).isPositive();
    devnet.faults().withhold(java.util.Set.of());
    assertThat(verdictWithin(1).status()).isEqualTo(ConfirmationStatus.CONFIRMED);
  }

  @Test
  void shouldFollowTheJettonWalletsWhenTheBlockFeedCoversTheWallet() {
    startTheBlockFeed();
    long sub = 3010;
    TonAddress master = jettonOf(JettonFlavor.STABLECOIN, sub);
    double scansBefore = poller.metrics.walletsObserved("scan");

    Confirmation c = pay(master, sub, 7010, 500, BOB, ATTACHED);

    assertThat(c.status()).isEqualTo(ConfirmationStatus.CONFIRMED);
    assertThat(c.jetton().receiverTxHash()).isEqualTo(onlyFrom(jettonWallet(master, BOB),
        jettonWallet(master, wallets.address(sub))).hash());
    assertThat(poller.metrics.walletsObserved("scan")).as("the wallet from the feed").isEqualTo(scansBefore);
    assertThat(poller.metrics.walletsObserved("feed")).isPositive();
  }

  @Test
  void shouldConfirmInTheRoundThatSeesTheWalletHandTheTransferOver() {
    startTheBlockFeed();
    long sub = 3012;
    TonAddress master = jettonOf(JettonFlavor.STABLECOIN, sub);
    SignedTransfer t = signJetton(master, sub, 0, 7012, 150, BOB, ATTACHED);
    send(poller.api, t);
    poller.watch(submission(t, master, 7012, 150, BOB));
    double reads = poller.metrics.apiCalls("getTransactions");
    double masterchainReads = poller.metrics.apiCalls("getMasterchainInfo");

    poller.round(); // one block: the wallet's, our jetton wallet's and the receiver's jetton wallet's transactions

    assertThat(poller.confirmations.isEmpty()).as("a verdict in the round that saw the hand-over").isFalse();
    Confirmation c = poller.confirmations.readValue();
    assertThat(c.status()).isEqualTo(ConfirmationStatus.CONFIRMED);
    assertThat(c.txHash()).as("the wallet's transaction").isEqualTo(walletTx(t).hash());
    assertThat(c.jetton().receiverTxHash()).isEqualTo(onlyFrom(jettonWallet(master, BOB),
        jettonWallet(master, wallets.address(sub))).hash());
    assertThat(poller.metrics.apiCalls("getMasterchainInfo") - masterchainReads).as("one round").isEqualTo(1);
    assertThat(poller.metrics.apiCalls("getTransactions") - reads)
        .as("the wallet from the feed, then one page of our jetton wallet and one of the receiver's").isEqualTo(2);
    assertThat(poller.store().get(String.valueOf(sub)).pending()).isEmpty();
  }

  @Test
  void shouldFollowAHandOverSeenBetweenBlocksInThatRound() {
    startTheBlockFeed();
    long busy = 3013;
    devnet.fund(wallets.address(busy), 5 * TON);
    poller.watch(Wallets.submission(poller.sign(busy, 0, BOB, TON), "req-pending", poller.clock.instant()));
    long sub = 3014;
    TonAddress master = jettonOf(JettonFlavor.REFERENCE, sub);
    SignedTransfer t = signJetton(master, sub, 0, 7014, 120, BOB, ATTACHED);
    send(poller.api, t);
    poller.round(); // the feed reads the block before the transfer's submission reaches the poller
    long height = devnet.masterchainSeqno();

    poller.watch(submission(t, master, 7014, 120, BOB));
    poller.idleRound(); // a tick, no new block: the wallet's transaction is found in the feed's blocks

    assertThat(devnet.masterchainSeqno()).isEqualTo(height);
    assertThat(poller.confirmations.isEmpty()).as("followed in the round that saw the hand-over").isFalse();
    Confirmation c = poller.confirmations.readValue();
    assertThat(c.status()).isEqualTo(ConfirmationStatus.CONFIRMED);
    assertThat(c.messageHash()).isEqualTo(t.messageHash());
    assertThat(c.jetton().receiverTxHash()).isEqualTo(onlyFrom(jettonWallet(master, BOB),
        jettonWallet(master, wallets.address(sub))).hash());
  }

  @Test
  void shouldFollowOnInLaterRoundsWhatTheJettonWalletsHaveNotDoneYet() {
    long sub = 3015;
    TonAddress master = stablecoinBobCannotReceive(sub);
    TonAddress ours = jettonWallet(master, wallets.address(sub));
    TonAddress theirs = jettonWallet(master, BOB);
    devnet.delayBounces(2); // the receiver's bounce back reaches our jetton wallet two blocks after its refusal
    SignedTransfer t = signJetton(master, sub, 0, 7015, 300, BOB, ATTACHED);
    send(poller.api, t);
    poller.watch(submission(t, master, 7015, 300, BOB));

    poller.round(); // the hand-over, our jetton wallet's hand-on and the receiver's refusal: all in this block

    assertThat(poller.confirmations.isEmpty()).as("no verdict before the re-credit").isTrue();
    WatchedTransfer waiting = poller.store().get(String.valueOf(sub)).pending().get(0);
    assertThat(waiting.trail().stage()).as("followed up to the refusal in the round that saw the hand-over")
        .isEqualTo(JettonTrail.Stage.RECREDIT);
    DevnetTransaction refusal = onlyFrom(theirs, ours);
    assertThat(waiting.trail().receiver().txHash()).isEqualTo(refusal.hash());
    assertThat(waiting.trail().cursor().floorLt()).isGreaterThanOrEqualTo(refusal.lt());
    double reads = poller.metrics.apiCalls("getTransactions");

    poller.round(); // the bounce is still on its way: the search finds nothing and goes on next round

    assertThat(poller.confirmations.isEmpty()).isTrue();
    assertThat(poller.metrics.apiCalls("getTransactions") - reads)
        .as("one page of our jetton wallet above the refusal, no other account").isEqualTo(1);
    assertThat(poller.store().get(String.valueOf(sub)).pending().get(0).trail().stage())
        .isEqualTo(JettonTrail.Stage.RECREDIT);

    Confirmation c = verdictWithin(2);
    DevnetTransaction recredit = onlyFrom(ours, theirs);
    assertThat(c.status()).isEqualTo(ConfirmationStatus.FAILED);
    assertThat(c.jetton().exitCode()).isEqualTo(45);
    assertThat(c.jetton().returnTxHash()).isEqualTo(recredit.hash());
    assertThat(recredit.lt()).isGreaterThan(refusal.lt());
  }

  @Test
  void shouldNotReadTheReceiversJettonWalletWhenOursSentNothingOn() {
    startTheBlockFeed();
    long sub = 3016;
    TonAddress master = jettonOf(JettonFlavor.REFERENCE, sub);
    double reads = poller.metrics.apiCalls("getTransactions");

    Confirmation c = pay(master, sub, 7016, MINTED.longValueExact() + 1, BOB, ATTACHED); // too few jettons

    assertThat(c.status()).isEqualTo(ConfirmationStatus.FAILED);
    assertThat(c.jetton().exitCode()).isEqualTo(706);
    assertThat(poller.metrics.apiCalls("getTransactions") - reads)
        .as("our jetton wallet only: its refusal sent no internal_transfer to follow").isEqualTo(1);
  }

  /** A poller with the block feed on, started by a first payout; what follows is submitted after it started. */
  private void startTheBlockFeed() {
    poller.restart(PollerDriver.SETTINGS.withFeedRetention(Duration.ofMinutes(1)));
    poller.deploy(3009);
    poller.clock.advance(PollerDriver.SKEW.plusSeconds(2));
  }
}
