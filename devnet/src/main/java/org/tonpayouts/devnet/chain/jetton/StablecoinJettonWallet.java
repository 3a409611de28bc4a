package org.tonpayouts.devnet.chain.jetton;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.tonpayouts.devnet.chain.ContractRun;
import org.tonpayouts.devnet.chain.ContractState;
import org.tonpayouts.devnet.chain.GetMethodOutcome;
import org.tonpayouts.devnet.chain.InternalCall;
import org.tonpayouts.devnet.chain.NetworkPrices;
import org.tonpayouts.devnet.chain.OutAction;
import org.tonpayouts.devnet.chain.OutMessage;
import org.tonpayouts.devnet.chain.StackValue;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.CellReader;
import org.tonpayouts.ton.cell.MalformedCellException;
import org.tonpayouts.ton.cell.TonCell;

/**
 * devnet's model of the stablecoin jetton wallet ({@code ton-blockchain/stablecoin-contract}
 * {@code contracts/jetton-wallet.fc}), with the contract's checks in the contract's order.
 *
 * <p>{@code transfer}: destination on another workchain 333; outgoing transfers locked (status
 * bit 1) 45 unless from the master; not the owner (nor the master) 73; more than the balance 47;
 * forward_payload in a reference with anything beside it 49 (no Either bit at all: 9); value not
 * above {@link StablecoinFees#enoughToTransfer} 48; then internal_transfer with StateInit, mode
 * 64+16. {@code internal_transfer}: incoming locked (status bit 2) 45; 74 unless from the master
 * or a jetton wallet of this master; a non-bounceable notification (mode 1+16) when forward TON > 0;
 * with a response address, reserves what the wallet had before (at least five years of storage)
 * and sends the rest as the excess (mode 128+2). A bounced internal_transfer is re-credited;
 * {@code set_status} from the master sets the status; {@code top_up} accepts TON.
 * {@code burn} is not modelled (devnet throws 0xffff).
 */
