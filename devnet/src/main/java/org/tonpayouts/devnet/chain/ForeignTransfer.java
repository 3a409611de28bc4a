package org.tonpayouts.devnet.chain;

import java.math.BigInteger;
import org.ton.ton4j.cell.Cell;
import org.ton.ton4j.cell.CellBuilder;
import org.ton.ton4j.tlb.CurrencyCollection;
import org.ton.ton4j.tlb.ExternalMessageInInfo;
import org.ton.ton4j.tlb.InternalMessageInfoRelaxed;
import org.ton.ton4j.tlb.Message;
import org.ton.ton4j.tlb.MsgAddressExtNone;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.wallet.TextComment;

/**
 * A transfer from one of our wallets that our service did not sign (admin endpoint): the block
 * applies it as a WalletV4R2 external message with nobody's signature that uses the wallet's
 * current seqno, sending with mode 3.
 */
record ForeignTransfer(TonAddress wallet, TonAddress destination, long amount, String comment, boolean bounce) {
  static final int SEND_MODE = 3;
  static final long TTL_SECONDS = 60;

  /** The external message as a BOC, signed with zeros, for a wallet at {@code wallet} data at time {@code utime}. */
  byte[] externalMessage(WalletData data, long utime) {
    Cell order = relaxedInternal(destination, amount, bounce, comment == null ? null : Cells.ton4j(TextComment.encode(comment)));
    Cell body = CellBuilder.beginCell()
        .storeBytes(new byte[64]) // nobody's signature: the point is that we did not sign it
        .storeUint(data.subwalletId(), 32)
        .storeUint(utime + TTL_SECONDS, 32)
        .storeUint(data.seqno(), 32)
        .storeUint(WalletV4R2.OP_SIMPLE_SEND, 8)
        .storeUint(SEND_MODE, 8)
        .storeRef(order)
        .endCell();
    return Message.builder()
        .info(ExternalMessageInInfo.builder()
            .srcAddr(MsgAddressExtNone.builder().build())
            .dstAddr(ChainMessages.std(wallet))
            .importFee(BigInteger.ZERO)
            .build())
        .body(body)
        .build()
        .toCell()
        .toBoc();
  }

  private static Cell relaxedInternal(TonAddress destination, long amount, boolean bounce, Cell body) {
    Cell info = InternalMessageInfoRelaxed.builder()
        .iHRDisabled(true)
        .bounce(bounce)
        .bounced(false)
        .srcAddr(MsgAddressExtNone.builder().build())
        .dstAddr(ChainMessages.std(destination))
        .value(CurrencyCollection.builder().coins(BigInteger.valueOf(amount)).build())
        .iHRFee(BigInteger.ZERO)
        .fwdFee(BigInteger.ZERO)
        .createdLt(BigInteger.ZERO)
        .createdAt(0)
        .build()
        .toCell();
    CellBuilder b = CellBuilder.beginCell().storeCell(info).storeBit(false);
    if (body == null) {
      b.storeBit(false);
    } else {
      b.storeBit(true).storeRef(body);
    }
    return b.endCell();
  }
}
