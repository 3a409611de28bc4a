package org.tonpayouts.devnet.chain.jetton;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.tonpayouts.devnet.chain.ContractRun;
import org.tonpayouts.devnet.chain.ContractState;
import org.tonpayouts.devnet.chain.GetMethodOutcome;
import org.tonpayouts.devnet.chain.HashmapE;
import org.tonpayouts.devnet.chain.InternalCall;
import org.tonpayouts.devnet.chain.NetworkPrices;
import org.tonpayouts.devnet.chain.OutAction;
import org.tonpayouts.devnet.chain.OutMessage;
import org.tonpayouts.devnet.chain.Sha256;
import org.tonpayouts.devnet.chain.StackValue;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.CellReader;
import org.tonpayouts.ton.cell.MessageCells;
import org.tonpayouts.ton.cell.TonCell;

/**
 * devnet's model of the stablecoin jetton minter ({@code ton-blockchain/stablecoin-contract}
 * {@code contracts/jetton-minter.fc}): the admin mints ({@code mint#642b7d07}: 73 unless the
 * admin, 333 for another workchain, 72 unless it carries an internal_transfer, 49 and 48 as a
 * wallet checks a transfer) and reaches wallets with {@code call_to#235caf52} (a set_status, or a
 * transfer the wallet makes on the master's word); both keep {@code 1 TON} ({@code raw_reserve})
 * and send with mode 1+16. A bounced mint takes its amount off the supply; {@code top_up}
 * accepts TON. Not modelled (devnet throws 0xffff where the real one would act): burn through
 * call_to (72 here), burn_notification, provide_wallet_address, change_admin, claim_admin,
 * upgrade, change_metadata_uri.
 */
