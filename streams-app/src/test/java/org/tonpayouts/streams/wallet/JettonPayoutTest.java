package org.tonpayouts.streams.wallet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.tonpayouts.streams.PayoutTestKit.FIRST_SUBWALLET;
import static org.tonpayouts.streams.PayoutTestKit.TON;
import static org.tonpayouts.streams.PayoutTestKit.recipient;
import static org.tonpayouts.streams.PayoutTestKit.request;

import java.math.BigInteger;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.devnet.chain.jetton.JettonFlavor;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.jettons.JettonCatalog;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.ConfirmationStatus;
import org.tonpayouts.schemas.JettonAmount;
import org.tonpayouts.schemas.JettonDelivery;
import org.tonpayouts.schemas.JettonOrder;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.schemas.Submission;
import org.tonpayouts.schemas.TransferKind;
import org.tonpayouts.schemas.TransferRequest;
import org.tonpayouts.streams.PayoutTestKit;
import org.tonpayouts.streams.ledger.sql.TransferRow;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.ChainMessage;
import org.tonpayouts.ton.api.ChainTransaction;
import org.tonpayouts.ton.cell.TonCell;
import org.tonpayouts.ton.jetton.JettonMessage;
import org.tonpayouts.ton.jetton.JettonTransfer;

/**
 * streams-app pays a jetton on devnet's real jetton contracts (the stablecoin's rules): its
 * jetton wallet resolved and kept, the balances checked before signing, one query_id and one seqno
 * for every attempt, and a settlement only on the verdict that names the receiver's acceptance.
 * The test plays the chain poller, reading the verdict's transactions off devnet.
 */
class JettonPayoutTest {
  private static final BigInteger MINTED = BigInteger.valueOf(100_000_000);
  private WalletTxHarness h;
  private TonAddress master;

  private void start(WalletTxHarness harness) {
    h = harness;
    master = h.devnet.deployJetton(JettonFlavor.STABLECOIN, "https://example.org/usdt.json");
    h.reconfigure(Map.of(PayoutsConfig.JETTONS_CONFIG,
        "USDT master=" + master.toFriendly(true, false) + " decimals=6 max.transfer=10000000000"));
  }

  @AfterEach
  void close() {
    if (h != null) {
      h.close();
    }
  }

  private TransferRequest jetton(String id, TonAddress payee, long amount, String comment) {
    return TransferRequest.ofJetton(id, TransferKind.WITHDRAWAL, payee.toFriendly(false, false),
        new JettonAmount(master.toFriendly(true, false), BigInteger.valueOf(amount)), comment);
  }

  /** Subwallet {@code id} funded with 10 TON and minted {@link #MINTED} jettons. */
  private TonAddress payingWallet(long id) {
    TonAddress wallet = h.fund(id, 10 * TON);
    h.devnet.mintJettons(master, wallet, MINTED);
    return wallet;
  }

  private BigInteger jettonsOf(TonAddress owner) {
    return h.devnet.jettonWallet(master, owner).balance();
  }

  @Test
  void shouldPayAJettonAndSettleOnlyOnTheReceiversAcceptance() throws Exception {
    start(WalletTxHarness.onRunningChain(getClass()));
    long id = FIRST_SUBWALLET + 600;
    TonAddress wallet = payingWallet(id);
    TonAddress payee = recipient(600);
    PayoutRequest request = request("j-1", id, jetton("w-1", payee, 2_500_000, "order 77"));
    h.send(request);

    Submission s = h.issueOne();

    TonAddress ours = h.devnet.jettonWallet(master, wallet).address();
    assertThat(s.jetton()).isEqualTo(new JettonOrder(master.toRaw(), BigInteger.valueOf(2_500_000),
        request.jettonQueryId(0), ours.toRaw(), JettonCatalog.DEFAULT_FORWARD_NANO));
    assertThat(s.amountNano()).as("the TON attached").isEqualTo(JettonCatalog.DEFAULT_ATTACH_NANO);
    assertThat(s.messageDestination()).isEqualTo(ours.toRaw());
    ChainTransaction walletTx = PayoutTestKit.awaitTransaction(h.api, s);
    assertThat(walletTx.outMsgs()).singleElement().extracting(ChainMessage::destination).isEqualTo(ours);
    await("the payee's jettons").atMost(Duration.ofSeconds(10))
        .until(() -> jettonsOf(payee).equals(BigInteger.valueOf(2_500_000)));
    assertThat(jettonsOf(wallet)).isEqualTo(MINTED.subtract(BigInteger.valueOf(2_500_000)));

    // the wallet's transaction only handed the transfer over: a verdict resting on it alone settles nothing
    h.pipe(PayoutTestKit.verdictOf(s, walletTx));
    assertThat(h.settlements.readValuesToList()).isEmpty();
    assertThat(h.metrics.count("ton.tx.verdicts_refused")).isEqualTo(1.0);

    JettonDelivery delivery = deliveryOf(s);
    h.pipe(PayoutTestKit.verdictOf(s, walletTx).withJetton(delivery));

    Settlement settled = h.settlements.readValuesToList().get(0);
    assertThat(settled.status()).isEqualTo(SettlementStatus.SETTLED);
    assertThat(settled.txHash()).isEqualTo(walletTx.id().hash());
    assertThat(settled.jetton()).isEqualTo(request.transfer(0).jetton());
    assertThat(settled.jettonDelivery()).isEqualTo(delivery);
    assertThat(delivery.receiverJettonWallet()).isEqualTo(h.devnet.jettonWallet(master, payee).address().toRaw());
    TransferRow row = h.ledger.queries().transfer("j-1", "w-1").orElseThrow();
    assertThat(row.jettonQueryId()).as("recorded with the intent").isEqualTo(request.jettonQueryId(0));
    assertThat(row.jettonDelivery()).as("kept with the verdict").isEqualTo(delivery);
  }

