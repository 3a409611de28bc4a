package org.tonpayouts.ton.wallet;

import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.CellWriter;
import org.tonpayouts.ton.cell.MessageCells;
import org.tonpayouts.ton.cell.TonCell;

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

    CellWriter unsigned = TonCell.builder()
        .storeUint(subwalletId, 32)
        .storeUint(until, 32)
        .storeUint(seqno, 32)
        .storeUint(OP_SIMPLE_SEND, 8);
    for (TransferOrder order : ordersCopy) {
      unsigned.storeUint(SEND_MODE, 8).storeRef(internalMessage(order));
    }
    TonCell unsignedBody = unsigned.endCell();
    byte[] signature = subwallets.key().sign(unsignedBody.hash());
    TonCell body = TonCell.builder().storeBytes(signature).storeCell(unsignedBody).endCell();

    TonAddress wallet = subwallets.address(subwalletId);
    TonCell init = seqno == 0 ? subwallets.stateInit(subwalletId) : null;
    TonCell external = MessageCells.externalIn(wallet, init, body);

    SignedTransfer signed = new SignedTransfer(subwalletId, wallet, seqno, until, ordersCopy,
        external.toBase64(), external.hashHex(), hex(MessageCells.normalizedHash(wallet, body)));
    log.debug("signed transfer subwallet={} wallet={} seqno={} validUntil={} orders={} hash={} stateInit={}",
        subwalletId, wallet, seqno, until, ordersCopy.size(), signed.messageHash(), init != null);
    return signed;
  }

  /** An order as the wallet sends it: {@code src} addr_none, no fees or times, no init, its body (a comment's cell, or its own). */
  static TonCell internalMessage(TransferOrder order) {
    CellWriter b = MessageCells.internalInfo(order.bounce(), false, null, order.destination(), order.amountNano(),
        0, 0, 0, 0)
        .storeBit(false);                    // init: nothing
    return MessageCells.storeEither(b, order.bodyCell()).endCell();
  }

  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }
}
