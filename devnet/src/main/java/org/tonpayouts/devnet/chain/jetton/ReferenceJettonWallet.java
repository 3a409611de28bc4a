package org.tonpayouts.devnet.chain.jetton;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.tonpayouts.devnet.chain.ContractRun;
import org.tonpayouts.devnet.chain.ContractState;
import org.tonpayouts.devnet.chain.GetMethodOutcome;
import org.tonpayouts.devnet.chain.InternalCall;
import org.tonpayouts.devnet.chain.OutAction;
import org.tonpayouts.devnet.chain.OutMessage;
import org.tonpayouts.devnet.chain.StackValue;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.CellReader;
import org.tonpayouts.ton.cell.MessageCells;
import org.tonpayouts.ton.cell.TonCell;

/**
 * devnet's model of the reference jetton wallet as compiled in ton4j ({@code token-contract}
 * {@code ft/jetton-wallet.fc}, 2022-04): the receiver's and the sender's side of every jetton
 * payout on a reference jetton, with the contract's checks in the contract's order.
 *
 * <p>{@code transfer}: destination on another workchain 333; not the owner 705; more than the
 * balance 706; then the internal_transfer (with StateInit, mode 64) is built and 709 thrown unless
 * the value exceeds {@code forward_ton_amount + (1 or 2) * fwd_fee + 0.03 TON}. This code has no
 * 708 check: a body without the forward_payload bit is accepted. {@code internal_transfer}: 707
 * unless from the master or a jetton wallet of this master; keeps {@code 0.01 TON} (what the
 * balance before lacks of it) and {@code 0.01 TON} of gas, sends a <em>bounceable</em>
 * {@code transfer_notification} (mode 1) when forward TON > 0 and the excess (mode 2) to the
 * response address when something is left. A bounced internal_transfer is re-credited; other
 * bounces throw 709. An empty body is ignored; {@code burn} is not modelled (devnet throws 0xffff).
 *
 * @param walletCode the jetton wallet code the data holds (the code addresses are derived with)
 */
