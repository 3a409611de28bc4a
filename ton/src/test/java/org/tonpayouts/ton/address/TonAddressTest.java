package org.tonpayouts.ton.address;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.tonpayouts.ton.wallet.Vectors;

/** Every address form the JS SDK prints parses back to the same account; bad text fails clearly. */
class TonAddressTest {

  static List<Vectors.AddressVector> vectors() {
    return Vectors.addresses();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void everyFormRoundTripsWithItsFlags(Vectors.AddressVector v) {
    TonAddress expected = TonAddress.parse(v.raw());

    assertThat(expected.workchain()).isEqualTo(v.workchain());
    assertThat(expected.toRaw()).isEqualTo(v.raw());
    assertForm(v.raw(), expected, true, false, false);
    assertForm(v.bounceable(), expected, true, false, true);
    assertForm(v.nonBounceable(), expected, false, false, true);
    assertForm(v.testnetBounceable(), expected, true, true, true);
    assertForm(v.testnetNonBounceable(), expected, false, true, true);
    // Standard base64 (+ and /) is accepted too; we print base64url.
    assertForm(v.bounceableStandardBase64(), expected, true, false, true);
    assertThat(expected.toFriendly(true, false)).isEqualTo(v.bounceable());
  }

  private static void assertForm(String text, TonAddress expected, boolean bounceable, boolean testnet, boolean friendly) {
    ParsedAddress parsed = TonAddress.parseWithFlags(text);
    assertThat(parsed.address()).isEqualTo(expected);
    assertThat(parsed.address().hashCode()).isEqualTo(expected.hashCode());
    assertThat(parsed.bounceable()).as("bounceable of %s", text).isEqualTo(bounceable);
    assertThat(parsed.testnet()).as("testnet of %s", text).isEqualTo(testnet);
    assertThat(parsed.userFriendly()).isEqualTo(friendly);
    assertThat(TonAddress.isValid(text)).isTrue();
    if (friendly) {
      assertThat(parsed.address().toFriendly(bounceable, testnet)).isEqualTo(text.replace('+', '-').replace('/', '_'));
    }
  }

  @Test
  void rawParsingIgnoresCaseAndSurroundingSpace() {
    String raw = Vectors.addresses().get(0).raw();
    assertThat(TonAddress.parse("  " + raw.toUpperCase() + "\n")).isEqualTo(TonAddress.parse(raw));
    assertThat(TonAddress.parse(raw).toString()).isEqualTo(raw);
  }

  @Test
  void hashIsACopy() {
    TonAddress a = TonAddress.parse(Vectors.addresses().get(0).raw());
    a.hash()[0] ^= 1;
    assertThat(a.toRaw()).isEqualTo(Vectors.addresses().get(0).raw());
  }

  @Test
  void badChecksumIsReported() {
    String good = Vectors.addresses().get(0).bounceable();
    byte[] bytes = Base64.getUrlDecoder().decode(good);
    bytes[35] ^= 1;
    String bad = Base64.getUrlEncoder().encodeToString(bytes);
    assertInvalid(bad, "checksum mismatch");
  }

  @Test
  void alteredAccountIdFailsTheChecksum() {
    String good = Vectors.addresses().get(0).bounceable();
    byte[] bytes = Base64.getUrlDecoder().decode(good);
    bytes[10] ^= 0x40;
    assertInvalid(Base64.getUrlEncoder().encodeToString(bytes), "checksum mismatch");
  }

  @Test
  void badLengthIsReported() {
    String good = Vectors.addresses().get(0).bounceable();
    assertInvalid(good.substring(1), "has 47 characters: a user-friendly address has 48");
    assertInvalid(good + "A", "has 49 characters");
    assertInvalid("0:" + "ab".repeat(31), "account id must be 64 hex digits, got 62");
    assertInvalid("0:" + "ab".repeat(33), "account id must be 64 hex digits, got 66");
  }

  @Test
  void badBase64IsReported() {
    assertInvalid("EQ" + "*".repeat(46), "'*' at position 2 is not a base64url character");
    assertInvalid("EQC6dLaXS96K9AagB8cMV-1ZEWkahB-7SaoYyA7bgcn/PtQe", "mixes the base64 ('+', '/') and base64url");
    // Valid base64 of 48 characters that is too short once the padding is removed.
    assertInvalid("EQC6dLaXS96K9AagB8cMV-1ZEWkahB-7SaoYyA7bgcnGPg==", "'=' padding at position 46");
    assertInvalid("EQC6dLaXS96K9AagB8cMV-1ZEWkahB-7SaoYyA7bgcnGPtQ=", "'=' padding at position 47");
  }

  @Test
  void badWorkchainIsReported() {
    assertInvalid("1:" + "00".repeat(32), "workchain 1 is not supported");
    assertInvalid("x:" + "00".repeat(32), "workchain 'x' is not a number");
    assertInvalid(":" + "00".repeat(32), "workchain '' is not a number");
    assertThatThrownBy(() -> TonAddress.of(7, new byte[32]))
        .isInstanceOf(InvalidAddressException.class).hasMessageContaining("workchain 7 is not supported");
    // A friendly address whose workchain byte is 1, with a correct checksum.
    String friendlyWc1 = TonAddress.of(0, new byte[32]).toFriendly(true, false);
    byte[] bytes = Base64.getUrlDecoder().decode(friendlyWc1);
    bytes[1] = 1;
    int crc = crc16(bytes);
    bytes[34] = (byte) (crc >>> 8);
    bytes[35] = (byte) crc;
    assertInvalid(Base64.getUrlEncoder().encodeToString(bytes), "workchain 1 is not supported");
  }

  @Test
  void unknownFlagsByteIsReported() {
    byte[] bytes = Base64.getUrlDecoder().decode(TonAddress.of(0, new byte[32]).toFriendly(true, false));
    bytes[0] = 0x12;
    int crc = crc16(bytes);
    bytes[34] = (byte) (crc >>> 8);
    bytes[35] = (byte) crc;
    assertInvalid(Base64.getUrlEncoder().encodeToString(bytes), "unknown flags byte 0x12");
  }

  @Test
  void nonHexRawIsReported() {
    assertInvalid("0:" + "zz".repeat(32), "account id is not hexadecimal");
  }

  @Test
  void emptyIsReported() {
    assertInvalid("", "address is empty");
    assertInvalid("   ", "address is empty");
    assertInvalid(null, "address is empty");
  }

  @Test
  void wrongHashLengthIsReported() {
    assertThatThrownBy(() -> TonAddress.of(0, new byte[31]))
        .isInstanceOf(InvalidAddressException.class).hasMessage("account id must be 32 bytes, got 31");
    assertThatThrownBy(() -> TonAddress.of(0, null))
        .isInstanceOf(InvalidAddressException.class).hasMessage("account id must be 32 bytes, got null");
  }

  @Test
  void shouldSayExactlyWhatIsWrongWithAnAddress() {
    String good = TonAddress.of(0, new byte[32]).toFriendly(false, false);
    assertInvalid("5:" + "00".repeat(32),
        "workchain 5 is not supported: TON has workchains 0 (basechain) and -1 (masterchain)");
    assertInvalid("0:" + "00".repeat(31) + "0",
        "raw address '0:" + "00".repeat(31) + "0': account id must be 64 hex digits, got 63");
    assertInvalid("0:" + "00".repeat(10) + "g" + "0".repeat(43), "account id is not hexadecimal: 'g' at position 22");
    assertInvalid(good.substring(1), "has 47 characters: a user-friendly address has 48, a raw one is "
        + "'<workchain>:<64 hex digits>'");
    assertInvalid(good.substring(0, 10) + "!" + good.substring(11),
        "': '!' at position 10 is not a base64url character");
    assertInvalid(good.substring(0, 10) + "\u202e" + good.substring(11), "U+202E at position 10 is not a base64url");
    assertInvalid(good.substring(0, 46) + "==", "'=' padding at position 46");
    assertInvalid(good.substring(0, 10) + "+" + good.substring(11, 20) + "_" + good.substring(21),
        "mixes the base64 ('+', '/') and base64url ('-', '_') alphabets");
    assertInvalid("0x52908400098527886E0F7030069857D2E4169EE7", "looks like an Ethereum address, not a TON address");
    assertInvalid("x".repeat(10_000), "address '" + "x".repeat(70) + "...' has 10000 characters");
  }

  private static void assertInvalid(String text, String... messageParts) {
    assertThat(TonAddress.isValid(text)).isFalse();
    assertThatThrownBy(() -> TonAddress.parse(text))
        .isInstanceOf(InvalidAddressException.class)
        .isInstanceOf(IllegalArgumentException.class)
        .satisfies(e -> assertThat(e.getMessage()).contains(messageParts));
  }

  /** CRC16-XMODEM over the first 34 bytes, to forge well-formed addresses with bad contents. */
  private static int crc16(byte[] data) {
    int crc = 0;
    for (int i = 0; i < 34; i++) {
      crc ^= (data[i] & 0xff) << 8;
      for (int bit = 0; bit < 8; bit++) {
        crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
      }
    }
    return crc & 0xffff;
  }
}