public record StablecoinJettonWallet(int status, BigInteger balance, TonAddress owner, TonAddress master)
    implements ContractState {
  static final int CONTRACT_LOCKED = 45;
  static final int BALANCE_ERROR = 47;
  static final int NOT_ENOUGH_GAS = 48;
  static final int INVALID_MESSAGE = 49;
  static final int NOT_OWNER = 73;
  static final int NOT_VALID_WALLET = 74;
  static final int WRONG_WORKCHAIN = 333;
  static final int WRONG_OP = 0xffff;
  private static final int SEND_MODE_PAY_FEES_SEPARATELY = 1;
  private static final int SEND_MODE_IGNORE_ERRORS = 2;
  private static final int SEND_MODE_BOUNCE_ON_ACTION_FAIL = 16;
  private static final int SEND_MODE_CARRY_INBOUND = 64;
  private static final int SEND_MODE_CARRY_ALL_BALANCE = 128;
  private static final int RESERVE_AT_MOST = 2;

  public StablecoinJettonWallet {
    Objects.requireNonNull(balance, "balance");
    if (status < 0 || status > 15) {
      throw new IllegalArgumentException("status is 4 bits, got " + status);
    }
  }

  /** Reads {@code status:uint4 balance:Coins owner master} (nothing after: the contract's end_parse). */
  static StablecoinJettonWallet load(TonCell data) {
    CellReader r = data.parse();
    StablecoinJettonWallet wallet = new StablecoinJettonWallet((int) r.loadUint(4), r.loadBigCoins(), r.loadAddress(),
        r.loadAddress());
    if (r.remainingBits() != 0 || r.remainingRefs() != 0) {
      throw new IllegalArgumentException("stablecoin jetton wallet data has bits or references left over");
    }
    return wallet;
  }

  /** {@code pack_jetton_wallet_data}. */
  static TonCell dataCell(int status, BigInteger balance, TonAddress owner, TonAddress master) {
    return TonCell.builder().storeUint(status, 4).storeCoins(balance).storeAddress(owner).storeAddress(master)
        .endCell();
  }

  @Override
  public TonCell code() {
    return JettonFlavor.STABLECOIN.walletCode();
  }

  @Override
  public TonCell data() {
    return dataCell(status, balance, owner, master);
  }

  @Override
  public String kind() {
    return "jetton wallet (stablecoin)";
  }

  @Override
  public ContractRun receive(InternalCall call) {
    return ContractRun.guarded(JettonGas.STABLE_MALFORMED, () -> dispatch(call));
  }

  private ContractRun dispatch(InternalCall call) {
    CellReader body = call.body().parse();
    if (call.bounced()) {
      return onBounce(body);
    }
    long fwdFee = NetworkPrices.originalForwardFee(call.fwdFee());
    long op = body.loadUint(32);
    if (op == JettonOps.TRANSFER) {
      return send(call, body, fwdFee);
    }
    if (op == JettonOps.INTERNAL_TRANSFER) {
      return receiveJettons(call, body);
    }
    if (op == JettonOps.SET_STATUS) {
      body.loadUint(64);
      int newStatus = (int) body.loadUint(4);
      endParse(body);
      if (!Objects.equals(master, call.source())) {
        return ContractRun.thrown(NOT_VALID_WALLET, JettonGas.STABLE_SET_STATUS, "set_status from " + call.source()
            + ", not the master");
      }
      return ContractRun.completed(new StablecoinJettonWallet(newStatus, balance, owner, master),
          JettonGas.STABLE_SET_STATUS, List.of(), "status " + status + " -> " + newStatus);
    }
    if (op == JettonOps.TOP_UP) {
      return ContractRun.completed(this, JettonGas.STABLE_TOP_UP, List.of(), "top_up");
    }
    return ContractRun.thrown(WRONG_OP, JettonGas.STABLE_UNKNOWN_OP, "op 0x" + Long.toHexString(op)
        + " is not handled" + (op == JettonOps.BURN ? " (devnet does not model burn)" : ""));
  }

  private ContractRun send(InternalCall call, CellReader body, long fwdFee) {
    long queryId = body.loadUint(64);
    BigInteger amount = body.loadBigCoins();
    TonAddress toOwner = body.loadAddress();
    if (toOwner == null) {
      return ContractRun.thrown(ContractRun.CELL_UNDERFLOW, JettonGas.STABLE_MALFORMED, "destination is addr_none");
    }
    if (toOwner.workchain() != TonAddress.BASECHAIN) {
      return ContractRun.thrown(WRONG_WORKCHAIN, JettonGas.STABLE_MALFORMED, "destination on workchain "
          + toOwner.workchain());
    }
    boolean fromMaster = Objects.equals(master, call.source());
    if ((status & 1) != 0 && !fromMaster) {
      return ContractRun.thrown(CONTRACT_LOCKED, JettonGas.STABLE_SEND_LOCKED_45, "outgoing transfers are locked"
          + " (status " + status + ")");
    }
    if (!Objects.equals(owner, call.source()) && !fromMaster) {
      return ContractRun.thrown(NOT_OWNER, JettonGas.STABLE_NOT_OWNER_73, "sender " + call.source()
          + " is neither the owner nor the master");
    }
    BigInteger left = balance.subtract(amount);
    if (left.signum() < 0) {
      return ContractRun.thrown(BALANCE_ERROR, JettonGas.STABLE_BALANCE_47, "transfer of " + amount + ", balance "
          + balance);
    }
    TonCell stateInit = JettonFlavor.STABLECOIN.walletStateInit(toOwner, master);
    TonAddress toWallet = TonAddress.of(TonAddress.BASECHAIN, stateInit.hash());
    TonAddress response = body.loadAddress();
    if (body.loadBit()) {
      body.loadRef();                                    // custom_payload: skipped
    }
    BigInteger forwardTon = body.loadBigCoins();
    TonCell payload = body.rest();
    if (payload.bitLength() == 0) {
      return ContractRun.thrown(ContractRun.CELL_UNDERFLOW, JettonGas.STABLE_NO_PAYLOAD_BIT_9,
          "cell underflow: no forward_payload Either bit");
    }
    if (!Payloads.eitherWellFormed(payload)) {
      return ContractRun.thrown(INVALID_MESSAGE, JettonGas.STABLE_INVALID_PAYLOAD_49,
          "forward_payload in a reference with " + (payload.bitLength() - 1) + " bits and "
              + (payload.refCount() - 1) + " references beside it");
    }
    TonCell out = JettonOps.internalTransfer(queryId, amount, owner, response, forwardTon, payload);
    if (!StablecoinFees.enoughToTransfer(BigInteger.valueOf(call.value()), forwardTon, fwdFee)) {
      return ContractRun.thrown(NOT_ENOUGH_GAS, JettonGas.STABLE_NOT_ENOUGH_TON_48, "value " + call.value()
          + " does not pay the transfer's fees");
    }
    OutAction transfer = new OutAction.Send(SEND_MODE_CARRY_INBOUND | SEND_MODE_BOUNCE_ON_ACTION_FAIL,
        OutMessage.withInit(true, toWallet, 0, stateInit, out));
    long gas = JettonGas.STABLE_SEND + (Payloads.inRef(payload) ? JettonGas.STABLE_SEND_PAYLOAD_REF : 0);
    return ContractRun.completed(new StablecoinJettonWallet(status, left, owner, master), gas, List.of(transfer),
        "transfer of " + amount + " to " + toOwner + " query_id " + queryId);
  }

  private ContractRun receiveJettons(InternalCall call, CellReader body) {
    if ((status & 2) != 0) {
      return ContractRun.thrown(CONTRACT_LOCKED, JettonGas.STABLE_RECEIVE_LOCKED_45, "incoming transfers are locked"
          + " (status " + status + ")");
    }
    long queryId = body.loadUint(64);
    BigInteger amount = body.loadBigCoins();
    TonAddress from = body.loadAddress();
    TonAddress response = body.loadAddress();
    boolean fromMaster = Objects.equals(master, call.source());
    if (!fromMaster && !JettonFlavor.STABLECOIN.walletAddress(from, master).equals(call.source())) {
      return ContractRun.thrown(NOT_VALID_WALLET, JettonGas.STABLE_NOT_VALID_WALLET_74, "internal_transfer from "
          + call.source() + ", neither the master nor the jetton wallet of " + from);
    }
    BigInteger forwardTon = body.loadBigCoins();
    List<OutAction> actions = new ArrayList<>();
    long gas = JettonGas.STABLE_RECEIVE;
    if (forwardTon.signum() != 0) {
      TonCell notification = JettonOps.transferNotification(queryId, amount, from, body.rest());
      actions.add(new OutAction.Send(SEND_MODE_PAY_FEES_SEPARATELY | SEND_MODE_BOUNCE_ON_ACTION_FAIL,
          OutMessage.bodyInRef(false, owner, Payloads.sendable(forwardTon), notification)));
      gas += JettonGas.STABLE_RECEIVE_NOTIFY;
    }
    if (response != null) {
      // keep what the wallet had before this message (devnet charges no storage, so nothing is due)
      actions.add(new OutAction.Reserve(Math.max(call.balanceBefore(), StablecoinFees.minStorageFee()),
          RESERVE_AT_MOST));
      actions.add(new OutAction.Send(SEND_MODE_CARRY_ALL_BALANCE | SEND_MODE_IGNORE_ERRORS,
          OutMessage.bodyInline(false, response, 0, JettonOps.excesses(queryId))));
      gas += JettonGas.STABLE_RECEIVE_EXCESS;
    }
    return ContractRun.completed(new StablecoinJettonWallet(status, balance.add(amount), owner, master), gas, actions,
        "received " + amount + " from " + from + " query_id " + queryId);
  }

  private ContractRun onBounce(CellReader body) {
    body.skipBits(32);                                   // 0xFFFFFFFF
    long op = body.loadUint(32);
    if (op != JettonOps.INTERNAL_TRANSFER && op != JettonOps.BURN_NOTIFICATION) {
      return ContractRun.thrown(WRONG_OP, JettonGas.STABLE_BOUNCE_WRONG_OP, "bounced op 0x" + Long.toHexString(op)
          + " is neither internal_transfer nor burn_notification");
    }
    body.loadUint(64);
    BigInteger amount = body.loadBigCoins();
    return ContractRun.completed(new StablecoinJettonWallet(status, balance.add(amount), owner, master),
        JettonGas.STABLE_BOUNCE_RECREDIT, List.of(), "bounce re-credited " + amount);
  }

  /** FunC's {@code end_parse}: anything left is a cell underflow's sibling, exit 9. */
  static void endParse(CellReader body) {
    if (body.remainingBits() != 0 || body.remainingRefs() != 0) {
      throw new MalformedCellException("end_parse: " + body.remainingBits() + " bits and " + body.remainingRefs()
          + " references left");
    }
  }

  @Override
  public GetMethodOutcome runGetMethod(String method, List<StackValue> args, TonAddress self) {
    return switch (method) {
      case "get_wallet_data" -> GetMethodOutcome.ok(JettonGas.GET_WALLET_DATA, List.of(new StackValue.Num(balance),
          StackValue.address(owner), StackValue.address(master), new StackValue.Cell(code())));
      case "get_status" -> GetMethodOutcome.ok(JettonGas.GET_WALLET_DATA, List.of(StackValue.num(status)));
      default -> GetMethodOutcome.noMethod();
    };
  }
}
