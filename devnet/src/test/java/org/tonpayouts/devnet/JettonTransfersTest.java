package org.tonpayouts.devnet;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.ton.ton4j.cell.Cell;
import org.ton.ton4j.cell.CellBuilder;
import org.ton.ton4j.cell.CellSlice;
import org.tonpayouts.devnet.chain.DevnetMessage;
import org.tonpayouts.devnet.chain.DevnetTransaction;
import org.tonpayouts.devnet.chain.jetton.JettonAdmin;
import org.tonpayouts.devnet.chain.jetton.JettonFlavor;
import org.tonpayouts.devnet.chain.jetton.JettonOps;
import org.tonpayouts.ton.address.TonAddress;

/**
 * Jetton payouts through devnet's API as a payout service makes them: the whole chain of
 * messages in one block in lt order, the admin endpoints, and the faults (drop, stale reads,
 * delayed bounces) behaving on jetton messages as on TON ones. The contracts' exact behaviour is
 * {@link JettonGoldenTracesTest}'s.
 */
class JettonTransfersTest {
  private static final long TON = 1_000_000_000L;
  private static final Instant NOW = Instant.parse("2026-05-01T10:00:00Z");
  private static final BigInteger MINTED = BigInteger.valueOf(1_000_000);

  private final TestWallet payer = new TestWallet(61, 698983191L);
  private final TonAddress receiver = TestWallet.someAddress(90);
  private final ManualClock clock = ManualClock.fixedAt(NOW);
  private Devnet devnet;
  private Http http;
  private TonAddress master;

  private void start(JettonFlavor flavor) {
    devnet = Devnet.builder().blockInterval(java.time.Duration.ZERO).clock(clock).seed(11).start();
    http = new Http(devnet);
    master = devnet.deployJetton(flavor, "devnet:test/" + flavor.id());
    devnet.fund(payer.address, 5 * TON);
    assertThat(devnet.mintJettons(master, payer.address, MINTED).ok()).isTrue();
  }

  @AfterEach
  void stop() {
    if (devnet != null) {
      devnet.close();
    }
  }

  private String payout(long seqno, long attach, long queryId, long amount) {
    return JettonTransfers.transfer(payer, seqno, clock.instant().getEpochSecond() + JettonTransfers.VALID_SECONDS,
        devnet.jettonWallet(master, payer.address).address(), attach, queryId, BigInteger.valueOf(amount), receiver);
  }

  private Http.Response send(String boc) {
    return http.post("sendBocReturnHash", Map.of("boc", boc));
  }

  private BigInteger jettons(TonAddress owner) {
    return devnet.jettonWallet(master, owner).balance();
  }

  @Test
  void shouldCarryAPayoutThroughEveryJettonWalletInOneBlockInLtOrder() {
    start(JettonFlavor.REFERENCE);
    long before = devnet.lastLt();

    assertThat(send(payout(0, TON / 10, 77, 250)).status()).isEqualTo(200);
    long block = devnet.produceBlock().seqno();

    List<DevnetTransaction> txs = devnet.transactionsSince(before);
    TonAddress senderJetton = devnet.jettonWallet(master, payer.address).address();
    TonAddress receiverJetton = devnet.jettonWallet(master, receiver).address();
    assertThat(txs).extracting(DevnetTransaction::account)
        .containsExactly(payer.address, senderJetton, receiverJetton, payer.address);
    assertThat(txs.get(0).inMsg().external()).isTrue();
    assertThat(txs.subList(1, 4)).extracting(tx -> JettonTransfers.op(tx.inMsg()))
        .containsExactly(JettonOps.TRANSFER, JettonOps.INTERNAL_TRANSFER, JettonOps.EXCESSES);
    for (DevnetTransaction tx : txs) {
      assertThat(tx.blockSeqno()).as("one block").isEqualTo(block);
      assertThat(tx.lt()).as("a transaction comes after the message that caused it").isGreaterThan(tx.inMsg().createdLt());
      for (DevnetMessage out : tx.outMsgs()) {
        assertThat(out.createdLt()).as("a message comes after the transaction that made it").isGreaterThan(tx.lt());
      }
      assertThat(JettonTransfers.description(tx).isAborted()).as(tx.description()).isFalse();
    }
    assertThat(jettons(payer.address)).isEqualTo(MINTED.subtract(BigInteger.valueOf(250)));
    assertThat(jettons(receiver)).isEqualTo(BigInteger.valueOf(250));

    // what a poller reads: the receiver's jetton wallet accepted internal_transfer from ours
    JsonNode seen = http.get("getTransactions", Map.of("address", receiverJetton.toFriendly(true, false))).result();
    assertThat(seen).hasSize(1);
    assertThat(seen.get(0).at("/in_msg/source").asText()).isEqualTo(senderJetton.toFriendly(true, false));
  }

