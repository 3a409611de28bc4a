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

  /** A bounced body: 0xFFFFFFFF then the first 256 bits of the original body (no references). */
  static TonCell bouncedBody(TonCell original) {
    int bits = Math.min(BOUNCED_BODY_BITS, original.bitLength());
    return TonCell.builder()
        .storeUint(0xFFFF_FFFFL, 32)
        .storeBits(original.parse().loadBits(bits), 0, bits)
        .endCell();
  }
}
