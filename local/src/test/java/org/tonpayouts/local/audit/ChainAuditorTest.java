package org.tonpayouts.local.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.devnet.chain.DevnetTransaction;
import org.tonpayouts.local.audit.ChainAudit.JettonFigures;
import org.tonpayouts.local.audit.ChainAudit.Rule;
import org.tonpayouts.local.stack.LocalStack;
import org.tonpayouts.local.stack.WalletSet;
import org.tonpayouts.runtime.jettons.JettonCatalog;
import org.tonpayouts.schemas.JettonDelivery;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.schemas.TransferKind;
import org.tonpayouts.streams.ledger.sql.LedgerSchema;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;
import org.tonpayouts.ton.keys.WalletKey;
import org.tonpayouts.ton.wallet.SignedTransfer;
import org.tonpayouts.ton.wallet.Subwallets;
import org.tonpayouts.ton.wallet.TransferOrder;
import org.tonpayouts.ton.wallet.TransferSigner;

/**
 * The auditor catches what it is there to catch: a real devnet chain, ledger and settlements
 * topic with every kind of wrong the soak looks for put there on purpose (a transfer paid twice,
 * one never settled, a leg paid after its failed predecessor, a payment nobody asked for, a ledger
 * row that is not its chain transaction, a fenced message on chain, a jetton settled without its
 * delivery, jetton balances the settlements do not account for, ...). A clean run finding nothing
 * is only worth something if this one finds them all.
 */
class ChainAuditorTest {
  private static final long A = Subwallets.DEFAULT_SUBWALLET_ID;
  private static final long B = A + 1;
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
  /** Where the foreign signer pays unless told otherwise: an address nobody else in the test pays. */
  private static final TonAddress FOREIGN_DESTINATION = TonAddress.of(TonAddress.BASECHAIN,
      sha256("payouts soak: foreign signer"));
  /** What the jetton cases mint to both paying wallets before anything is paid: 1,000 USDT. */
  private static final BigInteger MINTED = BigInteger.valueOf(1_000_000_000L);
  /** A jetton owner whose stablecoin wallet refuses every transfer: it holds one unit, minted to deploy it. */
  private static final TonAddress LOCKED_RECEIVER = TonAddress.of(TonAddress.BASECHAIN,
      sha256("audit: receiving-locked jetton owner"));
  private static final BigInteger LOCKED_RECEIVER_HELD = BigInteger.ONE;

  private LocalStack stack;
  private Devnet devnet;
  private TonApiClient api;
  private WalletKey key;
  private WalletSet wallets;
  private TransferSigner signer;

  @BeforeEach
  void start() {
    stack = LocalStack.start(1, Optional.of(Duration.ofMillis(50)));
    devnet = stack.devnet().orElseThrow();
    LedgerSchema.migrate(stack.postgres().dataSource(LocalStack.LEDGER_DATABASE));
    api = new TonApiClient(TonApiConfig.of(devnet.apiUrl()).withRequestsPerSecond(1_000));
    key = WalletKey.fromSeedHex("11".repeat(32));
    Subwallets subwallets = new Subwallets(key, 0);
    wallets = new WalletSet(subwallets, A, 2, 5);
    signer = new TransferSigner(subwallets);
    devnet.fund(wallets.address(A), 10_000_000_000L);
    devnet.fund(wallets.address(B), 10_000_000_000L);
  }

  @AfterEach
  void stop() {
    api.close();
    stack.close();
  }

