package org.tonpayouts.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class StrictUtf8Test {

  private static byte[] hex(String hex) {
    return HexFormat.of().parseHex(hex.replace(" ", ""));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "7b 22 ff 22            | 2 | byte FF never occurs in UTF-8",
      "ef bb bf 7b 7d         | 0 | a UTF-8 byte-order mark (EF BB BF); send UTF-8 without a byte-order mark",
      "ff fe 7b 00            | 0 | a UTF-16 byte-order mark (FF FE); the value must be UTF-8",
      "fe ff 00 7b            | 0 | a UTF-16 byte-order mark (FE FF); the value must be UTF-8",
      "ff fe 00 00 7b 00 00 00| 0 | a UTF-32 byte-order mark (FF FE 00 00); the value must be UTF-8",
      "41 c0 af               | 1 | overlong encoding (C0 AF)",
      "41 e0 80 af            | 1 | overlong encoding (E0 80 AF)",
      "41 f0 80 80 af         | 1 | overlong encoding (F0 80 80 AF)",
      "41 ed a0 80            | 1 | encoded UTF-16 surrogate (ED A0 80); surrogates are not characters",
      "41 ed b0 80            | 1 | encoded UTF-16 surrogate (ED B0 80); surrogates are not characters",
      "41 f4 90 80 80         | 1 | code point above U+10FFFF (F4 90 80 80)",
      "41 80                  | 1 | continuation byte 80 without a lead byte",
      "41 e2 82               | 1 | truncated 3-byte sequence (E2 82) at the end of the value",
      "41 e2 82 41            | 1 | truncated 3-byte sequence (E2 82 41): byte 3 is not a continuation byte",
  })
  void shouldSayWhereAndWhyBytesAreNotUtf8(String bytes, int offset, String problem) {
    StrictUtf8.Result result = StrictUtf8.decode(hex(bytes));

    assertThat(result).isEqualTo(new StrictUtf8.Malformed(offset, problem));
  }

  @Test
  void shouldDecodeEveryWellFormedTextIncludingFourByteCharactersAndNul() {
    String text = "a\u0000é€😀\uFEFF in the middle";

    assertThat(StrictUtf8.decode(text.getBytes(StandardCharsets.UTF_8))).isEqualTo(new StrictUtf8.Text(text));
    assertThat(StrictUtf8.decode(new byte[0])).isEqualTo(new StrictUtf8.Text(""));
  }

  @Test
  void shouldAgreeWithTheJdkOnRandomBytesAndNeverThrow() {
    Random random = new Random(7);
    for (int i = 0; i < 20_000; i++) {
      byte[] bytes = new byte[random.nextInt(12)];
      random.nextBytes(bytes);
      StrictUtf8.Result result = StrictUtf8.decode(bytes);
      if (result instanceof StrictUtf8.Text text) {
        assertThat(text.text().getBytes(StandardCharsets.UTF_8)).as("round trip").isEqualTo(bytes);
      } else {
        StrictUtf8.Malformed bad = (StrictUtf8.Malformed) result;
        assertThat(bad.offset()).isBetween(0, bytes.length - 1);
        assertThat(bad.problem()).isNotBlank();
      }
    }
  }
}