  @Test
  void shouldApplyADroppedPayoutOnlyOnceItIsSentAgain() {
    start(JettonFlavor.STABLECOIN);
    String boc = payout(0, TON / 10, 5, 100);
    devnet.faults().dropNext(1);

    assertThat(send(boc).status()).as("a dropped message still gets an answer").isEqualTo(200);
    devnet.produceBlock();
    assertThat(devnet.seqno(payer.address)).isZero();
    assertThat(jettons(receiver)).isZero();

    assertThat(send(boc).status()).isEqualTo(200);
    devnet.produceBlock();
    assertThat(jettons(receiver)).isEqualTo(BigInteger.valueOf(100));

    Http.Response again = send(boc);
    assertThat(again.status()).as("its seqno is used").isEqualTo(500);
    assertThat(again.error()).contains("exitcode=33");
    devnet.produceBlock();
    assertThat(jettons(receiver)).as("applied once").isEqualTo(BigInteger.valueOf(100));
    assertThat(devnet.faults().counts().dropped()).isEqualTo(1);
  }

  @Test
  void shouldApplyAJettonPayoutWhoseAnswerWasLost() {
    start(JettonFlavor.REFERENCE);
    devnet.faults().transportErrorNext(1, Faults.TransportError.HTTP_504);

    Http.Response timeout = send(payout(0, TON / 10, 7, 300));
    assertThat(timeout.status()).isEqualTo(504);
    devnet.produceBlock();

    assertThat(jettons(receiver)).as("queued before the answer was lost").isEqualTo(BigInteger.valueOf(300));
  }

  @Test
  void shouldJudgeAJettonPayoutAsALaggingNodeSeesTheWallet() {
    start(JettonFlavor.STABLECOIN);
    send(payout(0, TON / 10, 8, 10));
    devnet.produceBlock();
    DevnetNode behind = devnet.node("behind");
    behind.faults().lag(1);

    Http.Response refused = new Http(behind).post("sendBocReturnHash", Map.of("boc", payout(1, TON / 10, 9, 20)));

    assertThat(refused.status()).isEqualTo(500);
    assertThat(refused.error()).as("the node has not seen the first payout deploy the wallet")
        .contains("exitcode=0, steps=0");
    assertThat(send(payout(1, TON / 10, 9, 20)).status()).as("an up-to-date node takes it").isEqualTo(200);
    devnet.produceBlock();
    assertThat(jettons(receiver)).isEqualTo(BigInteger.valueOf(30));
  }

  @Test
  void shouldAnswerJettonGetMethodsFromAStaleBlockUnderTheStaleReadFault() {
    start(JettonFlavor.REFERENCE);
    devnet.produceBlock();
    send(payout(0, TON / 10, 6, 400));
    devnet.produceBlock();
    String senderJetton = devnet.jettonWallet(master, payer.address).address().toFriendly(true, false);

    devnet.faults().staleReadNext(1, 1);
    JsonNode stale = http.post("runGetMethod", Map.of("address", senderJetton, "method", "get_wallet_data",
        "stack", List.of())).result();
    JsonNode fresh = http.post("runGetMethod", Map.of("address", senderJetton, "method", "get_wallet_data",
        "stack", List.of())).result();

    assertThat(stale.at("/stack/0/1").asText()).as("before the payout").isEqualTo("0x" + MINTED.toString(16));
    assertThat(fresh.at("/stack/0/1").asText()).isEqualTo("0x" + MINTED.subtract(BigInteger.valueOf(400)).toString(16));
    assertThat(devnet.faults().counts().staleReads()).isEqualTo(1);
  }

  @Test
  void shouldDeliverAJettonWalletsBounceAsManyBlocksLaterAsBouncesAreDelayed() {
    start(JettonFlavor.STABLECOIN);
    devnet.delayBounces(2);

    send(payout(0, TON / 10, 9, MINTED.longValueExact() + 1)); // more than it holds: 47, bounced
    long sent = devnet.produceBlock().seqno();
    List<DevnetTransaction> payerTxs = devnet.transactions(payer.address);
    assertThat(payerTxs).hasSize(2); // funding, the payout; the bounce is on its way
    DevnetTransaction refused = devnet.transactions(devnet.jettonWallet(master, payer.address).address()).get(1);
    assertThat(JettonTransfers.exitCode(refused)).isEqualTo(47L);

    devnet.produceBlock();
    devnet.produceBlock();
    DevnetTransaction bounce = devnet.transactions(payer.address).get(2);
    assertThat(bounce.blockSeqno()).isEqualTo(sent + 2);
    assertThat(bounce.inMsg().bounced()).isTrue();
    assertThat(bounce.inMsg().body().parse().loadUint(32)).isEqualTo(0xFFFFFFFFL);
    assertThat(bounce.inMsg().body().parse().skipBits(32).loadUint(32)).as("the transfer's op after the prefix")
        .isEqualTo(JettonOps.TRANSFER);
    assertThat(jettons(payer.address)).isEqualTo(MINTED);
  }