  @Test
  void shouldFindEveryKindOfWrongPutOnChainInTheLedgerAndOnTheTopics() throws Exception {
    ExpectedTransfer paidTwice = expected("r1", "payout", 0, A, wallets.recipient(0), 10_000_000L);
    ExpectedTransfer neverSettled = expected("r2", "payout", 0, A, wallets.recipient(1), 20_000_000L);
    ExpectedTransfer failedLeg = expected("r3", "payout", 0, B, wallets.recipient(2), 30_000_000L);
    ExpectedTransfer legAfterIt = expected("r3", "commission-1", 1, B, wallets.treasury(), 1_000_000L);

    // the chain: r1 paid twice, r2 paid with another amount, r3's second leg paid without its first,
    // a payment nobody asked for, and a foreign signer's payment (expected, counted apart)
    SignedTransfer first = pay(A, paidTwice, paidTwice.amountNano());
    SignedTransfer second = pay(A, paidTwice, paidTwice.amountNano());
    pay(A, neverSettled, 99L);
    pay(B, legAfterIt, legAfterIt.amountNano());
    SignedTransfer nobodys = send(B, new TransferOrder(wallets.recipient(4), 5_000_000L, "who asked?", false));
    SignedTransfer foreign = send(B, new TransferOrder(FOREIGN_DESTINATION, 3_000_000L, "foreign 1", false));
    DevnetTransaction tx1 = transactionOf(A, first);

    // the ledger: r1 recorded as paid by tx1 but with another lt; the second message of r1 refused by fencing
    try (Connection c = DriverManager.getConnection(stack.ledgerJdbcUrl(), stack.postgres().user(),
        stack.postgres().password())) {
      request(c, "r1", A, 1);
      request(c, "r2", A, 1);
      request(c, "r3", B, 2);
      transfer(c, paidTwice, 0L, "SETTLED", tx1.hash());
      message(c, paidTwice, first, "CONFIRMED", tx1.hash(), tx1.lt() + 1);
      fenced(c, paidTwice, second);
    }

    // the settlements: r1 twice, r2 never, r3's first leg FAILED with another amount and its second ABORTED
    // (though paid), and a transfer nobody requested
    settle(settlement(paidTwice, SettlementStatus.SETTLED, tx1.hash(), tx1.lt(), paidTwice.amountNano()));
    settle(settlement(paidTwice, SettlementStatus.SETTLED, tx1.hash(), tx1.lt(), paidTwice.amountNano()));
    settle(settlement(failedLeg, SettlementStatus.FAILED, null, null, 31_000_000L));
    settle(settlement(legAfterIt, SettlementStatus.ABORTED, null, null, legAfterIt.amountNano()));
    settle(settlement(expected("rX", "payout", 0, A, wallets.recipient(3), 1L), SettlementStatus.SETTLED,
        tx1.hash(), tx1.lt(), 1L));
    // r2 produced again with other content (a comment marked "reused id"), which never reached payout.rejected
    ReusedRequestId reused = new ReusedRequestId("r2", A, "reused id");

    ChainAudit audit = ChainAuditor.audit(sources(), new ChainAuditor.Expectations(
        List.of(paidTwice, neverSettled, failedLeg, legAfterIt), List.of(reused),
        List.of(new ForeignPayment(wallets.address(B), FOREIGN_DESTINATION, 3_000_000L, "foreign 1",
            foreign.messageHash()))));

    Set<Rule> found = audit.violations().stream().map(ChainAudit.Violation::rule).collect(Collectors.toSet());
    assertThat(found).as("%s", audit.violations()).containsExactlyInAnyOrder(Rule.DOUBLE_PAYOUT, Rule.LOST_TRANSFER,
        Rule.DUPLICATE_SETTLEMENT, Rule.SETTLEMENT_NOT_AS_REQUESTED, Rule.SETTLED_NOT_ON_CHAIN,
        Rule.PAID_NOT_AS_REQUESTED, Rule.PAID_BUT_REPORTED_UNPAID, Rule.LEG_OUT_OF_ORDER, Rule.LEDGER_NOT_CHAIN,
        Rule.SIGNED_OUTSIDE_LEDGER, Rule.UNREQUESTED_PAYMENT, Rule.UNEXPECTED_SETTLEMENT, Rule.REUSED_ID_NOT_REJECTED,
        Rule.FENCED_MESSAGE_USED);
    assertThat(audit.violations()).anySatisfy(v -> assertThat(v.detail()).contains("r1/payout").contains("2 times"));
    assertThat(audit.violations()).anySatisfy(v -> assertThat(v.detail()).contains(nobodys.messageHash()));
    assertThat(audit.doublePayouts()).isEqualTo(1);
    assertThat(audit.lostTransfers()).isEqualTo(1);
    assertThat(audit.foreignLanded()).as("the foreign signer's payment is counted, not a violation").isEqualTo(1);
    assertThat(audit.violations()).noneSatisfy(v -> assertThat(v.detail()).contains(foreign.messageHash()));
    assertThat(audit.appliedMessages()).isEqualTo(6);
    assertThat(audit.fencedRefusals()).isEqualTo(1);
  }