public record StablecoinJettonMinter(BigInteger totalSupply, TonAddress admin, TonAddress nextAdmin,
                                     TonCell walletCode, TonCell metadataUri) implements ContractState {
  static final int INVALID_OP = 72;
  static final int NOT_OWNER = 73;
  static final int WRONG_WORKCHAIN = 333;
  static final int WRONG_OP = 0xffff;
  private static final int SEND_MODE_PAY_FEES_BOUNCE_ON_FAIL = 1 | 16;
  private static final int RESERVE_REGULAR = 0;
  private static final int DECIMALS = 6;

  public StablecoinJettonMinter {
    Objects.requireNonNull(totalSupply, "totalSupply");
    Objects.requireNonNull(walletCode, "walletCode");
    Objects.requireNonNull(metadataUri, "metadataUri");
  }

  /** Reads {@code total_supply admin_address next_admin_address ^jetton_wallet_code ^metadata_uri}. */
  static StablecoinJettonMinter load(TonCell data) {
    CellReader r = data.parse();
    StablecoinJettonMinter minter = new StablecoinJettonMinter(r.loadBigCoins(), r.loadAddress(), r.loadAddress(),
        r.loadRef(), r.loadRef());
    if (r.remainingBits() != 0 || r.remainingRefs() != 0) {
      throw new IllegalArgumentException("stablecoin jetton minter data has bits or references left over");
    }
    return minter;
  }

  /** The minter of a new jetton: supply 0, {@code admin}, no next admin, the stablecoin wallet code. */
  static StablecoinJettonMinter initial(TonAddress admin, TonCell metadataUri) {
    return new StablecoinJettonMinter(BigInteger.ZERO, admin, null, JettonFlavor.STABLECOIN.walletCode(), metadataUri);
  }

  @Override
  public TonCell code() {
    return JettonFlavor.STABLECOIN.minterCode();
  }

  @Override
  public TonCell data() {
    return TonCell.builder().storeCoins(totalSupply).storeAddress(admin).storeAddress(nextAdmin).storeRef(walletCode)
        .storeRef(metadataUri).endCell();
  }

  @Override
  public String kind() {
    return "jetton minter (stablecoin)";
  }

  @Override
  public ContractRun receive(InternalCall call) {
    return ContractRun.guarded(JettonGas.STABLE_MALFORMED, () -> dispatch(call));
  }

  private ContractRun dispatch(InternalCall call) {
    CellReader body = call.body().parse();
    if (call.bounced()) {
      body.skipBits(32);
      if (body.loadUint(32) != JettonOps.INTERNAL_TRANSFER) {
        return ContractRun.completed(this, JettonGas.STABLE_MINTER_BOUNCE, List.of(), "bounce ignored");
      }
      body.loadUint(64);
      BigInteger amount = body.loadBigCoins();
      return ContractRun.completed(withSupply(totalSupply.subtract(amount)), JettonGas.STABLE_MINTER_BOUNCE, List.of(),
          "bounced mint of " + amount + " taken off the supply");
    }
    long fwdFee = NetworkPrices.originalForwardFee(call.fwdFee());
    long op = body.loadUint(32);
    long queryId = body.loadUint(64);
    if (op == JettonOps.STABLECOIN_MINT) {
      return mint(call, body, fwdFee);
    }
    if (op == JettonOps.CALL_TO) {
      return callTo(call, body, fwdFee);
    }
    if (op == JettonOps.TOP_UP) {
      return ContractRun.completed(this, JettonGas.STABLE_MINTER_DEPLOY, List.of(), "top_up");
    }
    return ContractRun.thrown(WRONG_OP, JettonGas.STABLE_UNKNOWN_OP, "op 0x" + Long.toHexString(op)
        + " is not handled (query_id " + queryId + ")");
  }

  private ContractRun mint(InternalCall call, CellReader body, long fwdFee) {
    if (!Objects.equals(admin, call.source())) {
      return notAdmin(call);
    }
    TonAddress to = body.loadAddress();
    ContractRun wrongChain = checkWorkchain(to);
    if (wrongChain != null) {
      return wrongChain;
    }
    long tonAmount = body.loadCoins();
    TonCell masterMsg = body.loadRef();
    StablecoinJettonWallet.endParse(body);
    CellReader m = masterMsg.parse();
    if (m.loadUint(32) != JettonOps.INTERNAL_TRANSFER) {
      return ContractRun.thrown(INVALID_OP, JettonGas.STABLE_MINTER_REFUSED, "master_msg is not an internal_transfer");
    }
    m.loadUint(64);
    BigInteger jettonAmount = m.loadBigCoins();
    m.loadAddress();                                     // from
    m.loadAddress();                                     // response_address
    BigInteger forwardTon = m.loadBigCoins();
    ContractRun refused = checkTransfer(m.rest(), tonAmount, forwardTon, fwdFee);
    if (refused != null) {
      return refused;
    }
    TonCell stateInit = stateInit(to, call.self());
    TonAddress wallet = TonAddress.of(TonAddress.BASECHAIN, stateInit.hash());
    List<OutAction> actions = List.of(
        new OutAction.Reserve(StablecoinFees.ONE_TON, RESERVE_REGULAR),
        new OutAction.Send(SEND_MODE_PAY_FEES_BOUNCE_ON_FAIL,
            OutMessage.withInit(true, wallet, tonAmount, stateInit, masterMsg)));
    return ContractRun.completed(withSupply(totalSupply.add(jettonAmount)), JettonGas.STABLE_MINTER_MINT, actions,
        "mint of " + jettonAmount + " to " + to);
  }

  private ContractRun callTo(InternalCall call, CellReader body, long fwdFee) {
    if (!Objects.equals(admin, call.source())) {
      return notAdmin(call);
    }
    TonAddress to = body.loadAddress();
    long tonAmount = body.loadCoins();
    TonCell masterMsg = body.loadRef();
    StablecoinJettonWallet.endParse(body);
    CellReader m = masterMsg.parse();
    long masterOp = m.loadUint(32);
    m.loadUint(64);
    if (masterOp == JettonOps.TRANSFER) {
      m.loadBigCoins();                                  // jetton_amount
      m.loadAddress();                                   // to_owner_address
      m.loadAddress();                                   // response_address
      if (m.loadBit()) {
        m.loadRef();                                     // custom_payload
      }
      BigInteger forwardTon = m.loadBigCoins();
      ContractRun refused = checkTransfer(m.rest(), tonAmount, forwardTon, fwdFee);
      if (refused != null) {
        return refused;
      }
    } else if (masterOp == JettonOps.SET_STATUS) {
      m.loadUint(4);
      StablecoinJettonWallet.endParse(m);
    } else {
      return ContractRun.thrown(INVALID_OP, JettonGas.STABLE_MINTER_REFUSED, "call_to op 0x" + Long.toHexString(masterOp)
          + " is not forwarded" + (masterOp == JettonOps.BURN ? " (devnet does not model burn)" : ""));
    }
    TonAddress wallet = TonAddress.of(TonAddress.BASECHAIN, stateInit(to, call.self()).hash());
    List<OutAction> actions = List.of(
        new OutAction.Reserve(StablecoinFees.ONE_TON, RESERVE_REGULAR),
        new OutAction.Send(SEND_MODE_PAY_FEES_BOUNCE_ON_FAIL, OutMessage.bodyInRef(true, wallet, tonAmount, masterMsg)));
    return ContractRun.completed(this, JettonGas.STABLE_MINTER_CALL_TO, actions,
        "call_to op 0x" + Long.toHexString(masterOp) + " for " + to);
  }

  /** 49 for a badly placed forward payload, 48 when {@code tonAmount} does not pay the transfer. */
  private static ContractRun checkTransfer(TonCell payload, long tonAmount, BigInteger forwardTon, long fwdFee) {
    if (!Payloads.eitherWellFormed(payload)) {
      return ContractRun.thrown(StablecoinJettonWallet.INVALID_MESSAGE, JettonGas.STABLE_MINTER_REFUSED,
          "forward_payload in a reference with something beside it");
    }
    if (!StablecoinFees.enoughToTransfer(BigInteger.valueOf(tonAmount), forwardTon, fwdFee)) {
      return ContractRun.thrown(StablecoinJettonWallet.NOT_ENOUGH_GAS, JettonGas.STABLE_MINTER_REFUSED,
          "ton_amount " + tonAmount + " does not pay the transfer's fees");
    }
    return null;
  }

  private static ContractRun checkWorkchain(TonAddress to) {
    if (to == null) {
      return ContractRun.thrown(ContractRun.CELL_UNDERFLOW, JettonGas.STABLE_MALFORMED, "to_address is addr_none");
    }
    if (to.workchain() != TonAddress.BASECHAIN) {
      return ContractRun.thrown(WRONG_WORKCHAIN, JettonGas.STABLE_MINTER_REFUSED, "to_address on workchain "
          + to.workchain());
    }
    return null;
  }

  private static ContractRun notAdmin(InternalCall call) {
    return ContractRun.thrown(NOT_OWNER, JettonGas.STABLE_MINTER_NOT_ADMIN, "sender " + call.source()
        + " is not the admin");
  }

  /** {@code calculate_jetton_wallet_state_init(owner, my_address(), jetton_wallet_code)}. */
  private TonCell stateInit(TonAddress owner, TonAddress self) {
    return MessageCells.stateInit(walletCode, StablecoinJettonWallet.dataCell(0, BigInteger.ZERO, owner, self));
  }

  private StablecoinJettonMinter withSupply(BigInteger supply) {
    return new StablecoinJettonMinter(supply, admin, nextAdmin, walletCode, metadataUri);
  }

  /**
   * {@code build_content_cell}: TEP-64 on-chain content (0x00, then a dictionary keyed by the
   * SHA-256 of each key) holding {@code uri} (the metadata URI) and {@code decimals} ("6"), each a
   * snake value after a 0x00 byte.
   */
  TonCell content() {
    TonCell uri = TonCell.builder().storeUint(0, 8).storeCell(metadataUri).endCell();
    TonCell decimals = TonCell.builder().storeUint(0, 8)
        .storeBytes(Integer.toString(DECIMALS).getBytes(StandardCharsets.US_ASCII)).endCell();
    TonCell dict = HashmapE.of(256, Map.of(key("uri"), uri, key("decimals"), decimals));
    return TonCell.builder().storeUint(0, 8).storeBit(true).storeRef(dict).endCell();
  }

  /** FunC's {@code "name"H}: the SHA-256 of the key's name as a 256-bit number. */
  private static BigInteger key(String name) {
    return new BigInteger(1, Sha256.of(name));
  }

  @Override
  public GetMethodOutcome runGetMethod(String method, List<StackValue> args, TonAddress self) {
    return switch (method) {
      case "get_jetton_data" -> GetMethodOutcome.ok(JettonGas.GET_JETTON_DATA, List.of(new StackValue.Num(totalSupply),
          StackValue.num(-1), StackValue.address(admin), new StackValue.Cell(content()), new StackValue.Cell(walletCode)));
      case "get_wallet_address" -> JettonMinters.walletAddress(args,
          owner -> TonAddress.of(TonAddress.BASECHAIN, stateInit(owner, self).hash()));
      case "get_next_admin_address" -> GetMethodOutcome.ok(JettonGas.GET_WALLET_DATA,
          List.of(StackValue.address(nextAdmin)));
      default -> GetMethodOutcome.noMethod();
    };
  }
}
