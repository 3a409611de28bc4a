package org.tonpayouts.devnet.chain;

import java.math.BigInteger;
import org.ton.ton4j.cell.Cell;
import org.ton.ton4j.cell.CellBuilder;
import org.ton.ton4j.cell.CellSlice;
import org.ton.ton4j.tlb.CurrencyCollection;
import org.ton.ton4j.tlb.InternalMessageInfo;
import org.ton.ton4j.tlb.Message;
import org.ton.ton4j.tlb.MsgAddressIntStd;
import org.ton.ton4j.tlb.StateInit;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.wallet.TextComment;

/** The messages the chain writes into transactions: internal ones as TL-B cells, bounces, external-in records. */
final class ChainMessages {
  private ChainMessages() {}

  /** The record of an external message that caused a transaction (its hash is the hash of the cell sent). */
  static DevnetMessage externalIn(ExternalMessage message) {
    return new DevnetMessage(message.hash(), null, message.destination(), 0, 0, 0, 0, false, false,
        message.body(), message.initCell(), null, message.root());
  }

  /**
   * An internal message as the chain writes it (source, fees and created_lt filled in); its hash
   * is the hash of that cell.
   */
  static DevnetMessage internal(TonAddress source, TonAddress destination, long value, boolean bounce,
                                boolean bounced, long fwdFee, long createdLt, long createdAt,
                                Cell body, StateInit init, Cell initCell) {
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
    Cell cell = Message.builder().info(info).init(init).body(body).build().toCell();
    return new DevnetMessage(Cells.hex(cell.getHash()), source, destination, value, fwdFee, createdLt, createdAt,
        bounce, bounced, body, initCell, TextComment.decode(Cells.fast(body)), cell);
  }

  /** A bounced body: 0xFFFFFFFF then the first 256 bits of the original body. */
  static Cell bouncedBody(Cell original) {
    CellSlice slice = CellSlice.beginParse(original);
    int bits = Math.min(256, slice.getRestBits());
    CellBuilder b = CellBuilder.beginCell().storeUint(0xFFFF_FFFFL, 32);
    if (bits > 0) {
      b.storeBitString(slice.loadBits(bits));
    }
    return b.endCell();
  }

  static MsgAddressIntStd std(TonAddress address) {
    return MsgAddressIntStd.builder()
        .workchainId((byte) address.workchain())
        .address(new BigInteger(1, address.hash()))
        .build();
  }
}
