package org.tonpayouts.devnet.chain;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.ton.ton4j.cell.Cell;
import org.ton.ton4j.cell.CellBuilder;
import org.ton.ton4j.cell.CellSlice;
import org.ton.ton4j.smartcontract.types.WalletCodes;
import org.ton.ton4j.tlb.CurrencyCollection;
import org.ton.ton4j.tlb.ExternalMessageInInfo;
import org.ton.ton4j.tlb.InternalMessageInfo;
import org.ton.ton4j.tlb.InternalMessageInfoRelaxed;
import org.ton.ton4j.tlb.Message;
import org.ton.ton4j.tlb.MessageRelaxed;
import org.ton.ton4j.tlb.MsgAddressExtNone;
import org.ton.ton4j.tlb.MsgAddressIntStd;
import org.ton.ton4j.tlb.StateInit;
import org.tonpayouts.devnet.TestWallet;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.TonCell;
import org.tonpayouts.ton.wallet.TextComment;
import org.tonpayouts.devnet.TestWallet;

/**
 * The oracle for devnet's message cells: what devnet built and read with ton4j before it moved to
 * {@code TonCell} (the former {@code ChainMessages}, {@code ForeignTransfer}, {@code Account},
 * {@code ExternalMessage}, {@code WalletV4R2} and {@code ActionPhase} code, cut to what the
 * equivalence tests compare).
 */
final class Ton4jMessageCells {
  static final Cell CODE = CellBuilder.beginCell().fromBoc(WalletCodes.V4R2.getValue()).endCell();

  private Ton4jMessageCells() {}

  static Cell cell(TonCell cell) {
    return cell == null ? null : Cell.fromBoc(cell.toBoc());
  }

  static String hex(Cell cell) {
    return HexFormat.of().formatHex(cell.getHash());
  }

  static MsgAddressIntStd std(TonAddress address) {
    return TestWallet.std(address);
  }

  // ---- what devnet writes -----------------------------------------------------------------------

  /** The former {@code ChainMessages.internal} cell. */
  static Cell internal(TonAddress source, TonAddress destination, long value, boolean bounce, boolean bounced,
                       long fwdFee, long createdLt, long createdAt, Cell body, StateInit init) {
    InternalMessageInfo info = InternalMessageInfo.builder()
        .iHRDisabled(true)
        .bounce(bounce)
        .bounced(bounced)
        .srcAddr(std(source))
        .dstAddr(std(destination))
        .value(CurrencyCollection.builder().coins(BigInteger.valueOf(value)).build())
        .extraFlags(BigInteger.ZERO)
        .fwdFee(BigInteger.valueOf(fwdFee))
        .createdLt(BigInteger.valueOf(createdLt))
        .createdAt(createdAt)
        .build();
    return Message.builder().info(info).init(init).body(body).build().toCell();
  }

  /** The former {@code ChainMessages.bouncedBody}. */
  static Cell bouncedBody(Cell original) {
    CellSlice slice = CellSlice.beginParse(original);
    int bits = Math.min(256, slice.getRestBits());
    CellBuilder b = CellBuilder.beginCell().storeUint(0xFFFF_FFFFL, 32);
    if (bits > 0) {
      b.storeBitString(slice.loadBits(bits));
    }
    return b.endCell();
  }

  /** The former {@code ForeignTransfer.externalMessage}. */
  static Cell foreignTransfer(TonAddress wallet, TonAddress destination, long amount, String comment, boolean bounce,
                              WalletData data, long utime) {
    Cell info = TestWallet.orderInfo(destination, amount, bounce);
    CellBuilder order = CellBuilder.beginCell().storeCell(info).storeBit(false);
    if (comment == null) {
      order.storeBit(false);
    } else {
      order.storeBit(true).storeRef(cell(TextComment.encode(comment)));
    }
    Cell body = CellBuilder.beginCell()
        .storeBytes(new byte[64])
        .storeUint(data.subwalletId(), 32)
        .storeUint(utime + ForeignTransfer.TTL_SECONDS, 32)
        .storeUint(data.seqno(), 32)
        .storeUint(WalletV4R2.OP_SIMPLE_SEND, 8)
        .storeUint(ForeignTransfer.SEND_MODE, 8)
        .storeRef(order.endCell())
        .endCell();
    return Message.builder()
        .info(ExternalMessageInInfo.builder()
            .srcAddr(MsgAddressExtNone.builder().build())
            .dstAddr(std(wallet))
            .importFee(BigInteger.ZERO)
            .build())
        .body(body)
        .build()
        .toCell();
  }

  /** The former {@code WalletV4R2.dataCell}. */
  static Cell dataCell(WalletData data) {
    return CellBuilder.beginCell()
        .storeUint(data.seqno(), 32)
        .storeUint(data.subwalletId(), 32)
        .storeBytes(data.publicKey())
        .storeBit(false)
        .endCell();
  }

  /** The former {@code Account.stateHashWith} of an existing account. */
  static byte[] stateHash(AccountState state, long balance, long lastLt, WalletData wallet) {
    CellBuilder b = CellBuilder.beginCell()
        .storeBit(true)
        .storeUint(state.ordinal(), 2)
        .storeCoins(BigInteger.valueOf(balance))
        .storeUint(lastLt, 64);
    if (state == AccountState.ACTIVE && wallet != null) {
      b.storeRef(CODE).storeRef(dataCell(wallet));
    }
    return b.endCell().getHash();
  }

