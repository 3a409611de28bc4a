package org.tonpayouts.devnet;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.ton.ton4j.cell.Cell;
import org.ton.ton4j.cell.CellSlice;
import org.ton.ton4j.tlb.ActionPhase;
import org.ton.ton4j.tlb.BouncePhaseOk;
import org.ton.ton4j.tlb.ComputePhaseVM;
import org.ton.ton4j.tlb.ComputeSkipReason;
import org.ton.ton4j.tlb.InternalMessageInfo;
import org.ton.ton4j.tlb.Message;
import org.ton.ton4j.tlb.MsgAddressIntStd;
import org.ton.ton4j.tlb.Transaction;
import org.ton.ton4j.tlb.TransactionDescriptionOrdinary;
import org.tonpayouts.devnet.TestWallet.Send;
import org.tonpayouts.devnet.chain.DevnetTransaction;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.ChainMessage;
import org.tonpayouts.ton.api.ChainTransaction;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;
import org.tonpayouts.ton.wallet.TransferOrder;

/**
 * Every transaction devnet returns carries in {@code data} the BOC of a TL-B Transaction that
 * ton4j's own parser reads back, whose cell hash is {@code transaction_id.hash}, and whose fields
 * agree with the JSON beside it: the proof that SDKs which parse {@code data} can read devnet.
 * Every kind of transaction devnet makes is exercised: deploy, sends, skipped and aborted sends,
 * receipts, a bounce, a receipt by an account without code, a destroyed wallet, a foreign
 * transfer, funding.
 */
class TransactionBocTest {
  private static final long TON = 1_000_000_000L;

  private final TestWallet wallet = new TestWallet(31, 698983191L);
  private final TestWallet poor = new TestWallet(32, 698983191L);
  private final TestWallet doomed = new TestWallet(33, 698983191L);
  private final TonAddress user = TestWallet.someAddress(70);
  private final TonAddress nobody = TestWallet.someAddress(71);
  private final TonAddress fresh = TestWallet.someAddress(72);

  private Devnet devnet;
  private Http http;
  private TonApiClient client;

  @BeforeEach
  void start() {
    devnet = Devnet.builder().blockInterval(Duration.ZERO).start();
    http = new Http(devnet);
    client = new TonApiClient(TonApiConfig.of(devnet.baseUrl()).withRequestsPerSecond(1000));
  }

  @AfterEach
  void stop() {
    client.close();
    devnet.close();
  }

  private void send(String boc) {
    assertThat(http.post("sendBoc", Map.of("boc", boc)).status()).isEqualTo(200);
  }

  private static long inAMinute() {
    return Instant.now().plusSeconds(60).getEpochSecond();
  }

  @Test
  void shouldReturnTransactionBocsThatParseBackAndAgreeWithTheJson() {
    devnet.fund(wallet.address, 10 * TON);
    devnet.fund(user, TON, true);
    devnet.fund(poor.address, TON / 100);
    devnet.fund(doomed.address, TON);
    send(wallet.sign(0, Instant.now().plusSeconds(60),
        new TransferOrder(user, TON, "payout #1 " + "long comment ".repeat(20), false),
        new TransferOrder(nobody, TON / 2, null, true),
        new TransferOrder(fresh, TON / 4, null, false)).boc());
    send(poor.raw(poor.key, poor.subwalletId, inAMinute(), 0, true, new Send(1, user, TON, "mode 1", false)));
    send(doomed.raw(doomed.key, doomed.subwalletId, inAMinute(), 0, true, new Send(128 + 32, user, 0, null, false)));
    devnet.produceBlock();
    send(wallet.raw(wallet.key, wallet.subwalletId, inAMinute(), 1, false,
        new Send(3, user, 100 * TON, "skipped", false), new Send(3, user, TON / 10, "sent", false)));
    devnet.produceBlock();
    devnet.foreignTransfer(wallet.address, user, TON / 5, "not ours");
    devnet.produceBlock();

    int checked = 0;
    for (TonAddress account : List.of(wallet.address, user, poor.address, doomed.address, nobody, fresh)) {
      checked += checkAll(account);
    }

    assertThat(checked).as("funding, deploy, sends, receipts, bounce, abort, destroy, foreign").isEqualTo(16);
    DevnetTransaction aborted = devnet.transactions(poor.address).get(1);
    ActionPhase failed = description(parse(aborted.data())).getActionPhase();
    assertThat(failed.isSuccess()).isFalse();
    assertThat(failed.isNoFunds()).isTrue();
    assertThat(failed.getResultCode()).isEqualTo(37);
    assertThat(failed.getResultArg()).isEqualTo(BigInteger.ZERO);
    TransactionDescriptionOrdinary bounce = description(parse(devnet.transactions(nobody).get(0).data()));
    assertThat(bounce.getBouncePhase()).isInstanceOf(BouncePhaseOk.class);
    assertThat(bounce.getComputePhase()).isInstanceOf(ComputeSkipReason.class);
    TransactionDescriptionOrdinary skipped = description(parse(devnet.transactions(wallet.address).get(3).data()));
    assertThat(skipped.getActionPhase().getSkippedActions()).isEqualTo(1);
    assertThat(skipped.getActionPhase().getMessagesCreated()).isEqualTo(1);
    assertThat(description(parse(devnet.transactions(doomed.address).get(1).data())).isDestroyed()).isTrue();
  }