  /**
   * A foreign signer pays a repeated payee of wallet A (the destination and amount of two of our
   * transfers, r1 landed, r2 in flight) ahead of r2, taking its seqno, and once with another
   * amount: both are the signer's, counted apart, neither is a landing of r2 or r1. A payment just
   * like the first whose comment the signer never recorded, and a second copy of the first, are
   * nobody's.
   */
  @Test
  void shouldCountTheForeignSignersPaymentsToARepeatedPayeeApartAndNothingElse() throws Exception {
    ExpectedTransfer r1 = expected("r1", "payout", 0, A, wallets.recipient(0), 10_000_000L);
    ExpectedTransfer r2 = expected("r2", "payout", 0, A, wallets.recipient(0), 10_000_000L);
    SignedTransfer first = pay(A, r1, r1.amountNano());
    DevnetTransaction tx1 = transactionOf(A, first);
    long r2Seqno = devnet.seqno(wallets.address(A));
    ForeignPayment frontRun = frontRun(A, r2.destination(), r2.amountNano(), "foreign 1");
    SignedTransfer otherAmount = send(A, new TransferOrder(r2.destination(), r2.amountNano() + 500_000L, "foreign 2",
        false));
    ForeignPayment signed = new ForeignPayment(wallets.address(A), r2.destination(), r2.amountNano() + 500_000L,
        "foreign 2", otherAmount.messageHash());
    frontRun(A, r2.destination(), r2.amountNano(), "foreign 3");
    frontRun(A, r2.destination(), r2.amountNano(), "foreign 1");

    try (Connection c = DriverManager.getConnection(stack.ledgerJdbcUrl(), stack.postgres().user(),
        stack.postgres().password())) {
      request(c, "r1", A, 1);
      request(c, "r2", A, 1);
      transfer(c, r1, 0L, "SETTLED", tx1.hash());
      message(c, r1, first, "CONFIRMED", tx1.hash(), tx1.lt());
      transfer(c, r2, r2Seqno, "RECONCILIATION_REQUIRED", null);
    }
    settle(settlement(r1, SettlementStatus.SETTLED, tx1.hash(), tx1.lt(), r1.amountNano()));
    settle(settlement(r2, SettlementStatus.RECONCILIATION_REQUIRED, null, null, r2.amountNano()));

    ChainAudit audit = audit(List.of(frontRun, signed), List.of(r1, r2));

    assertThat(audit.violations()).as("%s", audit.violations()).hasSize(2)
        .allSatisfy(v -> assertThat(v.rule()).isEqualTo(Rule.UNREQUESTED_PAYMENT))
        .anySatisfy(v -> assertThat(v.detail()).contains("'foreign 3'"))
        .anySatisfy(v -> assertThat(v.detail()).contains("'foreign 1'"));
    assertThat(audit.landed()).as("r1 only").isEqualTo(1);
    assertThat(audit.doublePayouts()).isZero();
    assertThat(audit.foreignLandings()).extracting(ChainAudit.ForeignLanding::comment)
        .containsExactly("foreign 1", "foreign 2");
    ChainAudit.ForeignLanding took = audit.foreignLandings().get(0);
    assertThat(took.repeatedPayee()).isTrue();
    assertThat(took.sameAmount()).isTrue();
    assertThat(took.seqno()).isEqualTo(r2Seqno);
    assertThat(took.seqnoOf()).isEqualTo(r2.ref());
    assertThat(took.seqnoOfStatus()).isEqualTo(SettlementStatus.RECONCILIATION_REQUIRED);
    ChainAudit.ForeignLanding other = audit.foreignLandings().get(1);
    assertThat(other.repeatedPayee()).isTrue();
    assertThat(other.sameAmount()).isFalse();
    assertThat(other.seqnoOf()).as("no transfer of ours was bound to that seqno").isNull();
  }

