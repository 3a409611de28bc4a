package org.tonpayouts.devnet.chain;

import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.CellWriter;
import org.tonpayouts.ton.cell.MessageCells;
import org.tonpayouts.ton.cell.TonCell;
import org.tonpayouts.ton.wallet.TextComment;

/** The messages the chain writes into transactions: internal ones as TL-B cells, bounces, external-in records. */
final class ChainMessages {
  private static final int BOUNCED_BODY_BITS = 256;

  private ChainMessages() {}

  /** The record of an external message that caused a transaction (its hash is the hash of the cell sent). */
  static DevnetMessage externalIn(ExternalMessage message) {
    TonCell init = message.init() == null ? null : message.init().cell();
    return new DevnetMessage(message.hash(), null, message.destination(), 0, 0, 0, 0, false, false,
        message.body(), init, null, message.root());
  }

  /**
   * An internal message as the chain writes it (source, fees and created_lt filled in); its hash
   * is the hash of that cell.
   *
   * @param init the StateInit cell it carries, or {@code null}
   */
  static DevnetMessage internal(TonAddress source, TonAddress destination, long value, boolean bounce,
                                boolean bounced, long fwdFee, long createdLt, long createdAt, TonCell body,
                                TonCell init) {
    CellWriter b = MessageCells.internalInfo(bounce, bounced, source, destination, value, 0, fwdFee, createdLt,
        createdAt);
    // ton4j's Message.toCell and the JS SDK lay out init and body alike; ton4j alone threw where a
    // body filled the bits left after its flag exactly (InternalMessageEquivalenceTest)
    TonCell cell = MessageCells.storeInitAndBody(b, init, body).endCell();
    return new DevnetMessage(cell.hashHex(), source, destination, value, fwdFee, createdLt, createdAt, bounce, bounced,
        body, init, TextComment.decode(body), cell);
  }

  /**
   * An internal message a contract sent ({@code message}, as it asked), as the chain writes it:
   * source, fees and created_lt filled in, its StateInit and body where the contract put them.
   */
  static DevnetMessage sent(TonAddress source, OutMessage message, long value, long fwdFee, long createdLt,
                            long createdAt) {
    CellWriter b = MessageCells.internalInfo(message.bounce(), false, source, message.destination(), value, 0, fwdFee,
        createdLt, createdAt);
    TonCell cell = withLayout(b, message).endCell();
    return new DevnetMessage(cell.hashHex(), source, message.destination(), value, fwdFee, createdLt, createdAt,
        message.bounce(), false, message.body(), message.init(), TextComment.decode(message.body()), cell);
  }

  /**
   * {@code init} and {@code body} after a message's info, where the sender put them, as the node
   * keeps a sent message's layout; when the filled-in header leaves no room, the body moves to a
   * reference, then the StateInit, as the node moves them.
   */
  static CellWriter withLayout(CellWriter b, OutMessage m) {
    boolean initRef = m.initInRef();
    boolean bodyRef = m.bodyInRef();
    if (!fits(b, m, initRef, bodyRef)) {
      bodyRef = true;
      if (!fits(b, m, initRef, true)) {
        initRef = true;
      }
    }
    TonCell init = m.init();
    if (init == null) {
      b.storeBit(false);
    } else if (initRef) {
      b.storeBit(true).storeBit(true).storeRef(init);
    } else {
      b.storeBit(true).storeBit(false).storeCell(init);
    }
    return bodyRef ? b.storeBit(true).storeRef(m.body()) : b.storeBit(false).storeCell(m.body());
  }

  private static boolean fits(CellWriter b, OutMessage m, boolean initRef, boolean bodyRef) {
    int bits = 1;
    int refs = 0;
    if (m.init() != null) {
      bits += 1 + (initRef ? 0 : m.init().bitLength());
      refs += initRef ? 1 : m.init().refCount();
    }
    bits += 1 + (bodyRef ? 0 : m.body().bitLength());
    refs += bodyRef ? 1 : m.body().refCount();
    return bits <= b.freeBits() && refs <= b.freeRefs();
  }

  /** A bounced body: 0xFFFFFFFF then the first 256 bits of the original body (no references). */
  static TonCell bouncedBody(TonCell original) {
    int bits = Math.min(BOUNCED_BODY_BITS, original.bitLength());
    return TonCell.builder()
        .storeUint(0xFFFF_FFFFL, 32)
        .storeBits(original.parse().loadBits(bits), 0, bits)
        .endCell();
  }
}
