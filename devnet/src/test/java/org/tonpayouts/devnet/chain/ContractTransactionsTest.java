package org.tonpayouts.devnet.chain;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.devnet.ManualClock;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.CellReader;
import org.tonpayouts.ton.cell.MessageCells;
import org.tonpayouts.ton.cell.TonCell;

/**
 * How devnet runs an internal message on a contract it runs, whatever the contract: deploy by
 * StateInit, bounce on a throw, the action phase's send modes, and the rollbacks of a failed
 * action phase, as the node does them. A counting test contract stands in for the jetton ones
 * (whose behaviour {@code JettonGoldenTracesTest} checks against the real code).
 */
class ContractTransactionsTest {
  private static final long TON = 1_000_000_000L;
  private static final long GAS = 1_000;
  private static final TonCell CODE = TonCell.builder().storeUint(0xC0DE, 16).endCell();
  /** The forwarding fee of a message whose body sits inline in its root: the lump price alone. */
  private static final long INLINE_FWD = NetworkPrices.LUMP_PRICE;

  private final Chain chain = new Chain(ManualClock.fixedAt(Instant.parse("2026-05-01T10:00:00Z")), 1,
      ContractCodes.of(List.of(new Counter.Code())));
  private final TonAddress sender = TonAddress.of(0, Sha256.of("sender"));
  private final TonAddress target = TonAddress.of(0, Sha256.of("target"));
  private final TonCell init = MessageCells.stateInit(CODE, Counter.data(0));
  private final TonAddress contract = TonAddress.of(0, init.hash());

  /**
   * Runs, counts the run, then: op 1 sends {@code value} to {@code destination} with {@code mode};
   * op 2 throws 77; op 3 reserves {@code amount} with {@code mode} and sends the rest (mode 128).
   */
  private record Counter(long count) implements ContractState {
    static TonCell data(long count) {
      return TonCell.builder().storeUint(count, 32).endCell();
    }

    @Override
    public TonCell code() {
      return CODE;
    }

    @Override
    public TonCell data() {
      return data(count);
    }

    @Override
    public String kind() {
      return "counter";
    }

    @Override
    public ContractRun receive(InternalCall call) {
      Counter next = new Counter(count + 1);
      if (call.bounced()) {
        return ContractRun.completed(next, GAS, List.of(), "bounce");
      }
      CellReader body = call.body().parse();
      int op = (int) body.loadUint(8);
      List<OutAction> actions = new ArrayList<>();
      switch (op) {
        case 1 -> {
          int mode = (int) body.loadUint(8);
          long value = body.loadCoins();
          actions.add(OutAction.send(mode, OutMessage.bodyInline(true, body.loadAddress(), value, TonCell.EMPTY)));
        }
        case 2 -> {
          return ContractRun.thrown(77, GAS, "told to throw");
        }
        case 3 -> {
          int mode = (int) body.loadUint(8);
          actions.add(OutAction.reserve(body.loadCoins(), mode));
          actions.add(OutAction.send(128, OutMessage.bodyInline(false, body.loadAddress(), 0, TonCell.EMPTY)));
        }
        default -> {
          return ContractRun.completed(next, GAS, List.of(), "nothing");
        }
      }
      return ContractRun.completed(next, GAS, actions, "op " + op);
    }

    @Override
    public GetMethodOutcome runGetMethod(String method, List<StackValue> args, TonAddress self) {
      return GetMethodOutcome.noMethod();
    }

    static final class Code implements ContractCode {
      @Override
      public TonCell code() {
        return CODE;
      }

      @Override
      public ContractState load(TonCell data) {
        return new Counter(data.parse().loadUint(32));
      }
    }
  }

  private static TonCell send(int mode, long value, TonAddress to) {
    return TonCell.builder().storeUint(1, 8).storeUint(mode, 8).storeCoins(value).storeAddress(to).endCell();
  }

  private static TonCell reserveAndSendRest(int mode, long amount, TonAddress to) {
    return TonCell.builder().storeUint(3, 8).storeUint(mode, 8).storeCoins(amount).storeAddress(to).endCell();
  }

  private static final TonCell THROW = TonCell.builder().storeUint(2, 8).endCell();
  private static final TonCell NOTHING = TonCell.builder().storeUint(9, 8).endCell();

  @BeforeEach
  void activateTarget() {
    chain.fund(target, 1, true); // a plain account that takes what the contract sends
  }

  private long count() {
    return ((Counter) chain.account(contract).contract()).count();
  }

  private void deploy(long value) {
    chain.sendInternal(sender, contract, value, false, NOTHING, init);
  }

  @Test
  void shouldDeployFromAStateInitOfKnownCodeAndChargeTheRealGasFee() {
    List<DevnetTransaction> txs = chain.sendInternal(sender, contract, TON, true, send(0, TON / 10, target), init);

    assertThat(chain.account(contract).isContract()).isTrue();
    assertThat(count()).isEqualTo(1);
    DevnetTransaction tx = txs.get(0);
    assertThat(tx.aborted()).isFalse();
    DevnetMessage out = tx.outMsgs().get(0);
    assertThat(out.value()).as("mode 0: the forwarding fee comes out of the value").isEqualTo(TON / 10 - INLINE_FWD);
    assertThat(out.fwdFee()).as("what the sender's share leaves").isEqualTo(INLINE_FWD - NetworkPrices.firstPart(INLINE_FWD));
    assertThat(tx.totalFee()).isEqualTo(NetworkPrices.gasFee(GAS) + NetworkPrices.firstPart(INLINE_FWD));
    assertThat(chain.account(contract).balance()).isEqualTo(TON - NetworkPrices.gasFee(GAS) - TON / 10);
    assertThat(txs).hasSize(2).last().satisfies(t -> assertThat(t.account()).isEqualTo(target));
  }