  /**
   * The wrong this soak chaos exists to catch: a transfer whose seqno a foreign payment to its
   * payee took, reported SETTLED by that payment, or by an earlier payment of ours to the same
   * payee of the same amount.
   */
  @Test
  void shouldNotTakeAForeignPaymentOrAnEarlierOneToTheSamePayeeForOurTransfer() throws Exception {
    ExpectedTransfer r1 = expected("r1", "payout", 0, A, wallets.recipient(0), 10_000_000L);
    ExpectedTransfer r2 = expected("r2", "payout", 0, A, wallets.recipient(0), 10_000_000L);
    ExpectedTransfer r3 = expected("r3", "payout", 0, A, wallets.recipient(0), 10_000_000L);
    SignedTransfer first = pay(A, r1, r1.amountNano());
    DevnetTransaction tx1 = transactionOf(A, first);
    long r2Seqno = devnet.seqno(wallets.address(A));
    ForeignPayment a1 = frontRun(A, r2.destination(), r2.amountNano(), "foreign 1");
    long r3Seqno = devnet.seqno(wallets.address(A));
    ForeignPayment a2 = frontRun(A, r3.destination(), r3.amountNano() + 500_000L, "foreign 2");
    DevnetTransaction foreignTx = devnet.transactions(wallets.address(A)).stream()
        .filter(tx -> tx.outMsgs().size() == 1 && "foreign 1".equals(tx.outMsgs().get(0).comment())).findFirst()
        .orElseThrow();

    try (Connection c = DriverManager.getConnection(stack.ledgerJdbcUrl(), stack.postgres().user(),
        stack.postgres().password())) {
      request(c, "r1", A, 1);
      request(c, "r2", A, 1);
      request(c, "r3", A, 1);
      transfer(c, r1, 0L, "SETTLED", tx1.hash());
      message(c, r1, first, "CONFIRMED", tx1.hash(), tx1.lt());
      transfer(c, r2, r2Seqno, "SETTLED", foreignTx.hash());
      transfer(c, r3, r3Seqno, "SETTLED", tx1.hash());
    }
    settle(settlement(r1, SettlementStatus.SETTLED, tx1.hash(), tx1.lt(), r1.amountNano()));
    settle(settlement(r2, SettlementStatus.SETTLED, foreignTx.hash(), foreignTx.lt(), r2.amountNano()));
    settle(settlement(r3, SettlementStatus.SETTLED, tx1.hash(), tx1.lt(), r3.amountNano()));

    ChainAudit audit = audit(List.of(a1, a2), List.of(r1, r2, r3));

    Set<Rule> found = audit.violations().stream().map(ChainAudit.Violation::rule).collect(Collectors.toSet());
    assertThat(found).as("%s", audit.violations()).containsExactlyInAnyOrder(Rule.SETTLED_NOT_ON_CHAIN,
        Rule.LEDGER_NOT_CHAIN);
    assertThat(audit.violations(Rule.SETTLED_NOT_ON_CHAIN)).isEqualTo(2);
    assertThat(audit.violations(Rule.LEDGER_NOT_CHAIN)).isEqualTo(2);
    assertThat(audit.foreignLandings()).extracting(ChainAudit.ForeignLanding::seqnoOf)
        .containsExactly(r2.ref(), r3.ref());
    assertThat(audit.foreignLandings()).extracting(ChainAudit.ForeignLanding::seqnoOfStatus)
        .containsOnly(SettlementStatus.SETTLED);
  }

  /**
   * The jetton cases' baseline, and what makes their violations mean something: a jetton transfer
   * delivered and settled with the receiver's acceptance, and one the receiver's locked jetton
   * wallet refused, FAILED with the re-credit, leave every jetton balance exactly as the settlements
   * say (the locked owner's unit minted before the run set apart), and the auditor finds nothing.
   */
  @Test
  void shouldFindNothingWrongWhenEveryJettonBalanceIsWhatTheSettlementsSay() throws Exception {
    DevnetJetton usdt = jettonsMintedToThePayers();
    JettonLanding delivered = payJetton(usdt, jettonTransfer("j1", A, wallets.recipient(0), usdt, 2_500_000), 1001,
        "SETTLED");
    JettonLanding refused = payJetton(usdt, jettonTransfer("j2", A, LOCKED_RECEIVER, usdt, 2_000_000), 1002, "FAILED");
    settle(jettonSettlement(delivered, SettlementStatus.SETTLED, delivered.delivery()));
    settle(jettonSettlement(refused, SettlementStatus.FAILED, refused.delivery()));

    ChainAudit audit = auditJettons(usdt, List.of(delivered.transfer(), refused.transfer()), List.of());

    assertThat(refused.delivery().delivered()).as("the locked receiver refused it on chain").isFalse();
    assertThat(audit.violations()).isEmpty();
    JettonFigures jettons = audit.jettons();
    assertThat(jettons.transfers()).isEqualTo(2);
    assertThat(jettons.handedOver()).isEqualTo(2);
    assertThat(jettons.delivered()).isEqualTo(1);
    assertThat(jettons.refusedBack()).isEqualTo(1);
    assertThat(jettons.settledUnits()).isEqualTo(BigInteger.valueOf(2_500_000));
    assertThat(jettons.destinations()).isEqualTo(2);
    assertThat(jettons.destinationsBalance()).isEqualTo(BigInteger.valueOf(2_500_000));
    assertThat(jettons.minted()).isEqualTo(MINTED.multiply(BigInteger.TWO));
    assertThat(jettons.payersBalance())
        .isEqualTo(MINTED.multiply(BigInteger.TWO).subtract(BigInteger.valueOf(2_500_000)));
  }