  /** The former {@code TransactionPhases.actionListHash}, over {@code (mode, message)} pairs. */
  static byte[] actionListHash(List<Integer> modes, List<Cell> messages) {
    Cell list = CellBuilder.beginCell().endCell();
    for (int i = 0; i < modes.size(); i++) {
      list = CellBuilder.beginCell()
          .storeRef(list)
          .storeUint(0x0ec3c86dL, 32)
          .storeUint(modes.get(i), 8)
          .storeRef(messages.get(i))
          .endCell();
    }
    return list.getHash();
  }

  // ---- what devnet reads ------------------------------------------------------------------------

  /**
   * What the former {@code ExternalMessage.parse}, {@code WalletV4R2.parseBody} and
   * {@code parseActions} read from an external message, as hashes.
   *
   * @param initHash {@code null} without StateInit
   * @param signedHash {@code null} when the body is too short for the wallet's header
   */
  record External(String hash, String normalizedHash, TonAddress destination, String initHash, String codeHash,
                  String dataHash, String bodyHash, String signedHash, List<Integer> modes, List<String> orders) {}

  /** Throws whatever ton4j throws for a BOC that is not an external-in message. */
  static External external(byte[] boc) {
    Cell root = Cell.fromBoc(boc);
    Message message = Message.deserialize(CellSlice.beginParse(root));
    ExternalMessageInInfo info = (ExternalMessageInInfo) message.getInfo();
    MsgAddressIntStd dst = (MsgAddressIntStd) info.getDstAddr();
    if (dst.getAnycast() != null) {
      throw new IllegalArgumentException("anycast");
    }
    TonAddress destination = TestWallet.address(dst);
    StateInit init = message.getInit();
    Cell body = message.getBody() == null
        ? CellBuilder.beginCell().endCell()
        : CellBuilder.beginCell().storeCell(message.getBody()).endCell();
    Cell normalized = CellBuilder.beginCell()
        .storeUint(0b10, 2)
        .storeUint(0b00, 2)
        .storeUint(0b10, 2)
        .storeBit(false)
        .storeInt(destination.workchain(), 8)
        .storeBytes(destination.hash())
        .storeCoins(BigInteger.ZERO)
        .storeBit(false)
        .storeBit(true)
        .storeRef(body)
        .endCell();
    String signedHash = null;
    List<Integer> modes = new ArrayList<>();
    List<String> orders = new ArrayList<>();
    if (body.getBits().getUsedBits() >= 512 + 96) {
      signedHash = hex(CellBuilder.beginCell().storeSlice(CellSlice.beginParse(body).skipBits(512)).endCell());
      CellSlice tail = CellSlice.beginParse(body).skipBits(512 + 96);
      if (tail.getRestBits() >= 8 && tail.loadUint(8).intValue() == 0) {
        while (tail.getRefsCount() > 0 && tail.getRestBits() >= 8) {
          modes.add(tail.loadUint(8).intValue());
          orders.add(hex(tail.loadRef()));
        }
      }
    }
    return new External(hex(root), hex(normalized), destination,
        init == null ? null : hex(init.toCell()),
        init == null || init.getCode() == null ? null : hex(init.getCode()),
        init == null || init.getData() == null ? null : hex(init.getData()),
        hex(body), signedHash, modes, orders);
  }

  /**
   * What the former {@code ActionPhase.decode} made of a wallet's order.
   *
   * @param error why it cannot be sent, or {@code null}
   */
  record Order(String error, TonAddress destination, long value, boolean bounce, Cell body, StateInit init) {
    static Order error(String error) {
      return new Order(error, null, 0, false, null, null);
    }
  }

  static Order order(Cell cell) {
    MessageRelaxed relaxed;
    try {
      relaxed = MessageRelaxed.deserialize(CellSlice.beginParse(cell));
    } catch (RuntimeException | Error e) {
      return Order.error("cannot parse the outbound message: " + e.getMessage());
    }
    if (!(relaxed.getInfo() instanceof InternalMessageInfoRelaxed info)) {
      return Order.error("only internal outbound messages are modelled");
    }
    if (!(info.getDstAddr() instanceof MsgAddressIntStd dst) || dst.getAnycast() != null) {
      return Order.error("destination is not a standard address");
    }
    TonAddress destination;
    try {
      destination = TestWallet.address(dst);
    } catch (IllegalArgumentException e) {
      return Order.error("bad destination: " + e.getMessage());
    }
    BigInteger coins = info.getValue() == null ? BigInteger.ZERO : info.getValue().getCoins();
    if (coins.bitLength() > 62) {
      return Order.error("value " + coins + " exceeds any balance");
    }
    Cell body = relaxed.getBody() == null
        ? CellBuilder.beginCell().endCell()
        : CellBuilder.beginCell().storeCell(relaxed.getBody()).endCell();
    return new Order(null, destination, coins.longValue(), Boolean.TRUE.equals(info.getBounce()), body,
        relaxed.getInit());
  }

}