  @Test
  void shouldBounceWhatTheContractThrowsOnAndKeepItsState() {
    deploy(TON);
    long balance = chain.account(contract).balance();
    TonCell body = TonCell.builder().storeCell(THROW).storeBytes(new byte[40]).endCell();

    List<DevnetTransaction> txs = chain.sendInternal(sender, contract, TON / 10, true, body, null);

    DevnetTransaction tx = txs.get(0);
    assertThat(tx.aborted()).isTrue();
    assertThat(count()).as("the throw changed nothing").isEqualTo(1);
    assertThat(chain.account(contract).balance()).as("the bounce takes the value, the gas fee too").isEqualTo(balance);
    DevnetMessage bounce = tx.outMsgs().get(0);
    assertThat(bounce.destination()).isEqualTo(sender);
    assertThat(bounce.bounced()).isTrue();
    assertThat(bounce.bounce()).isFalse();
    assertThat(bounce.value()).isEqualTo(TON / 10 - NetworkPrices.gasFee(GAS) - INLINE_FWD);
    assertThat(bounce.body().bitLength()).as("0xFFFFFFFF + the first 256 bits").isEqualTo(32 + 256);
    assertThat(bounce.body().parse().loadUint(32)).isEqualTo(0xFFFFFFFFL);
    assertThat(bounce.body().parse().skipBits(32).loadUint(8)).isEqualTo(2);
  }

  @Test
  void shouldNotDeployWhenTheFirstRunThrows() {
    chain.sendInternal(sender, contract, TON, true, THROW, init);

    assertThat(chain.account(contract).isContract()).isFalse();
    assertThat(chain.account(contract).balance()).as("bounced").isZero();
  }

  @Test
  void shouldKeepAFailedSendsValueAndRollTheStateBackWithoutPlus16() {
    deploy(TON);
    long balance = chain.account(contract).balance();

    DevnetTransaction tx = chain.sendInternal(sender, contract, TON / 10, true, send(0, 100 * TON, target), null).get(0);

    assertThat(tx.aborted()).isTrue();
    assertThat(tx.outMsgs()).as("no bounce without +16").isEmpty();
    assertThat(count()).as("rolled back").isEqualTo(1);
    assertThat(chain.account(contract).balance()).isEqualTo(balance + TON / 10 - NetworkPrices.gasFee(GAS));
  }

  @Test
  void shouldBounceWhenASendWithPlus16Fails() {
    deploy(TON);

    DevnetTransaction tx = chain.sendInternal(sender, contract, TON / 10, true, send(16, 100 * TON, target), null).get(0);

    assertThat(tx.aborted()).isTrue();
    assertThat(count()).isEqualTo(1);
    assertThat(tx.outMsgs()).singleElement().satisfies(m -> {
      assertThat(m.bounced()).isTrue();
      assertThat(m.destination()).isEqualTo(sender);
    });
  }

  @Test
  void shouldSkipAFailedSendWithPlus2AndCommit() {
    deploy(TON);

    DevnetTransaction tx = chain.sendInternal(sender, contract, TON / 10, true, send(2, 100 * TON, target), null).get(0);

    assertThat(tx.aborted()).isFalse();
    assertThat(tx.outMsgs()).isEmpty();
    assertThat(count()).isEqualTo(2);
  }

  @Test
  void shouldCarryTheInboundValueLeftAfterGasWithMode64() {
    deploy(TON);
    long balance = chain.account(contract).balance();

    DevnetTransaction tx = chain.sendInternal(sender, contract, TON / 10, true, send(64, 5, target), null).get(0);

    assertThat(tx.outMsgs().get(0).value()).isEqualTo(5 + TON / 10 - NetworkPrices.gasFee(GAS) - INLINE_FWD);
    assertThat(chain.account(contract).balance()).isEqualTo(balance - 5);
  }

  @Test
  void shouldSendAllButTheReserveWithMode128() {
    deploy(TON);
    long keep = TON / 4;

    DevnetTransaction tx = chain.sendInternal(sender, contract, TON / 10, true, reserveAndSendRest(0, keep, target), null)
        .get(0);
    assertThat(chain.account(contract).balance()).isEqualTo(keep);
    assertThat(tx.outMsgs().get(0).value()).isEqualTo(TON + TON / 10 - 2 * NetworkPrices.gasFee(GAS) - keep - INLINE_FWD);

    // reserving more than there is: mode 0 fails the action phase, mode 2 reserves what there is
    assertThat(chain.sendInternal(sender, contract, TON / 10, true, reserveAndSendRest(0, 10 * TON, target), null)
        .get(0).aborted()).isTrue();
    DevnetTransaction atMost = chain.sendInternal(sender, contract, TON / 10, true,
        reserveAndSendRest(2, 10 * TON, target), null).get(0);
    assertThat(atMost.aborted()).as("everything reserved: the send of nothing fails").isTrue();
  }
}