  /**
   * SETTLED needs the receiver jetton wallet's acceptance in the settlement: one settled on its
   * wallet transaction alone (as a chain-poller from before jetton payouts would confirm it),
   * though the jettons did arrive, and one settled with the receiver's refusal as its delivery.
   * Only the second moves a balance the settlements do not account for.
   */
  @Test
  void shouldReportAJettonTransferSettledWithoutTheReceiversAcceptance() throws Exception {
    DevnetJetton usdt = jettonsMintedToThePayers();
    JettonLanding arrivedUnproven = payJetton(usdt, jettonTransfer("j1", A, wallets.recipient(0), usdt, 2_500_000),
        1001, "SETTLED");
    JettonLanding refused = payJetton(usdt, jettonTransfer("j2", A, LOCKED_RECEIVER, usdt, 2_000_000), 1002, "SETTLED");
    settle(jettonSettlement(arrivedUnproven, SettlementStatus.SETTLED, null));
    settle(jettonSettlement(refused, SettlementStatus.SETTLED, refused.delivery()));

    ChainAudit audit = auditJettons(usdt, List.of(arrivedUnproven.transfer(), refused.transfer()), List.of());

    assertThat(found(audit)).as("%s", audit.violations()).containsExactlyInAnyOrder(Rule.JETTON_NOT_DELIVERED,
        Rule.JETTON_BALANCE_NOT_AS_SETTLED, Rule.JETTON_PAYER_BALANCE_WRONG);
    assertThat(details(audit, Rule.JETTON_NOT_DELIVERED)).hasSize(2)
        .anySatisfy(d -> assertThat(d).startsWith("j1/withdrawal SETTLED, but its delivery null"))
        .anySatisfy(d -> assertThat(d).startsWith("j2/withdrawal SETTLED").contains("failedAccount="
            + usdt.jettonWallet(LOCKED_RECEIVER).toRaw()));
    assertThat(details(audit, Rule.JETTON_BALANCE_NOT_AS_SETTLED)).singleElement().asString()
        .startsWith("jetton owner " + LOCKED_RECEIVER + " holds 0 ").contains("SETTLED transfers come to 2000000");
    assertThat(details(audit, Rule.JETTON_PAYER_BALANCE_WRONG)).singleElement().asString()
        .startsWith("subwallet " + A + " holds " + MINTED.subtract(BigInteger.valueOf(2_500_000)) + " ");
  }

  /** A jetton owner holding more than its SETTLED transfers paid it: jettons reached it outside the books. */
  @Test
  void shouldReportAJettonOwnerWhoseBalanceIsNotTheSumOfItsSettledTransfers() throws Exception {
    DevnetJetton usdt = jettonsMintedToThePayers();
    JettonLanding delivered = settledDelivery(usdt);
    usdt.mint(wallets.recipient(0), BigInteger.ONE);

    ChainAudit audit = auditJettons(usdt, List.of(delivered.transfer()), List.of());

    assertThat(found(audit)).as("%s", audit.violations()).containsExactly(Rule.JETTON_BALANCE_NOT_AS_SETTLED);
    assertThat(details(audit, Rule.JETTON_BALANCE_NOT_AS_SETTLED)).singleElement().asString()
        .isEqualTo("jetton owner " + wallets.recipient(0) + " holds 2500001 of " + usdt.master
            + " but its SETTLED transfers come to 2500000; its other transfers: []");
    assertThat(audit.jettons().destinationsBalance()).isEqualTo(BigInteger.valueOf(2_500_001));
  }

  /**
   * A paying wallet whose jettons left outside the books: someone else holding the key paid a
   * stranger from subwallet B (a foreign payment, counted apart), which no settlement accounts for.
   */
  @Test
  void shouldReportAPayersJettonBalanceThatIsNotMintedLessItsSettledTransfers() throws Exception {
    DevnetJetton usdt = jettonsMintedToThePayers();
    JettonLanding delivered = settledDelivery(usdt);
    ExpectedTransfer unbooked = new ExpectedTransfer("nobody", "jetton", 0, B, FOREIGN_DESTINATION, 0L,
        "foreign jetton", usdt.amount(1_000_000));
    SignedTransfer foreign = send(B, usdt.order(wallets.address(B), unbooked, 2001));
    assertThat(usdt.awaitDelivery(wallets.address(B), unbooked, 2001).delivered()).isTrue();

    ChainAudit audit = auditJettons(usdt, List.of(delivered.transfer()), List.of(new ForeignPayment(wallets.address(B),
        usdt.jettonWallet(wallets.address(B)), JettonCatalog.DEFAULT_ATTACH_NANO, "foreign jetton",
        foreign.messageHash())));

    assertThat(found(audit)).as("%s", audit.violations()).containsExactly(Rule.JETTON_PAYER_BALANCE_WRONG);
    assertThat(details(audit, Rule.JETTON_PAYER_BALANCE_WRONG)).singleElement().asString()
        .isEqualTo("subwallet " + B + " holds 999000000 of " + usdt.master + "; minted 1000000000 minus its SETTLED"
            + " jetton transfers 0 is 1000000000");
    assertThat(audit.foreignLanded()).isEqualTo(1);
  }

