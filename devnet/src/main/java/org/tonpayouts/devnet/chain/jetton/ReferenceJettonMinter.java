package org.tonpayouts.devnet.chain.jetton;

import java.math.BigInteger;
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
 * devnet's model of the reference jetton minter as compiled in ton4j ({@code token-contract}
 * {@code ft/jetton-minter.fc}, 2022-04): the master whose jetton wallets devnet derives and
 * mints into. {@code mint#15} (admin only, else 73) sends the admin's internal_transfer with the
 * new wallet's StateInit (mode 1) and adds its amount to the supply; {@code burn_notification}
 * (74 unless from a jetton wallet of this master) subtracts and returns the excess; ops 3 and 4
 * change the admin and the content. Empty and bounced messages are ignored.
 */
public record ReferenceJettonMinter(BigInteger totalSupply, TonAddress admin, TonCell content, TonCell walletCode)
    implements ContractState {
  static final int NOT_ADMIN = 73;
  static final int NOT_VALID_WALLET = 74;
  static final int WRONG_OP = 0xffff;
  private static final int SEND_MODE_PAY_FEES_SEPARATELY = 1;
  private static final int SEND_MODE_CARRY_INBOUND_IGNORE_ERRORS = 64 | 2;

  public ReferenceJettonMinter {
    Objects.requireNonNull(totalSupply, "totalSupply");
    Objects.requireNonNull(content, "content");
    Objects.requireNonNull(walletCode, "walletCode");
  }

  /** Reads {@code total_supply:Coins admin_address:MsgAddress content:^Cell jetton_wallet_code:^Cell}. */
  static ReferenceJettonMinter load(TonCell data) {
    CellReader r = data.parse();
    ReferenceJettonMinter minter = new ReferenceJettonMinter(r.loadBigCoins(), r.loadAddress(), r.loadRef(),
        r.loadRef());
    if (r.remainingBits() != 0 || r.remainingRefs() != 0) {
      throw new IllegalArgumentException("reference jetton minter data has bits or references left over");
    }
    return minter;
  }

  /** The minter of a new jetton: supply 0, {@code admin}, {@code content}, the reference wallet code. */
  static ReferenceJettonMinter initial(TonAddress admin, TonCell content) {
    return new ReferenceJettonMinter(BigInteger.ZERO, admin, content, JettonFlavor.REFERENCE.walletCode());
  }

  @Override
  public TonCell code() {
    return JettonFlavor.REFERENCE.minterCode();
  }

  @Override
  public TonCell data() {
    return TonCell.builder().storeCoins(totalSupply).storeAddress(admin).storeRef(content).storeRef(walletCode)
        .endCell();
  }

  @Override
  public String kind() {
    return "jetton minter (reference)";
  }

  @Override
  public ContractRun receive(InternalCall call) {
    return ContractRun.guarded(JettonGas.REF_MALFORMED, () -> dispatch(call));
  }

  private ContractRun dispatch(InternalCall call) {
    CellReader body = call.body().parse();
    if (body.remainingBits() == 0 && body.remainingRefs() == 0) {
      return ContractRun.completed(this, JettonGas.REF_MINTER_DEPLOY, List.of(), "empty body ignored");
    }
    if (call.bounced()) {
      return ContractRun.completed(this, JettonGas.REF_MINTER_DEPLOY, List.of(), "bounce ignored");
    }
    long op = body.loadUint(32);
    long queryId = body.loadUint(64);
    if (op == JettonOps.REFERENCE_MINT) {
      if (!Objects.equals(admin, call.source())) {
        return notAdmin(call);
      }
      TonAddress to = body.loadAddress();
      long tonAmount = body.loadCoins();
      TonCell masterMsg = body.loadRef();
      CellReader m = masterMsg.parse();
      m.skipBits(32 + 64);
      BigInteger jettonAmount = m.loadBigCoins();
      TonCell stateInit = stateInit(to, call.self());
      TonAddress wallet = TonAddress.of(TonAddress.BASECHAIN, stateInit.hash());
      OutAction send = new OutAction.Send(SEND_MODE_PAY_FEES_SEPARATELY,
          OutMessage.withInit(true, wallet, tonAmount, stateInit, masterMsg));
      return ContractRun.completed(new ReferenceJettonMinter(totalSupply.add(jettonAmount), admin, content, walletCode),
          JettonGas.REF_MINTER_MINT, List.of(send), "mint of " + jettonAmount + " to " + to);
    }
    if (op == JettonOps.BURN_NOTIFICATION) {
      BigInteger jettonAmount = body.loadBigCoins();
      TonAddress from = body.loadAddress();
      if (!TonAddress.of(TonAddress.BASECHAIN, stateInit(from, call.self()).hash()).equals(call.source())) {
        return ContractRun.thrown(NOT_VALID_WALLET, JettonGas.REF_MINTER_NOT_ADMIN, "burn_notification from "
            + call.source() + ", not the jetton wallet of " + from);
      }
      ReferenceJettonMinter next = new ReferenceJettonMinter(totalSupply.subtract(jettonAmount), admin, content,
          walletCode);
      TonAddress response = body.loadAddress();
      List<OutAction> actions = response == null ? List.of() : List.of(new OutAction.Send(
          SEND_MODE_CARRY_INBOUND_IGNORE_ERRORS, OutMessage.bodyInline(false, response, 0, JettonOps.excesses(queryId))));
      return ContractRun.completed(next, JettonGas.REF_MINTER_ADMIN_OP, actions, "burn of " + jettonAmount);
    }
    if (op == JettonOps.REFERENCE_CHANGE_ADMIN || op == JettonOps.REFERENCE_CHANGE_CONTENT) {
      if (!Objects.equals(admin, call.source())) {
        return notAdmin(call);
      }
      ReferenceJettonMinter next = op == JettonOps.REFERENCE_CHANGE_ADMIN
          ? new ReferenceJettonMinter(totalSupply, body.loadAddress(), content, walletCode)
          : new ReferenceJettonMinter(totalSupply, admin, body.loadRef(), walletCode);
      return ContractRun.completed(next, JettonGas.REF_MINTER_ADMIN_OP, List.of(),
          op == JettonOps.REFERENCE_CHANGE_ADMIN ? "admin changed" : "content changed");
    }
    return ContractRun.thrown(WRONG_OP, JettonGas.REF_UNKNOWN_OP, "op 0x" + Long.toHexString(op) + " is not handled");
  }

  private static ContractRun notAdmin(InternalCall call) {
    return ContractRun.thrown(NOT_ADMIN, JettonGas.REF_MINTER_NOT_ADMIN, "sender " + call.source() + " is not the admin");
  }

  /** {@code calculate_jetton_wallet_state_init(owner, my_address(), jetton_wallet_code)}. */
  private TonCell stateInit(TonAddress owner, TonAddress self) {
    return MessageCells.stateInit(walletCode, ReferenceJettonWallet.dataCell(BigInteger.ZERO, owner, self, walletCode));
  }

  @Override
  public GetMethodOutcome runGetMethod(String method, List<StackValue> args, TonAddress self) {
    return switch (method) {
      case "get_jetton_data" -> GetMethodOutcome.ok(JettonGas.GET_JETTON_DATA, List.of(new StackValue.Num(totalSupply),
          StackValue.num(-1), StackValue.address(admin), new StackValue.Cell(content), new StackValue.Cell(walletCode)));
      case "get_wallet_address" -> JettonMinters.walletAddress(args, owner ->
          TonAddress.of(TonAddress.BASECHAIN, stateInit(owner, self).hash()));
      default -> GetMethodOutcome.noMethod();
    };
  }
}