  @Test
  void shouldFailBeforeSigningWhenTheJettonBalanceCannotPay() throws Exception {
    start(WalletTxHarness.onRunningChain(getClass()));
    long poor = FIRST_SUBWALLET + 610;
    long none = FIRST_SUBWALLET + 611;
    h.devnet.mintJettons(master, h.fund(poor, 10 * TON), BigInteger.valueOf(1_000));
    h.fund(none, 10 * TON);
    h.send(request("j-poor", poor, jetton("w", recipient(610), 2_500_000, null)));
    h.send(request("j-none", none, jetton("w", recipient(611), 1, null)));

    assertThat(h.issue()).as("nothing signed").isEmpty();

    List<Settlement> failed = h.settlements.readValuesToList();
    assertThat(failed).extracting(Settlement::status).containsOnly(SettlementStatus.FAILED);
    assertThat(failed).filteredOn(f -> f.requestId().equals("j-poor")).singleElement()
        .extracting(Settlement::reason).asString()
        .contains("insufficient jetton balance").contains("holds 0.001 USDT (1000 base units)")
        .contains("the transfer needs 2.5 USDT (2500000 base units)");
    assertThat(failed).filteredOn(f -> f.requestId().equals("j-none")).singleElement()
        .extracting(Settlement::reason).asString().contains("is not deployed (it never held USDT)");
    assertThat(failed).allSatisfy(f -> assertThat(f.jetton()).isNotNull());
  }

  @Test
  void shouldFailAJettonTheReceiverRefusedAndAbortTheRestOfItsRequest() throws Exception {
    start(WalletTxHarness.onRunningChain(getClass()));
    long id = FIRST_SUBWALLET + 620;
    TonAddress wallet = payingWallet(id);
    TonAddress payee = recipient(620);
    h.devnet.mintJettons(master, payee, BigInteger.ONE);
    h.devnet.setJettonWalletStatus(master, payee, 2); // receiving locked: it bounces what it is sent
    h.send(request("j-mixed", id, jetton("jetton", payee, 2_500_000, null),
        new TransferRequest("fee", TransferKind.COMMISSION_SWEEP, recipient(621).toRaw(), TON / 10, null, false)));

    Submission s = h.issueOne();
    ChainTransaction walletTx = PayoutTestKit.awaitTransaction(h.api, s);
    TonAddress sender = TonAddress.parse(s.jetton().senderJettonWallet());
    TonAddress receiver = h.devnet.jettonWallet(master, payee).address();
    ChainTransaction recredit = awaitTransaction(sender, tx -> tx.inMsg() != null
        && receiver.equals(tx.inMsg().source()) && tx.inMsg().isBounce());
    assertThat(jettonsOf(wallet)).as("re-credited").isEqualTo(MINTED);
    ChainTransaction refused = awaitTransaction(receiver, tx -> tx.inMsg() != null
        && sender.equals(tx.inMsg().source()));

    h.pipe(Confirmation.of(s.requestId(), s.transferId(), s.subwalletId(), s.messageHash(), s.seqno(),
        ConfirmationStatus.FAILED, walletTx.id().hash(), walletTx.id().lt(), walletTx.utime(), walletTx.fee(),
        "the receiver's jetton wallet refused the transfer", h.clock.instant()).withJetton(new JettonDelivery(
        master.toRaw(), BigInteger.valueOf(2_500_000), s.jetton().queryId(), sender.toRaw(), null, null,
        receiver.toRaw(), refused.id().hash(), refused.id().lt(), null, receiver.toRaw(), recredit.id().hash())));

    List<Settlement> settled = h.settlements.readValuesToList();
    assertThat(settled).extracting(x -> x.transferId() + "=" + x.status()).containsExactly("jetton=FAILED",
        "fee=ABORTED");
    assertThat(settled.get(0).jettonDelivery().returnTxHash()).isEqualTo(recredit.id().hash());
    assertThat(jettonsOf(payee)).isEqualTo(BigInteger.ONE);
    assertThat(h.paymentsTo(wallet, recipient(621))).as("the TON transfer after it was never sent").isEmpty();
  }