  /** Checks every transaction of {@code account} as getTransactions returns it; returns how many. */
  private int checkAll(TonAddress account) {
    List<ChainTransaction> newestFirst = client.getTransactions(account, 100, null, null).join();
    Map<String, DevnetTransaction> byHash = devnet.transactions(account).stream()
        .collect(Collectors.toMap(DevnetTransaction::hash, Function.identity()));
    assertThat(newestFirst).hasSameSizeAs(byHash.values());
    for (int i = 0; i < newestFirst.size(); i++) {
      ChainTransaction json = newestFirst.get(i);
      Cell root = Cell.fromBoc(Base64.getDecoder().decode(json.data()));
      assertThat(hex(root.getHash())).as("cell hash is transaction_id.hash").isEqualTo(json.id().hash());
      Transaction tx = Transaction.deserialize(CellSlice.beginParse(root));
      DevnetTransaction devnetTx = byHash.get(json.id().hash());

      assertThat(tx.getAccountAddr()).isEqualTo(hex(account.hash()));
      assertThat(tx.getLt().longValueExact()).isEqualTo(json.id().lt());
      assertThat(tx.getNow()).isEqualTo(json.utime());
      assertThat(tx.getTotalFees().getCoins().longValueExact()).isEqualTo(json.fee());
      if (i + 1 < newestFirst.size()) {
        ChainTransaction previous = newestFirst.get(i + 1);
        assertThat(tx.getPrevTxLt().longValueExact()).isEqualTo(previous.id().lt());
        assertThat(tx.getPrevTxHash()).isEqualToIgnoringCase(previous.id().hash());
      }

      Cell inCell = CellSlice.beginParse(root.getRefs().get(0)).loadRef();
      assertThat(hex(inCell.getHash())).as("in_msg hash").isEqualTo(json.inMsg().hash());
      Map<Integer, Message> outs = outMessages(tx);
      assertThat(tx.getOutMsgCount()).isEqualTo(json.outMsgs().size());
      assertThat(outs).hasSameSizeAs(json.outMsgs());
      for (int k = 0; k < json.outMsgs().size(); k++) {
        ChainMessage expected = json.outMsgs().get(k);
        InternalMessageInfo info = (InternalMessageInfo) outs.get(k).getInfo();
        MsgAddressIntStd dst = (MsgAddressIntStd) info.getDstAddr();
        assertThat(TestWallet.address(dst)).isEqualTo(expected.destination());
        assertThat(info.getValue().getCoins().longValueExact()).isEqualTo(expected.value());
        assertThat(info.getCreatedLt().longValueExact()).isEqualTo(expected.createdLt());
      }

      TransactionDescriptionOrdinary description = description(tx);
      assertThat(description.isAborted()).as("aborted flag").isEqualTo(devnetTx.aborted());
      if (description.getComputePhase() instanceof ComputePhaseVM vm) {
        assertThat(vm.isSuccess()).isTrue();
        assertThat(vm.getDetails().getExitCode()).as("compute exit code").isZero();
        assertThat(description.getActionPhase()).isNotNull();
        assertThat(description.getActionPhase().getMessagesCreated()).isEqualTo(devnetTx.outMsgs().size());
      } else {
        assertThat(((ComputeSkipReason) description.getComputePhase()).getType()).isEqualTo("NO_STATE");
        assertThat(json.inMsg().isExternalIn()).as("only internal messages reach an account without code").isFalse();
        assertThat(description.isAborted()).isTrue();
      }
    }
    return newestFirst.size();
  }

  private static Transaction parse(String data) {
    return Transaction.deserialize(CellSlice.beginParse(Cell.fromBoc(Base64.getDecoder().decode(data))));
  }

  private static TransactionDescriptionOrdinary description(Transaction tx) {
    return (TransactionDescriptionOrdinary) tx.getDescription();
  }

  private static Map<Integer, Message> outMessages(Transaction tx) {
    Map<Integer, Message> outs = new TreeMap<>();
    tx.getInOut().getOut().elements.forEach((k, v) -> outs.put(((BigInteger) k).intValueExact(), (Message) v));
    return outs;
  }

  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }

}
