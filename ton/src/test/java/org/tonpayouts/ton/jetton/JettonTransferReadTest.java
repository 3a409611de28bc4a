package org.tonpayouts.ton.jetton;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.TonCell;
import org.tonpayouts.ton.wallet.TextComment;

/** What a chain read makes of a message body that may or may not be a jetton transfer. */
class JettonTransferReadTest {
  private static final TonAddress TO = TonAddress.parse("0:" + "ab".repeat(32));

  @Test
  void shouldReadATransferAndNothingElse() {
    JettonTransfer transfer = new JettonTransfer(42, BigInteger.valueOf(2_500_000), TO, TO, 1, "order 77");

    assertThat(JettonTransfer.read(transfer.toCell().toBase64())).contains(transfer);
    assertThat(JettonTransfer.read(TextComment.encode("hello"))).as("a comment").isEmpty();
    assertThat(JettonTransfer.read(TonCell.builder().storeUint(JettonTransfer.OP, 32).endCell()))
        .as("the op without the rest").isEmpty();
    assertThat(JettonTransfer.read((TonCell) null)).isEmpty();
    assertThat(JettonTransfer.read("not base64 at all")).isEmpty();
    assertThat(JettonTransfer.read("")).isEmpty();
  }
}
