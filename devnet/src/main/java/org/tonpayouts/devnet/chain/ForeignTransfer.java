package org.tonpayouts.devnet.chain;

import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.CellWriter;
import org.tonpayouts.ton.cell.MessageCells;
import org.tonpayouts.ton.cell.TonCell;
import org.tonpayouts.ton.wallet.TextComment;

/**
 * A transfer from one of our wallets that our service did not sign (admin endpoint): the block
 * applies it as a WalletV4R2 external message with nobody's signature that uses the wallet's
 * current seqno, sending with mode 3.
 */
record ForeignTransfer(TonAddress wallet, TonAddress destination, long amount, String comment, boolean bounce) {
  static final int SEND_MODE = 3;
  static final long TTL_SECONDS = 60;

  /** The external message, signed with zeros, for the wallet's current {@code data} at time {@code utime}. */
  TonCell externalMessage(WalletData data, long utime) {
    TonCell body = TonCell.builder()
        .storeBytes(new byte[64]) // nobody's signature: the point is that we did not sign it
        .storeUint(data.subwalletId(), 32)
        .storeUint(utime + TTL_SECONDS, 32)
        .storeUint(data.seqno(), 32)
        .storeUint(WalletV4R2.OP_SIMPLE_SEND, 8)
        .storeUint(SEND_MODE, 8)
        .storeRef(order())
        .endCell();
    return MessageCells.externalIn(wallet, null, body);
  }

  /** The wallet's order: a relaxed internal message (no source, no fees), the comment always in a reference. */
  private TonCell order() {
    CellWriter b = MessageCells.internalInfo(bounce, false, null, destination, amount, 0, 0, 0, 0)
        .storeBit(false);                    // init: nothing
    if (comment == null) {
      return b.storeBit(false).endCell();    // body: empty, inline
    }
    return b.storeBit(true).storeRef(TextComment.encode(comment)).endCell();
  }
}
