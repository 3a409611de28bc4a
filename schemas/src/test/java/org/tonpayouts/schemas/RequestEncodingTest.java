package org.tonpayouts.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Requests whose bytes or strings are not strict UTF-8 / valid Unicode are refused with where and why. */
class RequestEncodingTest {
  private final PayoutRequestValidator validator = PayoutRequestValidator.shared();

  private static final String GOOD = "{\"schemaVersion\":1,\"requestId\":\"req-1\",\"subwalletId\":7,"
      + "\"transfers\":[{\"transferId\":\"t1\",\"kind\":\"PAYOUT\",\"destination\":\"" + Fixtures.DEST_RAW
      + "\",\"amountNano\":\"1500000000\",\"comment\":\"MEMO\"}],\"createdAt\":\"2026-03-01T12:00:00Z\"}";

  /** GOOD with the comment's bytes replaced by {@code memo} (raw bytes, not JSON-escaped). */
  private static byte[] withCommentBytes(byte[] memo) {
    String[] parts = GOOD.split("MEMO");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(parts[0].getBytes(StandardCharsets.UTF_8));
    out.writeBytes(memo);
    out.writeBytes(parts[1].getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  private static int commentOffset() {
    return GOOD.indexOf("MEMO");
  }

  private String reason(byte[] raw) {
    ValidationResult result = validator.validate(raw);
    assertThat(result.isValid()).as("expected invalid").isFalse();
    return result.reason();
  }

  @Test
  void shouldAcceptTheGoodRequestAsPlainUtf8() {
    assertThat(validator.validate(GOOD.getBytes(StandardCharsets.UTF_8)).request().transfer(0).comment()).isEqualTo("MEMO");
  }

  @Test
  void shouldRefuseUtf16WithAndWithoutAByteOrderMarkEvenThoughJacksonCouldReadIt() {
    byte[] withBom = ("\uFEFF" + GOOD).getBytes(StandardCharsets.UTF_16LE);
    byte[] withoutBom = GOOD.getBytes(StandardCharsets.UTF_16LE);
    byte[] bigEndian = GOOD.getBytes(StandardCharsets.UTF_16BE);

    assertThat(reason(withBom)).isEqualTo(
        "$: not UTF-8 at byte offset 0: a UTF-16 byte-order mark (FF FE); the value must be UTF-8; requests must be UTF-8 JSON");
    assertThat(reason(withoutBom)).startsWith("$: not valid JSON: Illegal character ((CTRL-CHAR, code 0))");
    assertThat(reason(bigEndian)).startsWith("$: not valid JSON: Illegal character ((CTRL-CHAR, code 0))");
  }

  @Test
  void shouldRefuseAUtf8ByteOrderMark() {
    byte[] bytes = ("\uFEFF" + GOOD).getBytes(StandardCharsets.UTF_8);

    assertThat(reason(bytes)).isEqualTo("$: not UTF-8 at byte offset 0: a UTF-8 byte-order mark (EF BB BF); send UTF-8 "
        + "without a byte-order mark; requests must be UTF-8 JSON");
  }

  @Test
  void shouldRefuseOverlongAndSurrogateSequencesInACommentWithTheirByteOffset() {
    int at = commentOffset() + 1;

    assertThat(reason(withCommentBytes(new byte[] {'a', (byte) 0xC0, (byte) 0xAF})))
        .isEqualTo("$: not UTF-8 at byte offset " + at + ": overlong encoding (C0 AF); requests must be UTF-8 JSON");
    assertThat(reason(withCommentBytes(new byte[] {'a', (byte) 0xE0, (byte) 0x80, (byte) 0xAF})))
        .contains("at byte offset " + at + ": overlong encoding (E0 80 AF)");
    assertThat(reason(withCommentBytes(new byte[] {'a', (byte) 0xED, (byte) 0xA0, (byte) 0x80})))
        .contains("at byte offset " + at + ": encoded UTF-16 surrogate (ED A0 80)");
  }

  @Test
  void shouldRefuseUnpairedSurrogateEscapesAndAcceptPairs() {
    assertThat(reason(GOOD.replace("MEMO", "ab\\ud800").getBytes(StandardCharsets.UTF_8))).isEqualTo(
        "$.transfers[0].comment: has an unpaired surrogate escape \\ud800 at character 2; text must be valid Unicode "
            + "(escape a character outside the BMP as a pair, e.g. \\ud83d\\ude00, or write it as UTF-8)");
    assertThat(reason(GOOD.replace("MEMO", "\\udc00x").getBytes(StandardCharsets.UTF_8)))
        .startsWith("$.transfers[0].comment: has an unpaired surrogate escape \\udc00 at character 0");
    assertThat(reason(GOOD.replace("MEMO", "\\ude00\\ud83d").getBytes(StandardCharsets.UTF_8)))
        .as("a pair in the wrong order is two unpaired surrogates")
        .startsWith("$.transfers[0].comment: has an unpaired surrogate escape \\ude00 at character 0");
    assertThat(reason(GOOD.replace("\"kind\"", "\"k\\ud800\":1,\"kind\"").getBytes(StandardCharsets.UTF_8)))
        .startsWith("$.transfers[0]: property name has an unpaired surrogate escape \\ud800 at character 1");

    PayoutRequest paired = validator.validate(GOOD.replace("MEMO", "\\ud83d\\ude00").getBytes(StandardCharsets.UTF_8))
        .request();
    assertThat(paired.transfer(0).comment()).isEqualTo("😀");
  }

  @Test
  void shouldReportAPoisonPillOfTwentyThousandEmptyTransfersBriefly() {
    StringBuilder json = new StringBuilder("{\"schemaVersion\":1,\"requestId\":\"r\",\"subwalletId\":7,"
        + "\"createdAt\":\"2026-03-01T12:00:00Z\",\"transfers\":[");
    for (int i = 0; i < 20_000; i++) {
      json.append(i == 0 ? "{}" : ",{}");
    }
    byte[] bytes = json.append("]}").toString().getBytes(StandardCharsets.UTF_8);

    ValidationResult.Invalid invalid = (ValidationResult.Invalid) validator.validate(bytes);

    assertThat(invalid.problems().get(0)).isEqualTo("$.transfers: must have at most 4 items but found 20000");
    assertThat(invalid.problems()).hasSize(1 + 4 * 4).contains("$.transfers[3]: required property 'kind' not found");
  }

  @Test
  void shouldListTwentyProblemsAndCountTheRest() {
    StringBuilder json = new StringBuilder("{");
    for (int i = 0; i < 5_000; i++) {
      json.append(i == 0 ? "" : ",").append("\"p").append(i).append("\":1");
    }
    byte[] bytes = json.append("}").toString().getBytes(StandardCharsets.UTF_8);

    ValidationResult.Invalid invalid = (ValidationResult.Invalid) validator.validate(bytes);

    assertThat(invalid.problems().size()).isGreaterThan(5_000);
    assertThat(invalid.reason().split("; ")).hasSize(Reasons.MAX_LISTED + 1);
    assertThat(invalid.reason()).endsWith("; and " + (invalid.problems().size() - Reasons.MAX_LISTED) + " more problems");
  }

  @Test
  void shouldRefuseAValueAboveTheSizeLimitBeforeParsingIt() {
    byte[] big = new byte[PayoutRequestValidator.MAX_REQUEST_BYTES + 1];
    java.util.Arrays.fill(big, (byte) ' ');

    assertThat(reason(big)).isEqualTo("$: value is 65537 bytes; a payout request is at most 65536 bytes");
  }

  @Test
  void shouldRefuseDeepNestingWithoutBlowingTheStack() {
    byte[] arrays = "[".repeat(60_000).getBytes(StandardCharsets.UTF_8);
    byte[] objects = "{\"a\":".repeat(10_000).getBytes(StandardCharsets.UTF_8);

    assertThat(reason(arrays)).startsWith("$: not valid JSON: Document nesting depth");
    assertThat(reason(objects)).startsWith("$: not valid JSON: Document nesting depth");
  }
}