  private ChainAudit audit(List<ForeignPayment> foreign, List<ExpectedTransfer> expected) {
    return ChainAuditor.audit(sources(), new ChainAuditor.Expectations(expected, List.of(), foreign));
  }

  /** The devnet chain through its API, the ledger and the topics of this test's stack. */
  private ChainAuditor.Sources sources() {
    return new ChainAuditor.Sources(api, new LedgerRecords(stack.ledgerJdbcUrl(), stack.postgres().user(),
        stack.postgres().password()), stack.kafka().bootstrapServers(), wallets.addresses(), key.publicKey());
  }

  /** A transfer of ours, with the comment the loads give it ({@code "<requestId> <transferId>"}). */
  private static ExpectedTransfer expected(String requestId, String transferId, int transferIndex, long subwallet,
      TonAddress destination, long amountNano) {
    return new ExpectedTransfer(requestId, transferId, transferIndex, subwallet, destination, amountNano,
        requestId + " " + transferId);
  }

  /** j1, 2.5 USDT from A to the first recipient: delivered on chain and SETTLED with the receiver's acceptance. */
  private JettonLanding settledDelivery(DevnetJetton usdt) throws Exception {
    JettonLanding delivered = payJetton(usdt, jettonTransfer("j1", A, wallets.recipient(0), usdt, 2_500_000), 1001,
        "SETTLED");
    settle(jettonSettlement(delivered, SettlementStatus.SETTLED, delivered.delivery()));
    return delivered;
  }

  /**
   * The jetton cases' devnet: the stablecoin, minted to both paying wallets, and the locked
   * receiver's jetton wallet (deployed by minting it one unit, then locked for receiving).
   */
  private DevnetJetton jettonsMintedToThePayers() {
    DevnetJetton usdt = DevnetJetton.deploy(devnet);
    usdt.mint(wallets.address(A), MINTED);
    usdt.mint(wallets.address(B), MINTED);
    usdt.lockForReceiving(LOCKED_RECEIVER, LOCKED_RECEIVER_HELD);
    return usdt;
  }

  private ChainAudit auditJettons(DevnetJetton usdt, List<ExpectedTransfer> expected, List<ForeignPayment> foreign) {
    return ChainAuditor.audit(sources(), new ChainAuditor.Expectations(expected, List.of(), foreign, List.of(
        new ChainAuditor.JettonFunding(usdt.master, MINTED, Map.of(LOCKED_RECEIVER, LOCKED_RECEIVER_HELD)))));
  }

  private static Set<Rule> found(ChainAudit audit) {
    return audit.violations().stream().map(ChainAudit.Violation::rule).collect(Collectors.toSet());
  }

  private static List<String> details(ChainAudit audit, Rule rule) {
    return audit.violations().stream().filter(v -> v.rule() == rule).map(ChainAudit.Violation::detail).toList();
  }

  /** A jetton transfer of ours (one per request, the request's only leg), with the comment the loads give it. */
  private static ExpectedTransfer jettonTransfer(String requestId, long subwallet, TonAddress destination,
      DevnetJetton jetton, long units) {
    return new ExpectedTransfer(requestId, "withdrawal", 0, subwallet, destination, 0L, requestId + " withdrawal",
        jetton.amount(units));
  }

  /** A jetton transfer of ours on chain, followed to its end: the wallet's message, its transaction, the delivery. */
  private record JettonLanding(ExpectedTransfer transfer, long queryId, SignedTransfer message, DevnetTransaction tx,
                               JettonDelivery delivery) {}

