package org.tonpayouts.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tonpayouts.schemas.Fixtures.utf8;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PayoutRequestValidatorTest {

  private static final String DEST = Fixtures.DEST_RAW;
  private final PayoutRequestValidator validator = PayoutRequestValidator.shared();

  /** A valid request with the given transfers (JSON objects, comma-separated). */
  private static String request(String transfers) {
    return "{\"schemaVersion\":1,\"requestId\":\"req-1\",\"subwalletId\":7,"
        + "\"transfers\":[" + transfers + "],\"createdAt\":\"2026-03-01T12:00:00Z\"}";
  }

  private static String transfer(String id, String amountJson) {
    return "{\"transferId\":\"" + id + "\",\"kind\":\"PAYOUT\",\"destination\":\"" + DEST
        + "\",\"amountNano\":" + amountJson + "}";
  }

  private static final String MUTATIONS = " {}[]\":,0123456789-.eEtrufalsn\\x\u00ff";
  private static final String GOOD = request(transfer("t1", "\"1500000000\""));

  private String reason(String json) {
    return reason(utf8(json));
  }

  private String reason(byte[] raw) {
    ValidationResult result = validator.validate(raw);
    assertThat(result.isValid()).as("expected invalid").isFalse();
    return result.reason();
  }

  @Test
  void shouldAcceptAGoodRequest() {
    ValidationResult result = validator.validate(utf8(GOOD));

    assertThat(result).isInstanceOf(ValidationResult.Valid.class);
    PayoutRequest request = result.request();
    assertThat(request.schemaVersion()).isEqualTo(PayoutRequest.SCHEMA_VERSION);
    assertThat(request.requestId()).isEqualTo("req-1");
    assertThat(request.subwalletId()).isEqualTo(7);
    assertThat(request.createdAt()).isEqualTo(Fixtures.T0);
    assertThat(request.transfers()).containsExactly(
        new TransferRequest("t1", TransferKind.PAYOUT, DEST, 1_500_000_000L, null, null));
    assertThatThrownBy(result::reason).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void shouldAcceptWhatTheSerdeWritesIncludingFourTransfersCommentsAndBounce() {
    PayoutRequest full = PayoutRequest.of("9f1c1f7e-6f1e-4a43-9d8c-3b0f6b1c2d3e", 4_294_967_295L, List.of(
        new TransferRequest("a", TransferKind.ESCROW_RELEASE, Fixtures.DEST_FRIENDLY, Long.MAX_VALUE, "x".repeat(1000), true),
        new TransferRequest("b", TransferKind.WITHDRAWAL, DEST, 1, "привет 👋", false),
        new TransferRequest("order-42:fee", TransferKind.COMMISSION_SWEEP, "-1:" + "Ab".repeat(32), 2, null, null),
        new TransferRequest("d_4.x", TransferKind.OTHER, DEST, 3, "", null)),
        Fixtures.T0);

    ValidationResult result = validator.validate(
        Topics.PAYOUT_REQUESTS.valueSerde().serializer().serialize("payout.requests", full));

    assertThat(result.request()).isEqualTo(full);
  }

  /** The example request of docs/topics-and-events.md, verbatim. */
  private static final String README_EXAMPLE = """
      {
        "schemaVersion": 1,
        "requestId": "escrow-8841:release",
        "subwalletId": 698983191,
        "createdAt": "2026-03-01T12:00:00Z",
        "transfers": [
          {
            "transferId": "to-seller",
            "kind": "ESCROW_RELEASE",
            "destination": "UQCrq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq5jh",
            "amountNano": "9500000000",
            "comment": "deal 8841"
          },
          {
            "transferId": "fee",
            "kind": "COMMISSION_SWEEP",
            "destination": "0:1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f",
            "amountNano": "500000000",
            "bounce": true
          }
        ]
      }
      """;

  @Test
  void shouldAcceptTheReadmeExample() {
    PayoutRequest request = validator.validate(utf8(README_EXAMPLE)).request();

    assertThat(request.transfers()).extracting(TransferRequest::amountNano).containsExactly(9_500_000_000L, 500_000_000L);
    assertThat(request.walletKey()).isEqualTo("698983191");
  }

  @Test
  void shouldAcceptAmountsAsNumbersAndOffsetsInCreatedAt() {
    String json = request(transfer("t1", "9007199254740993"))
        .replace("2026-03-01T12:00:00Z", "2026-03-01T14:00:00+02:00");

    PayoutRequest request = validator.validate(utf8(json)).request();

    assertThat(request.transfer(0).amountNano()).isEqualTo(9_007_199_254_740_993L);
    assertThat(request.createdAt()).isEqualTo(Fixtures.T0);
  }

  @Test
  void shouldAcceptExplicitNullsForOptionalFields() {
    String json = GOOD.replace("\"amountNano\"", "\"comment\":null,\"bounce\":null,\"amountNano\"");

    assertThat(validator.validate(utf8(json)).request().transfer(0).comment()).isNull();
  }

  @Test
  void shouldRejectRawNonJsonBytes() {
    assertThat(reason(new byte[] {(byte) 0x80, (byte) 0xff, 0, 1}))
        .isEqualTo("$: not UTF-8 at byte offset 0: continuation byte 80 without a lead byte; requests must be UTF-8 JSON");
    assertThat(reason(new byte[] {'{', '"', (byte) 0xc3, 0x28, '"', ':', '1', '}'}))
        .isEqualTo("$: not UTF-8 at byte offset 2: truncated 2-byte sequence (C3 28): byte 2 is not a continuation "
            + "byte; requests must be UTF-8 JSON");
    assertThat(reason(new byte[] {0x01, 0x02}))
        .isEqualTo("$: not valid JSON: Illegal character ((CTRL-CHAR, code 1)): only regular white space (\\r, "
            + "\\n, \\t) is allowed between tokens (line 1, column 2)");
    assertThat(reason("payout please")).isEqualTo(
        "$: not valid JSON: Unrecognized token 'payout': was expecting (JSON String, Number, Array, "
            + "Object or token 'null', 'true' or 'false') (line 1, column 7)");
  }

  @Test
  void shouldRejectEmptyAndNullValues() {
    assertThat(reason(new byte[0])).isEqualTo("$: value is empty; expected a JSON object");
    assertThat(reason("  \n ")).isEqualTo("$: value is empty; expected a JSON object");
    assertThat(reason((byte[]) null)).isEqualTo("$: value is null (a tombstone); expected a JSON object");
  }

  @Test
  void shouldRejectJsonOfTheWrongTypeAtTheRoot() {
    assertThat(reason("[" + GOOD + "]")).isEqualTo("$: array found, object expected");
    assertThat(reason("\"" + GOOD.replace("\"", "\\\"") + "\"")).isEqualTo("$: string found, object expected");
    assertThat(reason("null")).isEqualTo("$: null found, object expected");
    assertThat(reason("42")).isEqualTo("$: integer found, object expected");
  }

  @Test
  void shouldRejectAMissingRequestId() {
    assertThat(reason(GOOD.replace("\"requestId\":\"req-1\",", "")))
        .isEqualTo("$: required property 'requestId' not found");
  }

  @Test
  void shouldRejectZeroAndFiveTransfers() {
    String t = transfer("t", "1");
    String five = String.join(",", List.of(t, t.replace("\"t\"", "\"u\""), t.replace("\"t\"", "\"v\""),
        t.replace("\"t\"", "\"w\""), t.replace("\"t\"", "\"x\"")));

    assertThat(reason(request(""))).isEqualTo("$.transfers: must have at least 1 items but found 0");
    assertThat(reason(request(five))).isEqualTo("$.transfers: must have at most 4 items but found 5");
  }

  @ParameterizedTest(name = "amountNano {0}")
  @CsvSource(delimiter = '|', value = {
      "0                        | $.transfers[1].amountNano: must be a positive integer of nanotons",
      "-5                       | $.transfers[1].amountNano: must be a positive integer of nanotons",
      "'\"0\"'                  | $.transfers[1].amountNano: must be a positive integer of nanotons (1 to 19 digits, no sign, no leading zero)",
      "'\"-5\"'                 | $.transfers[1].amountNano: must be a positive integer of nanotons (1 to 19 digits, no sign, no leading zero)",
      "'\"1,000\"'              | $.transfers[1].amountNano: must be a positive integer of nanotons (1 to 19 digits, no sign, no leading zero)",
      "'\"007\"'                | $.transfers[1].amountNano: must be a positive integer of nanotons (1 to 19 digits, no sign, no leading zero)",
      "'\"99999999999999999999\"' | $.transfers[1].amountNano: must be a positive integer of nanotons (1 to 19 digits, no sign, no leading zero)",
      "'\"9223372036854775808\"'  | $.transfers[1].amountNano: \"9223372036854775808\" is out of range for a 64-bit integer (max 9223372036854775807)",
      "9223372036854775808      | $.transfers[1].amountNano: must be at most 9223372036854775807 nanotons",
      "1e30                     | $.transfers[1].amountNano: must be at most 9223372036854775807 nanotons",
      "1.5                      | $.transfers[1].amountNano: must be a positive integer of nanotons, as a string of digits or a JSON integer",
      "1.0                      | $.transfers[1].amountNano: 1.0 is not an integer: write integers without fraction or exponent",
      "true                     | $.transfers[1].amountNano: must be a positive integer of nanotons, as a string of digits or a JSON integer",
      "null                     | $.transfers[1].amountNano: must be a positive integer of nanotons, as a string of digits or a JSON integer",
  })
  void shouldRejectBadAmountsWithTheirPath(String amountJson, String expected) {
    String json = request(transfer("t1", "1") + "," + transfer("t2", amountJson));

    assertThat(reason(json)).isEqualTo(expected);
  }

  @Test
  void shouldAcceptTheLargestAmount() {
    String json = request(transfer("t1", "\"9223372036854775807\""));

    assertThat(validator.validate(utf8(json)).request().transfer(0).amountNano()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void shouldRejectAnUnknownFieldSuchAsATypo() {
    assertThat(reason(GOOD.replace("\"amountNano\"", "\"amountNanos\""))).isEqualTo(
        "$.transfers[0]: property 'amountNanos' is not defined in the schema and the schema does not "
            + "allow additional properties; $.transfers[0]: required property 'amountNano' not found");
    assertThat(reason(GOOD.replace("\"subwalletId\"", "\"subWalletId\""))).isEqualTo(
        "$: property 'subWalletId' is not defined in the schema and the schema does not allow "
            + "additional properties; $: required property 'subwalletId' not found");
  }

  @Test
  void shouldRejectADuplicateTransferId() {
    String json = request(transfer("t1", "1") + "," + transfer("t2", "2") + "," + transfer("t1", "3"));

    assertThat(reason(json)).isEqualTo(
        "$.transfers[2].transferId: duplicate transferId 't1' (already used by $.transfers[0]); "
            + "transferIds must be unique within a request");
  }

  @Test
  void shouldRejectABadKind() {
    assertThat(reason(GOOD.replace("\"PAYOUT\"", "\"payout\""))).isEqualTo(
        "$.transfers[0].kind: does not have a value in the enumeration "
            + "[\"PAYOUT\", \"ESCROW_RELEASE\", \"WITHDRAWAL\", \"REFUND\", \"COMMISSION_SWEEP\", \"OTHER\"]");
  }

  @Test
  void shouldRejectWrongTypesListingEveryProblem() {
    String json = "{\"schemaVersion\":\"1\",\"requestId\":42,\"subwalletId\":\"7\",\"transfers\":{},"
        + "\"createdAt\":1772366400}";

    assertThat(reason(json)).isEqualTo(
        "$.schemaVersion: must be the constant value '1'; "
            + "$.requestId: integer found, string expected; "
            + "$.subwalletId: string found, integer expected; "
            + "$.transfers: object found, array expected; "
            + "$.createdAt: integer found, string expected");
  }

  @Test
  void shouldRejectBadIdsAddressesCommentsDatesAndSubwallets() {
    assertThat(reason(GOOD.replace("\"req-1\"", "\"req 1\"")))
        .isEqualTo("$.requestId: must contain only the characters A-Z a-z 0-9 . _ : -");
    assertThat(reason(GOOD.replace("\"req-1\"", "\"\"")))
        .isEqualTo("$.requestId: must be at least 1 character long");
    assertThat(reason(GOOD.replace("\"req-1\"", "\"" + "r".repeat(129) + "\"")))
        .isEqualTo("$.requestId: must be at most 128 characters long");
    // the address itself is parsed downstream (TonAddress says what is wrong); the schema bounds it
    assertThat(reason(GOOD.replace(DEST, "")))
        .isEqualTo("$.transfers[0].destination: must be a TON address: raw '0:<64 hex digits>' or 48-character user-friendly");
    assertThat(reason(GOOD.replace(DEST, "0:" + "ab".repeat(50))))
        .isEqualTo("$.transfers[0].destination: must be a TON address: raw '0:<64 hex digits>' or 48-character "
            + "user-friendly (at most 100 characters)");
    assertThat(reason(GOOD.replace("\"amountNano\"", "\"comment\":\"" + "c".repeat(1001) + "\",\"amountNano\"")))
        .isEqualTo("$.transfers[0].comment: must be at most 1000 characters long");
    assertThat(reason(GOOD.replace("2026-03-01T12:00:00Z", "2026-03-01 12:00")))
        .isEqualTo("$.createdAt: must be an RFC 3339 date-time with offset, e.g. 2026-03-01T12:00:00Z");
    assertThat(reason(GOOD.replace("\"subwalletId\":7", "\"subwalletId\":4294967296")))
        .isEqualTo("$.subwalletId: must have a maximum value of 4294967295");
    assertThat(reason(GOOD.replace("\"schemaVersion\":1", "\"schemaVersion\":2")))
        .isEqualTo("$.schemaVersion: must be the constant value '1'");
    assertThat(reason(GOOD.replace("\"subwalletId\":7", "\"subwalletId\":7.0")))
        .isEqualTo("$.subwalletId: 7.0 is not an integer: write integers without fraction or exponent");
  }

  @Test
  void shouldRejectAmbiguousJson() {
    assertThat(reason(GOOD.replace("{\"schemaVersion\":1,", "{\"schemaVersion\":1,\"requestId\":\"other\",")))
        .isEqualTo("$: not valid JSON: Duplicate field 'requestId' (line 1, column 51)");
    assertThat(reason(GOOD + GOOD))
        .startsWith("$: not valid JSON: unexpected content after the JSON value (line 1, column ");
  }

  @Test
  void shouldEscapeControlCharactersAndCapHugeReasons() {
    String reason = reason("x\u0001" + "x".repeat(60_000));

    assertThat(reason).doesNotContainPattern("\\p{Cntrl}").contains("\\u0001").hasSizeLessThan(600);
  }

  @Test
  void shouldNeverThrowWhateverTheInput() {
    Random random = new Random(20260301);
    List<byte[]> inputs = new ArrayList<>();
    inputs.add("[".repeat(100_000).getBytes());
    inputs.add(("{\"a\":" .repeat(2_000)).getBytes());
    inputs.add(GOOD.replace("\"1500000000\"", "1" + "0".repeat(5_000)).getBytes());
    inputs.add(GOOD.replace("\"1500000000\"", "1e999999999").getBytes());
    inputs.add(GOOD.replace("\"1500000000\"", "-1e-999999999").getBytes());
    inputs.add(GOOD.replace("\"PAYOUT\"", "\"\\ud800\"").getBytes());
    for (int i = 0; i < 300; i++) {
      byte[] bytes = new byte[random.nextInt(64)];
      random.nextBytes(bytes);
      inputs.add(bytes);
    }
    byte[] good = utf8(GOOD);
    for (int i = 0; i < 1_500; i++) {
      byte[] mutated = good.clone();
      for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
        mutated[random.nextInt(mutated.length)] = (byte) MUTATIONS.charAt(random.nextInt(MUTATIONS.length()));
      }
      inputs.add(random.nextBoolean() ? mutated : java.util.Arrays.copyOf(mutated, random.nextInt(mutated.length)));
    }
    String[] values = {"null", "true", "0", "-1", "1.5", "\"\"", "\"x\"", "[]", "{}", "[1,2]", "{\"a\":1}", "99999999999999999999999999"};
    for (String field : new String[] {"\"schemaVersion\":1", "\"requestId\":\"req-1\"", "\"subwalletId\":7",
        "\"createdAt\":\"2026-03-01T12:00:00Z\"", "\"transferId\":\"t1\"", "\"kind\":\"PAYOUT\"",
        "\"destination\":\"" + DEST + "\"", "\"amountNano\":\"1500000000\""}) {
      String name = field.substring(0, field.indexOf(':') + 1);
      for (String value : values) {
        inputs.add(utf8(GOOD.replace(field, name + value)));
      }
    }

    int valid = 0;
    for (byte[] input : inputs) {
      ValidationResult result = validator.validate(input);
      if (result.isValid()) {
        valid++;
        assertThat(result.request().transfers()).hasSize(1);
      } else {
        assertThat(result.reason()).startsWith("$");
      }
    }
    assertThat(valid).as("some mutations stay valid, most do not").isLessThan(inputs.size() / 2);
  }

  @Test
  void shouldMakeTheRequestsTopicSerdeValidate() {
    var deserializer = Topics.PAYOUT_REQUESTS.valueSerde().deserializer();

    assertThat(deserializer.deserialize("payout.requests", utf8(GOOD)).requestId()).isEqualTo("req-1");
    assertThatThrownBy(() -> deserializer.deserialize("payout.requests", utf8("[]")))
        .isExactlyInstanceOf(SerializationException.class)
        .hasMessage("invalid payout request: $: array found, object expected");
    assertThatThrownBy(() -> deserializer.deserialize("payout.requests", null))
        .isExactlyInstanceOf(SerializationException.class)
        .hasMessageContaining("tombstone");
  }
}
