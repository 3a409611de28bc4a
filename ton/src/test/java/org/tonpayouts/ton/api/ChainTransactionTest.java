package org.tonpayouts.ton.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.TonCell;

class ChainTransactionTest {
  private static final TonAddress WALLET = TonAddress.of(0, new byte[32]);
  private static final TonAddress OTHER = TonAddress.of(0, filled(7));

  @Test
  void forMatchingKeepsWhatMatchingReadsAndABouncesBody() {
    String bounceBody = TonCell.builder().storeUint(0xFFFF_FFFFL, 32).storeUint(0, 32).endCell().toBase64();
    ChainMessage external = new ChainMessage("ext-hash", null, WALLET, 0, 0, 0, 0, "body-hash", null, "c2lnbmVk",
        "aW5pdA==");
    ChainMessage payout = new ChainMessage("out-hash", WALLET, OTHER, 2_000, 1, 0, 11, "out-body", "thanks",
        "Y29tbWVudA==", null);
    ChainMessage bounce = new ChainMessage("in-hash", OTHER, WALLET, 1_500, 1, 0, 12, "b", null, bounceBody, null);
    ChainTransaction sent = new ChainTransaction(WALLET, new TransactionId(10, "tx-hash"), 1_700_000_000L, 5, 1, 2,
        external, List.of(payout), "dHJhbnNhY3Rpb24=");
    ChainTransaction returned = new ChainTransaction(WALLET, new TransactionId(13, "tx2"), 1_700_000_001L, 3, 1, 1,
        bounce, List.of(), "dHg=");

    ChainTransaction slim = sent.forMatching();
    assertThat(slim.data()).isNull();
    assertThat(slim.inMsg()).isEqualTo(new ChainMessage("ext-hash", null, WALLET, 0, 0, 0, 0, "body-hash", null, null,
        null));
    assertThat(slim.outMsgs()).containsExactly(new ChainMessage("out-hash", WALLET, OTHER, 2_000, 1, 0, 11, "out-body",
        "thanks", null, null));
    assertThat(slim).usingRecursiveComparison().ignoringFields("data", "inMsg", "outMsgs").isEqualTo(sent);

    ChainTransaction slimReturn = returned.forMatching();
    assertThat(slimReturn.inMsg()).isSameAs(bounce);
    assertThat(slimReturn.inMsg().isBounce()).isTrue();
    assertThat(slimReturn.data()).isNull();
  }

  private static byte[] filled(int value) {
    byte[] bytes = new byte[32];
    java.util.Arrays.fill(bytes, (byte) value);
    return bytes;
  }
}