  /**
   * Hands {@code t} to its wallet's jetton wallet with {@code queryId}, waits until the chain
   * decided it, and records it in the ledger as streams-app would (request, transfer with
   * {@code status}, the message CONFIRMED by its transaction): nothing but the jettons is amiss.
   */
  private JettonLanding payJetton(DevnetJetton jetton, ExpectedTransfer t, long queryId, String status)
      throws Exception {
    TonAddress payer = wallets.address(t.subwalletId());
    SignedTransfer message = send(t.subwalletId(), jetton.order(payer, t, queryId));
    DevnetTransaction tx = transactionOf(t.subwalletId(), message);
    JettonLanding landing = new JettonLanding(t, queryId, message, tx, jetton.awaitDelivery(payer, t, queryId));
    try (Connection c = DriverManager.getConnection(stack.ledgerJdbcUrl(), stack.postgres().user(),
        stack.postgres().password())) {
      request(c, t.requestId(), t.subwalletId(), 1);
      transfer(c, t, JettonCatalog.DEFAULT_ATTACH_NANO, message.seqno(), status, tx.hash());
      try (PreparedStatement ps = c.prepareStatement("update payout_transfers set jetton_master = ?,"
          + " jetton_amount = ?, jetton_query_id = ? where request_id = ? and transfer_id = ?")) {
        ps.setString(1, jetton.master.toRaw());
        ps.setBigDecimal(2, new java.math.BigDecimal(t.jetton().amount()));
        ps.setLong(3, queryId);
        ps.setString(4, t.requestId());
        ps.setString(5, t.transferId());
        ps.executeUpdate();
      }
      message(c, t, message, JettonCatalog.DEFAULT_ATTACH_NANO, "CONFIRMED", tx.hash(), tx.lt());
    }
    return landing;
  }

  /** The settlement of a jetton transfer handed over by its wallet transaction, with {@code delivery} as its proof. */
  private static Settlement jettonSettlement(JettonLanding l, SettlementStatus status, JettonDelivery delivery) {
    return settlement(l.transfer(), status, l.tx().hash(), l.tx().lt(), JettonCatalog.DEFAULT_ATTACH_NANO)
        .withJetton(l.transfer().jetton(), delivery);
  }

  /** Has devnet apply a foreign transfer of the wallet in the next block; waits until it applied. */
  private ForeignPayment frontRun(long subwallet, TonAddress destination, long amount, String comment) {
    TonAddress wallet = wallets.address(subwallet);
    long seqno = devnet.seqno(wallet);
    devnet.foreignTransfer(wallet, destination, amount, comment);
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (devnet.seqno(wallet) == seqno) {
      assertThat(System.nanoTime()).as("foreign transfer applied within 10 s").isLessThan(deadline);
      devnet.awaitBlocks(1);
    }
    return new ForeignPayment(wallet, destination, amount, comment, null);
  }

  private SignedTransfer pay(long subwallet, ExpectedTransfer t, long amount) {
    return send(subwallet, new TransferOrder(t.destination(), amount, t.comment(), false));
  }

  /** Signs with the wallet's current seqno, sends through the API and waits until the message applied. */
  private SignedTransfer send(long subwallet, TransferOrder order) {
    TonAddress wallet = wallets.address(subwallet);
    long seqno = devnet.seqno(wallet);
    SignedTransfer message = signer.sign(subwallet, seqno, Instant.now().plusSeconds(60), List.of(order));
    api.sendBocReturnHash(message.boc()).join();
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (devnet.seqno(wallet) == seqno) {
      assertThat(System.nanoTime()).as("message applied within 10 s").isLessThan(deadline);
      devnet.awaitBlocks(1);
    }
    return message;
  }

  private DevnetTransaction transactionOf(long subwallet, SignedTransfer message) {
    return devnet.transactions(wallets.address(subwallet)).stream()
        .filter(tx -> tx.inMsg().hash().equals(message.messageHash())).findFirst().orElseThrow();
  }

  private static void request(Connection c, String id, long subwallet, int transfers) throws Exception {
    try (PreparedStatement ps = c.prepareStatement("insert into payout_requests (request_id, subwallet_id,"
        + " transfer_count, created_at) values (?, ?, ?, ?)")) {
      ps.setString(1, id);
      ps.setLong(2, subwallet);
      ps.setInt(3, transfers);
      ps.setTimestamp(4, Timestamp.from(T0));
      ps.executeUpdate();
    }
  }

  private void transfer(Connection c, ExpectedTransfer t, long seqno, String status, String txHash) throws Exception {
    transfer(c, t, t.amountNano(), seqno, status, txHash);
  }