public record ReferenceJettonWallet(BigInteger balance, TonAddress owner, TonAddress master, TonCell walletCode)
    implements ContractState {
  static final long MIN_TONS_FOR_STORAGE = 10_000_000L;
  static final long GAS_CONSUMPTION = 10_000_000L;
  static final int WRONG_WORKCHAIN = 333;
  static final int NOT_OWNER = 705;
  static final int BALANCE_ERROR = 706;
  static final int NOT_VALID_WALLET = 707;
  static final int NOT_ENOUGH_TON = 709;
  static final int WRONG_OP = 0xffff;
  private static final int SEND_MODE_CARRY_INBOUND = 64;
  private static final int SEND_MODE_PAY_FEES_SEPARATELY = 1;
  private static final int SEND_MODE_IGNORE_ERRORS = 2;

  public ReferenceJettonWallet {
    Objects.requireNonNull(balance, "balance");
    Objects.requireNonNull(walletCode, "walletCode");
  }

  /** Reads {@code balance:Coins owner:MsgAddress master:MsgAddress ^code}. */
  static ReferenceJettonWallet load(TonCell data) {
    CellReader r = data.parse();
    ReferenceJettonWallet wallet = new ReferenceJettonWallet(r.loadBigCoins(), r.loadAddress(), r.loadAddress(),
        r.loadRef());
    if (r.remainingBits() != 0 || r.remainingRefs() != 0) {
      throw new IllegalArgumentException("reference jetton wallet data has bits or references left over");
    }
    return wallet;
  }

  /** {@code pack_jetton_wallet_data}. */
  static TonCell dataCell(BigInteger balance, TonAddress owner, TonAddress master, TonCell walletCode) {
    return TonCell.builder().storeCoins(balance).storeAddress(owner).storeAddress(master).storeRef(walletCode)
        .endCell();
  }

  @Override
  public TonCell code() {
    return JettonFlavor.REFERENCE.walletCode();
  }

  @Override
  public TonCell data() {
    return dataCell(balance, owner, master, walletCode);
  }

  @Override
  public String kind() {
    return "jetton wallet (reference)";
  }

  @Override
  public ContractRun receive(InternalCall call) {
    return ContractRun.guarded(JettonGas.REF_MALFORMED, () -> dispatch(call));
  }

  private ContractRun dispatch(InternalCall call) {
    CellReader body = call.body().parse();
    if (body.remainingBits() == 0 && body.remainingRefs() == 0) {
      return ContractRun.completed(this, JettonGas.REF_EMPTY, List.of(), "empty body ignored");
    }
    if (call.bounced()) {
      return onBounce(body);
    }
    long op = body.loadUint(32);
    if (op == JettonOps.TRANSFER) {
      return send(call, body);
    }
    if (op == JettonOps.INTERNAL_TRANSFER) {
      return receiveTokens(call, body);
    }
    return ContractRun.thrown(WRONG_OP, JettonGas.REF_UNKNOWN_OP, "op 0x" + Long.toHexString(op) + " is not handled"
        + (op == JettonOps.BURN ? " (devnet does not model burn)" : ""));
  }

  private ContractRun send(InternalCall call, CellReader body) {
    long queryId = body.loadUint(64);
    BigInteger amount = body.loadBigCoins();
    TonAddress toOwner = body.loadAddress();
    if (toOwner == null) {
      return ContractRun.thrown(ContractRun.CELL_UNDERFLOW, JettonGas.REF_MALFORMED, "destination is addr_none");
    }
    if (toOwner.workchain() != TonAddress.BASECHAIN) {
      return ContractRun.thrown(WRONG_WORKCHAIN, JettonGas.REF_MALFORMED, "destination on workchain "
          + toOwner.workchain());
    }
    BigInteger left = balance.subtract(amount);
    if (!Objects.equals(owner, call.source())) {
      return ContractRun.thrown(NOT_OWNER, JettonGas.REF_NOT_OWNER_705, "sender " + call.source() + " is not the owner");
    }
    if (left.signum() < 0) {
      return ContractRun.thrown(BALANCE_ERROR, JettonGas.REF_BALANCE_706, "transfer of " + amount + ", balance "
          + balance);
    }
    TonCell stateInit = stateInit(toOwner);
    TonAddress toWallet = TonAddress.of(TonAddress.BASECHAIN, stateInit.hash());
    TonAddress response = body.loadAddress();
    if (body.loadBit()) {
      body.loadRef();                                    // custom_payload: read, not used
    }
    BigInteger forwardTon = body.loadBigCoins();
    TonCell payload = body.rest();
    TonCell out = JettonOps.internalTransfer(queryId, amount, owner, response, forwardTon, payload);
    BigInteger needed = forwardTon
        .add(BigInteger.valueOf((forwardTon.signum() != 0 ? 2 : 1) * call.fwdFee()))
        .add(BigInteger.valueOf(2 * GAS_CONSUMPTION + MIN_TONS_FOR_STORAGE));
    if (BigInteger.valueOf(call.value()).compareTo(needed) <= 0) {
      return ContractRun.thrown(NOT_ENOUGH_TON, JettonGas.REF_NOT_ENOUGH_TON_709, "value " + call.value()
          + " does not exceed " + needed);
    }
    OutAction transfer = new OutAction.Send(SEND_MODE_CARRY_INBOUND,
        OutMessage.withInit(true, toWallet, 0, stateInit, out));
    return ContractRun.completed(new ReferenceJettonWallet(left, owner, master, walletCode), JettonGas.REF_SEND,
        List.of(transfer), "transfer of " + amount + " to " + toOwner + " query_id " + queryId);
  }

  private ContractRun receiveTokens(InternalCall call, CellReader body) {
    long queryId = body.loadUint(64);
    BigInteger amount = body.loadBigCoins();
    TonAddress from = body.loadAddress();
    TonAddress response = body.loadAddress();
    boolean fromMaster = Objects.equals(master, call.source());
    boolean fromWallet = TonAddress.of(TonAddress.BASECHAIN, stateInit(from).hash()).equals(call.source());
    if (!fromMaster && !fromWallet) {
      return ContractRun.thrown(NOT_VALID_WALLET, JettonGas.REF_NOT_VALID_WALLET_707, "internal_transfer from "
          + call.source() + ", neither the master nor the jetton wallet of " + from);
    }
    BigInteger forwardTon = body.loadBigCoins();
    long storageFee = MIN_TONS_FOR_STORAGE - Math.min(call.balanceBefore(), MIN_TONS_FOR_STORAGE);
    BigInteger msgValue = BigInteger.valueOf(call.value() - storageFee - GAS_CONSUMPTION);
    List<OutAction> actions = new ArrayList<>();
    long gas = JettonGas.REF_RECEIVE;
    if (forwardTon.signum() != 0) {
      msgValue = msgValue.subtract(forwardTon).subtract(BigInteger.valueOf(call.fwdFee()));
      TonCell notification = JettonOps.transferNotification(queryId, amount, from, body.rest());
      // this code sends the notification bounceable (0x18); later versions do not
      actions.add(new OutAction.Send(SEND_MODE_PAY_FEES_SEPARATELY,
          OutMessage.bodyInRef(true, owner, Payloads.sendable(forwardTon), notification)));
      gas += JettonGas.REF_RECEIVE_NOTIFY;
    }
    if (response != null && msgValue.signum() > 0) {
      actions.add(new OutAction.Send(SEND_MODE_IGNORE_ERRORS,
          OutMessage.bodyInline(false, response, msgValue.longValueExact(), JettonOps.excesses(queryId))));
      gas += JettonGas.REF_RECEIVE_EXCESS;
    }
    return ContractRun.completed(new ReferenceJettonWallet(balance.add(amount), owner, master, walletCode), gas,
        actions, "received " + amount + " from " + from + " query_id " + queryId);
  }

  private ContractRun onBounce(CellReader body) {
    body.skipBits(32);                                   // 0xFFFFFFFF
    long op = body.loadUint(32);
    if (op != JettonOps.INTERNAL_TRANSFER && op != JettonOps.BURN_NOTIFICATION) {
      return ContractRun.thrown(NOT_ENOUGH_TON, JettonGas.REF_BOUNCE_WRONG_OP, "bounced op 0x" + Long.toHexString(op)
          + " is neither internal_transfer nor burn_notification");
    }
    body.loadUint(64);
    BigInteger amount = body.loadBigCoins();
    return ContractRun.completed(new ReferenceJettonWallet(balance.add(amount), owner, master, walletCode),
        JettonGas.REF_BOUNCE_RECREDIT, List.of(), "bounce re-credited " + amount);
  }

  /** {@code calculate_jetton_wallet_state_init} with the code this wallet's data holds. */
  private TonCell stateInit(TonAddress walletOwner) {
    return MessageCells.stateInit(walletCode, dataCell(BigInteger.ZERO, walletOwner, master, walletCode));
  }

  @Override
  public GetMethodOutcome runGetMethod(String method, List<StackValue> args, TonAddress self) {
    if (!"get_wallet_data".equals(method)) {
      return GetMethodOutcome.noMethod();
    }
    return GetMethodOutcome.ok(JettonGas.GET_WALLET_DATA, List.of(new StackValue.Num(balance),
        StackValue.address(owner), StackValue.address(master), new StackValue.Cell(walletCode)));
  }
}