  @Test
  void shouldKeepOneSeqnoAndOneQueryIdForEveryAttemptOfAJettonTransfer() throws Exception {
    start(new WalletTxHarness(getClass(), Map.of()));
    long id = FIRST_SUBWALLET + 630;
    TonAddress wallet = payingWallet(id);
    TonAddress payee = recipient(630);
    PayoutRequest request = request("j-retry", id, jetton("w", payee, 7_000_000, "retry me"));
    h.send(request);

    Submission first = h.issueOne();
    h.restartWithLostState(); // a crash after the intent: the same message is resumed, not signed again
    h.send(request); // the request read again from its topic
    Submission resumed = h.issueOne();
    assertThat(resumed.messageHash()).isEqualTo(first.messageHash());
    assertThat(resumed.jetton()).isEqualTo(first.jetton());

    h.pipe(h.expireOnChain(first));
    Submission second = h.issueOne();
    assertThat(second.attempt()).isEqualTo(2);
    assertThat(second.seqno()).isEqualTo(first.seqno());
    assertThat(second.messageHash()).isNotEqualTo(first.messageHash());
    assertThat(second.jetton()).as("same query_id, same jetton wallet").isEqualTo(first.jetton());

    h.block();
    h.block();
    h.block();
    assertThat(jettonsOf(payee)).as("paid once").isEqualTo(BigInteger.valueOf(7_000_000));
    assertThat(h.ledger.jettonWallets().find(wallet.toRaw(), master.toRaw()))
        .contains(TonAddress.parse(first.jetton().senderJettonWallet()).toRaw());
  }

  /** Plays the poller: the jetton wallets' transactions of a delivered jetton transfer, read off devnet. */
  private JettonDelivery deliveryOf(Submission s) {
    TonAddress wallet = TonAddress.parse(s.walletAddress());
    TonAddress sender = TonAddress.parse(s.jetton().senderJettonWallet());
    long queryId = s.jetton().queryId();
    ChainTransaction senderTx = awaitTransaction(sender, tx -> tx.inMsg() != null
        && wallet.equals(tx.inMsg().source()) && carries(tx.inMsg(), body -> JettonTransfer.parse(body).queryId() == queryId));
    TonAddress receiver = senderTx.outMsgs().get(0).destination();
    ChainTransaction receiverTx = awaitTransaction(receiver, tx -> tx.inMsg() != null
        && sender.equals(tx.inMsg().source()) && carries(tx.inMsg(), body -> JettonMessage.read(body)
        instanceof JettonMessage.InternalTransfer t && t.queryId() == queryId));
    return new JettonDelivery(s.jetton().master(), s.jetton().amount(), queryId, sender.toRaw(),
        senderTx.id().hash(), senderTx.id().lt(), receiver.toRaw(), receiverTx.id().hash(), receiverTx.id().lt(), null,
        null, null);
  }

  private static boolean carries(ChainMessage message, Predicate<TonCell> body) {
    try {
      return message.bodyBase64() != null && body.test(TonCell.fromBase64(message.bodyBase64()));
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private ChainTransaction awaitTransaction(TonAddress account, Predicate<ChainTransaction> which) {
    return await("a transaction of " + account.toRaw()).atMost(Duration.ofSeconds(10)).until(
        () -> h.api.getTransactions(account, 20, null, null).join().stream().filter(which).findFirst(),
        Optional::isPresent).orElseThrow();
  }
}
