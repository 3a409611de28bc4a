package org.tonpayouts.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tonpayouts.schemas.Fixtures.ABOVE_2_53;
import static org.tonpayouts.schemas.Fixtures.utf8;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class EventSerdeTest {

  static Stream<Arguments> events() {
    return Fixtures.eventsByTopic().stream().map(a -> Arguments.of(a[0], a[1]));
  }

  @SuppressWarnings("unchecked")
  private static <V> byte[] write(Topic<String, V> topic, Object event) {
    return topic.valueSerde().serializer().serialize(topic.name(), (V) event);
  }

  private static <V> V read(Topic<String, V> topic, byte[] bytes) {
    return topic.valueSerde().deserializer().deserialize(topic.name(), bytes);
  }

  private static JsonNode tree(byte[] bytes) throws Exception {
    return Json.mapper().readTree(bytes);
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("events")
  void shouldRoundTripEveryEventThroughItsTopicSerde(Topic<String, ?> topic, Object event) {
    byte[] bytes = write(topic, event);

    assertThat(read(topic, bytes)).isEqualTo(event);
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("events")
  void shouldWriteSchemaVersionIsoInstantsAndNoNulls(Topic<String, ?> topic, Object event) throws Exception {
    String json = new String(write(topic, event), StandardCharsets.UTF_8);

    assertThat(tree(utf8(json)).get("schemaVersion").asInt()).isEqualTo(1);
    assertThat(json).doesNotContain(":null").contains("\"2026-03-01T12:0");
  }

  @Test
  void shouldWriteLongsAsStringsSoValuesAbove2pow53Survive() throws Exception {
    JsonNode settlement = tree(write(Topics.PAYOUT_SETTLEMENTS, Fixtures.settled()));
    JsonNode transfer = tree(write(Topics.PAYOUT_REQUESTS, Fixtures.request())).get("transfers").get(1);

    assertThat(settlement.get("amountNano").isTextual()).isTrue();
    assertThat(settlement.get("amountNano").asText()).isEqualTo("9007199254740993");
    assertThat(settlement.get("lt").asText()).isEqualTo("9223372036854775807");
    assertThat(settlement.get("feeNano").asText()).isEqualTo("2893412");
    assertThat(transfer.get("amountNano").asText()).isEqualTo("9007199254740993");
    // A double (what JavaScript's JSON.parse makes of a number) would have lost the last digit.
    assertThat((long) (double) ABOVE_2_53).isNotEqualTo(ABOVE_2_53);
    // Small integers that no JS client mangles stay numbers.
    assertThat(settlement.get("seqno").isNumber()).isTrue();
    assertThat(settlement.get("subwalletId").isNumber()).isTrue();
  }

  @Test
  void shouldAcceptNumbersWhereStringsAreWritten() {
    String json = new String(write(Topics.PAYOUT_SETTLEMENTS, Fixtures.settled()), StandardCharsets.UTF_8)
        .replace("\"amountNano\":\"9007199254740993\"", "\"amountNano\":9007199254740993")
        .replace("\"lt\":\"9223372036854775807\"", "\"lt\":9223372036854775807")
        .replace("\"feeNano\":\"2893412\"", "\"feeNano\":2893412");
    assertThat(json).doesNotContain("\"9007199254740993\"", "\"2893412\"");

    Settlement read = read(Topics.PAYOUT_SETTLEMENTS, utf8(json));

    assertThat(read).isEqualTo(Fixtures.settled());
  }

  @Test
  void shouldMapNullToNullOnEventTopics() {
    assertThat(write(Topics.PAYOUT_SETTLEMENTS, null)).isNull();
    assertThat(read(Topics.PAYOUT_SETTLEMENTS, null)).isNull();
  }

  @Test
  void shouldThrowSerializationExceptionWithCauseForGarbage() {
    assertThatThrownBy(() -> read(Topics.PAYOUT_SUBMISSIONS, new byte[] {0, (byte) 0xff, 42}))
        .isExactlyInstanceOf(SerializationException.class)
        .hasMessageStartingWith("Could not deserialize Submission from topic payout.submissions")
        .hasCauseInstanceOf(com.fasterxml.jackson.core.JsonProcessingException.class);
  }

  @Test
  void shouldRefuseAnEventWithAMissingPrimitiveInsteadOfDefaultingToZero() {
    String json = new String(write(Topics.PAYOUT_SUBMISSIONS, Fixtures.submission()), StandardCharsets.UTF_8)
        .replace("\"seqno\":17,", "");
    assertThat(json).doesNotContain("seqno");

    assertThatThrownBy(() -> read(Topics.PAYOUT_SUBMISSIONS, utf8(json)))
        .isExactlyInstanceOf(SerializationException.class)
        .hasMessageContaining("seqno")
        .hasCauseInstanceOf(com.fasterxml.jackson.databind.JsonMappingException.class);
  }

  @Test
  void shouldRefuseAMissingAmountInsteadOfDefaultingToZero() {
    String json = new String(write(Topics.PAYOUT_SETTLEMENTS, Fixtures.settled()), StandardCharsets.UTF_8)
        .replace("\"amountNano\":\"9007199254740993\",", "");

    assertThatThrownBy(() -> read(Topics.PAYOUT_SETTLEMENTS, utf8(json)))
        .isExactlyInstanceOf(SerializationException.class)
        .hasMessageContaining("amountNano");
  }

  @Test
  void shouldRefuseFractionalOrOverflowingAmounts() {
    String json = new String(write(Topics.PAYOUT_SETTLEMENTS, Fixtures.settled()), StandardCharsets.UTF_8);

    for (String bad : new String[] {"1.5", "1e3", "\"1.5\"", "\"9223372036854775808\"",
        "9223372036854775808", "\"\"", "\" 1\"", "true"}) {
      byte[] mutated = utf8(json.replace("\"amountNano\":\"9007199254740993\"", "\"amountNano\":" + bad));
      assertThatThrownBy(() -> read(Topics.PAYOUT_SETTLEMENTS, mutated))
          .as("amountNano %s", bad)
          .isExactlyInstanceOf(SerializationException.class)
          .hasMessageContaining("amountNano");
    }
  }

  @Test
  void shouldRefuseAnEventBreakingItsInvariantsAsSerializationException() {
    String json = new String(write(Topics.PAYOUT_CONFIRMATIONS, Fixtures.confirmed()), StandardCharsets.UTF_8)
        .replace("\"txHash\":\"" + Fixtures.TX_HASH + "\",", "");

    assertThatThrownBy(() -> read(Topics.PAYOUT_CONFIRMATIONS, utf8(json)))
        .isExactlyInstanceOf(SerializationException.class)
        .hasMessageContaining("txHash of a CONFIRMED confirmation is required")
        .hasRootCauseInstanceOf(NullPointerException.class);
  }

  @Test
  void shouldIgnoreUnknownFieldsInEventsForRollingUpgrades() {
    String json = new String(write(Topics.PAYOUT_SETTLEMENTS, Fixtures.settled()), StandardCharsets.UTF_8)
        .replace("{\"schemaVersion\":1,", "{\"schemaVersion\":1,\"addedInV2\":\"x\",");

    assertThat(read(Topics.PAYOUT_SETTLEMENTS, utf8(json))).isEqualTo(Fixtures.settled());
  }

  @Test
  void shouldRefuseDuplicateKeysInEvents() {
    String json = new String(write(Topics.PAYOUT_SETTLEMENTS, Fixtures.settled()), StandardCharsets.UTF_8)
        .replace("{\"schemaVersion\":1,", "{\"schemaVersion\":1,\"amountNano\":\"1\",");

    assertThatThrownBy(() -> read(Topics.PAYOUT_SETTLEMENTS, utf8(json)))
        .isExactlyInstanceOf(SerializationException.class)
        .hasMessageContaining("Duplicate field 'amountNano'");
  }

  @Test
  void shouldKeepRecordsFromBeingBuiltWithBadValues() {
    assertThatThrownBy(() -> Submission.of("r", "t", 0, 1, Fixtures.WALLET_RAW, 1,
        "AAAA" + Fixtures.MSG_HASH.substring(4), Fixtures.NORM_HASH, 1, "d", 1, 1, Fixtures.T0,
        List.of(Fixtures.MSG_HASH), Fixtures.T0, false, false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("messageHash must be 64 lowercase hex digits");
    assertThatThrownBy(() -> new TransferRequest("t", TransferKind.PAYOUT, Fixtures.DEST_RAW, 0, null, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("amountNano must be positive, got 0");
    assertThatThrownBy(() -> Topics.walletKey(-1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Settlement.of("r", "t", 0, 1, TransferKind.PAYOUT, "d", 1,
        SettlementStatus.FAILED, null, null, null, null, null, " ", Fixtures.T0, Fixtures.T0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("reason of a FAILED settlement must not be blank");
  }

  @Test
  void shouldBuildAbortedSettlementsFromTheRequest() {
    Settlement aborted = Fixtures.aborted();

    assertThat(aborted.status()).isEqualTo(SettlementStatus.ABORTED);
    assertThat(aborted.transferId()).isEqualTo("t2");
    assertThat(aborted.amountNano()).isEqualTo(ABOVE_2_53);
    assertThat(aborted.requestedAt()).isEqualTo(Fixtures.T0);
    assertThat(aborted.txHash()).isNull();
    assertThat(aborted.schemaVersion()).isEqualTo(Settlement.SCHEMA_VERSION);
  }

  @Test
  void shouldKeepNonUtf8RejectedPayloadsAsBase64() {
    Rejected text = Fixtures.rejectedText();
    Rejected binary = Fixtures.rejectedBinary();
    Rejected none = Fixtures.rejectedNull();

    assertThat(text.payloadBase64()).isFalse();
    assertThat(text.originalPayload()).isEqualTo("{\"schemaVersion\":1}");
    assertThat(binary.payloadBase64()).isTrue();
    assertThat(binary.originalPayload()).isEqualTo("wygA/w==");
    assertThat(binary.originalPayloadBytes()).containsExactly(0xc3, 0x28, 0, 0xff);
    assertThat(none.originalPayload()).isNull();
    assertThat(none.originalPayloadBytes()).isNull();
  }

  @Test
  void shouldTreatTheSerdeAsItsOwnSerializerAndDeserializer() {
    JsonSerde<Settlement> serde = JsonSerde.of(Settlement.class);

    assertThat(serde.serializer()).isSameAs(serde);
    assertThat(serde.deserializer()).isSameAs(serde);
    assertThat(serde.type()).isEqualTo(Settlement.class);
    assertThat(serde).hasToString("JsonSerde[Settlement]");
  }
}