  /** A transfer row carrying {@code amountNano} (a jetton transfer's: the TON its message attaches). */
  private void transfer(Connection c, ExpectedTransfer t, long amountNano, long seqno, String status, String txHash)
      throws Exception {
    try (PreparedStatement ps = c.prepareStatement("insert into payout_transfers (request_id, transfer_id,"
        + " transfer_index, kind, subwallet_id, wallet_address, destination, amount_nano, seqno, attempts, status,"
        + " tx_hash, created_at, updated_at) values (?, ?, ?, 'PAYOUT', ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)")) {
      ps.setString(1, t.requestId());
      ps.setString(2, t.transferId());
      ps.setInt(3, t.transferIndex());
      ps.setLong(4, t.subwalletId());
      ps.setString(5, wallets.address(t.subwalletId()).toRaw());
      ps.setString(6, t.destination().toRaw());
      ps.setLong(7, amountNano);
      ps.setLong(8, seqno);
      ps.setString(9, status);
      ps.setString(10, txHash);
      ps.setTimestamp(11, Timestamp.from(T0));
      ps.setTimestamp(12, Timestamp.from(T0));
      ps.executeUpdate();
    }
  }

  private void message(Connection c, ExpectedTransfer t, SignedTransfer m, String status, String txHash, long lt)
      throws Exception {
    message(c, t, m, t.amountNano(), status, txHash, lt);
  }

  private void message(Connection c, ExpectedTransfer t, SignedTransfer m, long amountNano, String status,
      String txHash, long lt) throws Exception {
    try (PreparedStatement ps = c.prepareStatement("insert into ton_transactions (request_id, transfer_id,"
        + " transfer_index, attempt, subwallet_id, wallet_address, destination, amount_nano, seqno, message_hash, boc,"
        + " valid_until, status, tx_hash, lt, created_at, updated_at)"
        + " values (?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      ps.setString(1, t.requestId());
      ps.setString(2, t.transferId());
      ps.setInt(3, t.transferIndex());
      ps.setLong(4, t.subwalletId());
      ps.setString(5, m.wallet().toRaw());
      ps.setString(6, t.destination().toRaw());
      ps.setLong(7, amountNano);
      ps.setLong(8, m.seqno());
      ps.setString(9, m.messageHash());
      ps.setString(10, m.boc());
      ps.setTimestamp(11, Timestamp.from(Instant.ofEpochSecond(m.validUntil())));
      ps.setString(12, status);
      ps.setString(13, txHash);
      ps.setLong(14, lt);
      ps.setTimestamp(15, Timestamp.from(T0));
      ps.setTimestamp(16, Timestamp.from(T0));
      ps.executeUpdate();
    }
  }

  private static void fenced(Connection c, ExpectedTransfer t, SignedTransfer m) throws Exception {
    try (PreparedStatement ps = c.prepareStatement("insert into audit_log (at, level, event, subwallet_id,"
        + " wallet_address, request_id, transfer_id, seqno, message_hash, detail)"
        + " values (?, 'WARNING', 'FENCED_WRITE_REFUSED', ?, ?, ?, ?, ?, ?, 'not the owner any more')")) {
      ps.setTimestamp(1, Timestamp.from(T0));
      ps.setLong(2, t.subwalletId());
      ps.setString(3, m.wallet().toRaw());
      ps.setString(4, t.requestId());
      ps.setString(5, t.transferId());
      ps.setLong(6, m.seqno());
      ps.setString(7, m.messageHash());
      ps.executeUpdate();
    }
  }

  private static Settlement settlement(ExpectedTransfer t, SettlementStatus status, String txHash, Long lt,
      long amount) {
    return new Settlement(Settlement.SCHEMA_VERSION, t.requestId(), t.transferId(), t.transferIndex(),
        t.subwalletId(), TransferKind.PAYOUT, t.destination().toFriendly(false, false), amount, status, txHash, lt,
        null, null, null, status == SettlementStatus.SETTLED ? null : "test", T0, T0, null, null, null, null);
  }

  private void settle(Settlement s) {
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafka().bootstrapServers());
    try (KafkaProducer<String, Settlement> producer = new KafkaProducer<>(props,
        Topics.PAYOUT_SETTLEMENTS.keySerde().serializer(), Topics.PAYOUT_SETTLEMENTS.valueSerde().serializer())) {
      producer.send(new ProducerRecord<>(Topics.PAYOUT_SETTLEMENTS.name(), Topics.walletKey(s.subwalletId()), s));
    }
  }

  private static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("no SHA-256 in this JVM", e);
    }
  }
}