  @Test
  void shouldBounceAPayoutFromAStablecoinWalletLockedForSending() {
    start(JettonFlavor.STABLECOIN);
    assertThat(devnet.setJettonWalletStatus(master, payer.address, 1).wallet().status()).isEqualTo(1);

    send(payout(0, TON / 10, 10, 100));
    devnet.produceBlock();

    DevnetTransaction refused = devnet.transactions(devnet.jettonWallet(master, payer.address).address()).get(2);
    assertThat(JettonTransfers.exitCode(refused)).isEqualTo(45L);
    assertThat(refused.outMsgs()).singleElement().satisfies(m -> assertThat(m.bounced()).isTrue());
    assertThat(jettons(payer.address)).isEqualTo(MINTED);
    assertThat(devnet.jettonWallet(master, receiver).deployed()).isFalse();
  }

  @Test
  void shouldServeTheJettonAdminOverHttp() {
    devnet = Devnet.builder().blockInterval(java.time.Duration.ZERO).clock(clock).seed(12).start();
    http = new Http(devnet);

    Http.Response deployed = http.admin("jetton/deploy", Map.of("flavor", "stablecoin", "uri", "devnet:http"));
    assertThat(deployed.status()).as(deployed.body().toString()).isEqualTo(200);
    String masterAddress = deployed.result().get("master").asText();
    assertThat(TonAddress.parse(masterAddress)).isEqualTo(JettonAdmin.masterAddress(JettonFlavor.STABLECOIN, "devnet:http"));

    Http.Response minted = http.admin("jetton/mint", Map.of("master", masterAddress,
        "owner", receiver.toFriendly(false, false), "amount", "123456789012345678901234"));
    assertThat(minted.status()).as(minted.body().toString()).isEqualTo(200);
    assertThat(minted.result().get("ok").asBoolean()).isTrue();
    assertThat(minted.result().get("balance").asText()).isEqualTo("123456789012345678901234");
    assertThat(minted.result().get("deployed").asBoolean()).isTrue();

    Http.Response locked = http.admin("jetton/status", Map.of("master", masterAddress,
        "owner", receiver.toFriendly(false, false), "status", 2));
    assertThat(locked.result().get("status").asInt()).isEqualTo(2);
    Http.Response read = http.admin("jetton/wallet?master=" + masterAddress + "&owner=" + receiver.toRaw(), null);
    assertThat(read.result().get("jetton_wallet").asText()).isEqualTo(minted.result().get("jetton_wallet").asText());
    assertThat(read.result().get("status").asInt()).isEqualTo(2);

    assertThat(http.admin("jetton/deploy", Map.of("flavor", "gold")).status()).isEqualTo(400);
    TonAddress reference = devnet.deployJetton(JettonFlavor.REFERENCE, "devnet:http");
    assertThat(http.admin("jetton/status", Map.of("master", reference.toRaw(), "owner", receiver.toRaw(),
        "status", 1)).status()).as("the reference has no status").isEqualTo(400);
  }

  @Test
  void shouldAnswerGetWalletAddressInToncentersShape() {
    start(JettonFlavor.REFERENCE);
    Cell owner = CellBuilder.beginCell().storeAddress(org.ton.ton4j.address.Address.of(receiver.toRaw())).endCell();

    JsonNode result = http.post("runGetMethod", Map.of("address", master.toFriendly(true, false),
        "method", "get_wallet_address",
        "stack", List.of(List.of("tvm.Slice", Base64.getEncoder().encodeToString(owner.toBoc()))))).result();

    assertThat(result.get("@type").asText()).isEqualTo("smc.runResult");
    assertThat(result.get("exit_code").asInt()).isZero();
    JsonNode entry = result.at("/stack/0");
    assertThat(entry.get(0).asText()).isEqualTo("cell");
    assertThat(entry.at("/1/object/data/len").asInt()).as("an addr_std").isEqualTo(267);
    Cell answer = Cell.fromBoc(Base64.getDecoder().decode(entry.at("/1/bytes").asText()));
    assertThat(CellSlice.beginParse(answer).loadAddress().toRaw())
        .isEqualTo(devnet.jettonWallet(master, receiver).address().toRaw());

    JsonNode noArgument = http.post("runGetMethod", Map.of("address", master.toRaw(), "method", "get_wallet_address",
        "stack", List.of())).result();
    assertThat(noArgument.get("exit_code").asInt()).as("stack underflow").isEqualTo(2);
    JsonNode unknown = http.post("runGetMethod", Map.of("address", master.toRaw(), "method", "seqno",
        "stack", List.of())).result();
    assertThat(unknown.get("exit_code").asInt()).isEqualTo(11);
  }
}
