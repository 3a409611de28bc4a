package org.tonpayouts.ton.wallet;

import java.math.BigInteger;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.ton.ton4j.cell.Cell;
import org.ton.ton4j.cell.CellBuilder;
import org.ton.ton4j.tlb.CurrencyCollection;
import org.ton.ton4j.tlb.ExternalMessageInInfo;
import org.ton.ton4j.tlb.InternalMessageInfoRelaxed;
import org.ton.ton4j.tlb.Message;
import org.ton.ton4j.tlb.MsgAddressExtNone;
import org.ton.ton4j.tlb.MsgAddressIntStd;
import org.ton.ton4j.tlb.StateInit;
import org.tonpayouts.ton.address.TonAddress;

/**
 * Builds and signs WalletV4R2 transfers: the step between "wallet is idle, seqno read" and the
 * intent row. Send mode 3, StateInit attached when seqno is 0, no network, no hidden clock.
 *
 * <p>Cells are laid out exactly as the official TON JS SDK does ({@code @ton/ton}
 * {@code WalletContractV4.createTransfer} wrapped by {@code storeMessage(external(...))}): init and
 * body are stored inline when they fit, in a reference otherwise. So the message hash equals what
 * the JS SDK would compute for the same transfer (vectors in the tests).
 *
 * <p>Thread-safe: holds no mutable state.
 */
public final class TransferSigner {
  private static final Logger log = LoggerFactory.getLogger(TransferSigner.class);

  /** Pay fees separately (1) + ignore errors (2): an unaffordable send is skipped, never retried (TON-FACTS). */
  public static final int SEND_MODE = 3;
  public static final int MAX_ORDERS = 4;
  private static final int OP_SIMPLE_SEND = 0;
  private static final int CELL_REFS = 4;

  private final Subwallets subwallets;

  public TransferSigner(Subwallets subwallets) {
    this.subwallets = Objects.requireNonNull(subwallets, "subwallets");
  }

  public Subwallets subwallets() {
    return subwallets;
  }

  /**
   * Signs one external message carrying {@code orders} (1 to 4, in order) from subwallet
   * {@code subwalletId} with {@code seqno}, valid until {@code validUntil} (whole seconds; the
   * wallet rejects it at or after that second).
   */
  public SignedTransfer sign(long subwalletId, long seqno, Instant validUntil, List<TransferOrder> orders) {
    Subwallets.checkSubwalletId(subwalletId);
    if (seqno < 0 || seqno > 0xFFFF_FFFFL) {
      throw new IllegalArgumentException("seqno " + seqno + " is outside uint32");
    }
    Objects.requireNonNull(validUntil, "validUntil");
    long until = validUntil.getEpochSecond();
    if (until <= 0 || until > 0xFFFF_FFFFL) {
      // 0 would not be "no expiry": ton4j silently turns it into now+60 and the contract rejects it.
      throw new IllegalArgumentException("validUntil " + validUntil + " is outside 1..2^32-1 unix seconds");
    }
    Objects.requireNonNull(orders, "orders");
    if (orders.isEmpty() || orders.size() > MAX_ORDERS) {
      throw new IllegalArgumentException("a WalletV4R2 message carries 1 to 4 orders, got " + orders.size());
    }
    List<TransferOrder> ordersCopy = List.copyOf(orders);

    CellBuilder unsigned = CellBuilder.beginCell()
        .storeUint(subwalletId, 32)
        .storeUint(until, 32)
        .storeUint(seqno, 32)
        .storeUint(OP_SIMPLE_SEND, 8);
    for (TransferOrder order : ordersCopy) {
      unsigned.storeUint(SEND_MODE, 8).storeRef(internalMessage(order));
    }
    Cell unsignedBody = unsigned.endCell();
    byte[] signature = subwallets.key().sign(unsignedBody.hash());
    Cell body = CellBuilder.beginCell().storeBytes(signature).storeCell(unsignedBody).endCell();

    TonAddress wallet = subwallets.address(subwalletId);
    StateInit init = seqno == 0 ? subwallets.stateInitOf(subwalletId) : null;
    ExternalMessageInInfo info = ExternalMessageInInfo.builder()
        .srcAddr(MsgAddressExtNone.builder().build())
        .dstAddr(msgAddress(wallet))
        .importFee(BigInteger.ZERO)
        .build();
    Cell external = externalMessage(info, init, body);
    byte[] normalized = Message.builder().info(info).init(init).body(body).build().getNormalizedHash();

    SignedTransfer signed = new SignedTransfer(subwalletId, wallet, seqno, until, ordersCopy,
        external.toBase64(), hex(external.hash()), hex(normalized));
    log.debug("signed transfer subwallet={} wallet={} seqno={} validUntil={} orders={} hash={} stateInit={}",
        subwalletId, wallet, seqno, until, ordersCopy.size(), signed.messageHash(), init != null);
    return signed;
  }

  /** int_msg_info$0 ihr_disabled bounce bounced=0 src=addr_none dest value 0 0 0 0, no init, body. */
  static Cell internalMessage(TransferOrder order) {
    Cell info = InternalMessageInfoRelaxed.builder()
        .iHRDisabled(true)
        .bounce(order.bounce())
        .bounced(false)
        .srcAddr(MsgAddressExtNone.builder().build())
        .dstAddr(msgAddress(order.destination()))
        .value(CurrencyCollection.builder().coins(BigInteger.valueOf(order.amountNano())).build())
        .iHRFee(BigInteger.ZERO)
        .fwdFee(BigInteger.ZERO)
        .createdLt(BigInteger.ZERO)
        .createdAt(0)
        .build()
        .toCell();
    CellBuilder b = CellBuilder.beginCell().storeCell(info).storeBit(false); // init: nothing
    Cell body = order.comment() == null ? null : TextComment.encode(order.comment());
    storeEither(b, body);
    return b.endCell();
  }

  /**
   * Message layout of the JS SDK's {@code storeMessage}: init inline when it and the body fit,
   * body inline when it fits (one bit kept for the flag, refs within 4).
   */
  static Cell externalMessage(ExternalMessageInInfo info, StateInit init, Cell body) {
    CellBuilder b = CellBuilder.beginCell().storeCell(info.toCell());
    if (init == null) {
      b.storeBit(false);
    } else {
      b.storeBit(true);
      Cell initCell = init.toCell();
      if (b.getFreeBits() - 2 < initCell.getBitLength() + body.getBitLength()) {
        b.storeBit(true).storeRef(initCell);
      } else {
        b.storeBit(false).storeCell(initCell);
      }
    }
    storeEither(b, body);
    return b.endCell();
  }

  /** {@code body:(Either X ^X)}, inline when it fits; an absent body is the empty inline body. */
  private static void storeEither(CellBuilder b, Cell body) {
    if (body == null) {
      b.storeBit(false);
    } else if (b.getFreeBits() - 1 >= body.getBitLength() && b.getUsedRefs() + body.getUsedRefs() <= CELL_REFS) {
      b.storeBit(false).storeCell(body);
    } else {
      b.storeBit(true).storeRef(body);
    }
  }

  private static MsgAddressIntStd msgAddress(TonAddress address) {
    return MsgAddressIntStd.builder()
        .workchainId((byte) address.workchain())
        .address(new BigInteger(1, address.hash()))
        .build();
  }

  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }
}
