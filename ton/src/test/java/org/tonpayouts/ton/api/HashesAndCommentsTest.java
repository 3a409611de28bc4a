package org.tonpayouts.ton.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.ton.ton4j.cell.Cell;
import org.ton.ton4j.cell.CellBuilder;

class HashesAndCommentsTest {
  private static final String HEX = "db8a6e674bda8eb1e6eef51e9249c01e3c109ee8ffea3c389f1c1e50af2b6bc2";

  @Test
  void shouldTurnEveryBase64SpellingOfAHashIntoTheSameHex() {
    assertThat(Hashes.toHex("24puZ0vajrHm7vUekknAHjwQnuj/6jw4nxweUK8ra8I=")).isEqualTo(HEX);
    assertThat(Hashes.toHex("24puZ0vajrHm7vUekknAHjwQnuj_6jw4nxweUK8ra8I=")).isEqualTo(HEX);
    assertThat(Hashes.toHex("24puZ0vajrHm7vUekknAHjwQnuj_6jw4nxweUK8ra8I")).isEqualTo(HEX);
    assertThat(Hashes.toHex(HEX.toUpperCase())).isEqualTo(HEX);
    assertThat(Hashes.toHex("")).isNull();
    assertThat(Hashes.toHex(null)).isNull();
  }

  @Test
  void shouldRefuseTextThatIsNotA32ByteHash() {
    assertThatThrownBy(() -> Hashes.toHex("aGVsbG8=")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("32 bytes");
    assertThatThrownBy(() -> Hashes.toHex("not base64 at all!")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void shouldReadOnlyOpZeroUtf8BodiesAsComments() {
    assertThat(Comments.fromBodyBoc(boc(CellBuilder.beginCell().storeUint(0L, 32).storeBytes("ok".getBytes(StandardCharsets.UTF_8)).endCell())))
        .isEqualTo("ok");
    assertThat(Comments.fromBodyBoc(boc(CellBuilder.beginCell().storeUint(0L, 32).storeBytes(new byte[] {(byte) 0xff, (byte) 0xfe}).endCell())))
        .as("not UTF-8").isNull();
    assertThat(Comments.fromBodyBoc(boc(CellBuilder.beginCell().storeUint(0L, 32).storeUint(1L, 3).endCell())))
        .as("not whole bytes").isNull();
    assertThat(Comments.fromBodyBoc(boc(CellBuilder.beginCell().storeUint(0x0f8a7ea5L, 32).endCell())))
        .as("another op").isNull();
    assertThat(Comments.fromBodyBoc(boc(CellBuilder.beginCell().storeUint(0L, 16).endCell())))
        .as("too short for an op").isNull();
    assertThat(Comments.fromBodyBoc("bm90IGEgYm9j")).as("not a BOC").isNull();
    assertThat(Comments.fromBodyBoc(null)).isNull();
  }

  private static String boc(Cell cell) {
    return Base64.getEncoder().encodeToString(cell.toBoc(true));
  }
}
