package org.tonpayouts.devnet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import java.util.List;
import org.ton.ton4j.cell.Cell;
import org.ton.ton4j.cell.CellBuilder;
import org.ton.ton4j.tlb.ExternalMessageInInfo;
import org.ton.ton4j.tlb.InternalMessageInfo;
import org.ton.ton4j.tlb.Message;
import org.ton.ton4j.tlb.MsgAddressIntStd;
import org.ton.ton4j.tlb.Transaction;
import org.tonpayouts.devnet.chain.DevnetMessage;
import org.tonpayouts.devnet.chain.DevnetTransaction;

/**
 * An independent reading of what devnet wrote: devnet builds and reads its messages with the ton
 * module's cells, so a bug there would pass both ways; here ton4j's TL-B parser reads the
 * transaction's BOC and each message in it must say what devnet's own record of it says (source,
 * destination, value, flags, fees, times, body, StateInit).
 */
final class Ton4jCrossCheck {
  private Ton4jCrossCheck() {}

  static void messagesAgree(String as, DevnetTransaction tx, Transaction parsed) {
    agree(as + ": in_msg as ton4j reads it", parsed.getInOut().getIn(), tx.inMsg());
    List<Message> outs = parsed.getInOut().getOutMessages();
    assertThat(outs).as(as + ": out_msgs as ton4j reads them").hasSize(tx.outMsgs().size());
    for (int i = 0; i < outs.size(); i++) {
      agree(as + ": out_msg " + i + " as ton4j reads it", outs.get(i), tx.outMsgs().get(i));
    }
  }

  private static void agree(String as, Message m, DevnetMessage d) {
    if (d.external()) {
      assertThat(m.getInfo()).as(as).isInstanceOf(ExternalMessageInInfo.class);
      ExternalMessageInInfo info = (ExternalMessageInInfo) m.getInfo();
      assertThat(TestWallet.address((MsgAddressIntStd) info.getDstAddr())).as(as + ": destination")
          .isEqualTo(d.destination());
    } else {
      assertThat(m.getInfo()).as(as).isInstanceOf(InternalMessageInfo.class);
      InternalMessageInfo info = (InternalMessageInfo) m.getInfo();
      assertThat(TestWallet.address((MsgAddressIntStd) info.getSrcAddr())).as(as + ": source").isEqualTo(d.source());
      assertThat(TestWallet.address((MsgAddressIntStd) info.getDstAddr())).as(as + ": destination")
          .isEqualTo(d.destination());
      assertThat(info.getValue().getCoins().longValueExact()).as(as + ": value").isEqualTo(d.value());
      assertThat(info.getBounce()).as(as + ": bounce").isEqualTo(d.bounce());
      assertThat(info.getBounced()).as(as + ": bounced").isEqualTo(d.bounced());
      assertThat(info.getFwdFee().longValueExact()).as(as + ": fwd_fee").isEqualTo(d.fwdFee());
      assertThat(info.getCreatedLt().longValueExact()).as(as + ": created_lt").isEqualTo(d.createdLt());
      assertThat(info.getCreatedAt()).as(as + ": created_at").isEqualTo(d.createdAt());
    }
    assertThat(hash(m.getBody())).as(as + ": body").isEqualTo(d.body().hashHex());
    if (d.init() == null) {
      assertThat(m.getInit()).as(as + ": StateInit").isNull();
    } else {
      assertThat(m.getInit()).as(as + ": StateInit").isNotNull();
      assertThat(hash(m.getInit().toCell())).as(as + ": StateInit").isEqualTo(d.init().hashHex());
    }
  }

  /** ton4j reports a parsed cell's hash only once rebuilt with its builder. */
  private static String hash(Cell cell) {
    return HexFormat.of().formatHex(CellBuilder.beginCell().storeCell(cell).endCell().getHash());
  }
}
