package org.tonpayouts.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tonpayouts.schemas.Fixtures.utf8;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.ValidationMessage;
import java.io.InputStream;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The JSON Schemas are documentation: they must describe exactly what the serdes write. */
class TopicSchemaTest {

  static Stream<Arguments> events() {
    return Fixtures.eventsByTopic().stream().map(a -> Arguments.of(a[0], a[1]));
  }

  static Stream<Topic<String, ?>> topics() {
    return Topics.ALL.stream();
  }

  @SuppressWarnings("unchecked")
  private static <V> JsonNode serialized(Topic<String, V> topic, Object event) throws Exception {
    return Json.mapper().readTree(topic.valueSerde().serializer().serialize(topic.name(), (V) event));
  }

  private static JsonNode schemaJson(Topic<String, ?> topic) throws Exception {
    try (InputStream in = TopicSchemaTest.class.getResourceAsStream(topic.schemaResource())) {
      assertThat(in).as(topic.schemaResource()).isNotNull();
      return Json.mapper().readTree(in);
    }
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("events")
  void shouldValidateEverySerializedEventAgainstItsTopicSchema(Topic<String, ?> topic, Object event)
      throws Exception {
    JsonSchema schema = PayoutRequestValidator.loadSchema(topic.schemaResource());

    Set<ValidationMessage> errors = schema.validate(serialized(topic, event));

    assertThat(errors).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("topics")
  void shouldDocumentEveryRecordComponentAndNothingElse(Topic<String, ?> topic) throws Exception {
    JsonNode schema = schemaJson(topic);
    Class<?> type = ((JsonSerde<?>) topic.valueSerde()).type();

    Set<String> documented = new HashSet<>();
    schema.get("properties").fieldNames().forEachRemaining(documented::add);
    Set<String> components = new HashSet<>();
    Arrays.stream(type.getRecordComponents()).map(RecordComponent::getName).forEach(components::add);

    assertThat(documented).isEqualTo(components);
    assertThat(schema.get("additionalProperties").asBoolean(true)).isFalse();
    assertThat(schema.get("$schema").asText()).isEqualTo("https://json-schema.org/draft/2020-12/schema");
    assertThat(schema.get("description").asText()).contains("Written by").contains("Record key");
    Iterator<String> names = schema.get("properties").fieldNames();
    names.forEachRemaining(name ->
        assertThat(schema.get("properties").get(name).hasNonNull("description")).as(name).isTrue());
  }

  @Test
  void shouldRejectEventsThatDriftFromTheSchema() throws Exception {
    JsonSchema schema = PayoutRequestValidator.loadSchema(Topics.PAYOUT_SETTLEMENTS.schemaResource());
    String good = serialized(Topics.PAYOUT_SETTLEMENTS, Fixtures.settled()).toString();

    List<String> drifted = List.of(
        good.replace(Fixtures.TX_HASH, "AP8A/wD/AP8A/wD/AP8A/wD/AP8A/wD/AP8A/wD/AP8="), // base64, not hex
        good.replace("\"status\":\"SETTLED\"", "\"status\":\"DONE\""),
        good.replace(",\"txHash\":\"" + Fixtures.TX_HASH + "\"", ""), // SETTLED needs txHash
        good.replace("\"amountNano\":\"9007199254740993\"", "\"amountNano\":\"-1\""));

    for (String json : drifted) {
      assertThat(json).isNotEqualTo(good);
      assertThat(schema.validate(Json.mapper().readTree(utf8(json)))).as(json).isNotEmpty();
    }
  }

  @Test
  void shouldAllowAResolutionOnlyOnASettledOrFailedSettlement() throws Exception {
    JsonSchema schema = PayoutRequestValidator.loadSchema(Topics.PAYOUT_SETTLEMENTS.schemaResource());
    String resolved = serialized(Topics.PAYOUT_SETTLEMENTS, Fixtures.resolvedSettlement()).toString();
    assertThat(resolved).contains("\"resolution\":{\"operator\":\"alice\"");
    String onAnAbort = resolved.replace("\"status\":\"SETTLED\"", "\"status\":\"ABORTED\",\"reason\":\"x\"");
    String withoutAuditId = resolved.replace("\"auditId\":42,", "");

    assertThat(schema.validate(Json.mapper().readTree(utf8(resolved)))).isEmpty();
    assertThat(schema.validate(Json.mapper().readTree(utf8(onAnAbort)))).isNotEmpty();
    assertThat(schema.validate(Json.mapper().readTree(utf8(withoutAuditId)))).isNotEmpty();
    assertThatThrownBy(() -> Fixtures.aborted().resolvedBy(new Resolution("bob", "why", 1L, Fixtures.T0)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not ABORTED");
  }

  @Test
  void shouldRefuseAnAuditRecordWithoutItsIdOrDetail() throws Exception {
    JsonSchema schema = PayoutRequestValidator.loadSchema(Topics.PAYOUT_AUDIT.schemaResource());
    String good = serialized(Topics.PAYOUT_AUDIT, Fixtures.auditRecord()).toString();

    assertThat(schema.validate(Json.mapper().readTree(utf8(good.replace("\"auditId\":42,", ""))))).isNotEmpty();
    assertThat(schema.validate(Json.mapper().readTree(utf8(good.replace("\"level\":\"INFO\"", "\"level\":\"LOUD\"")))))
        .isNotEmpty();
    assertThatThrownBy(() -> AuditRecord.of(0, Fixtures.T0, AuditRecord.Level.INFO, "X", null, null, null, null, null,
        null, null, "d")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("auditId");
    assertThat(Fixtures.auditRecord().key()).isEqualTo("698983191");
    assertThat(Fixtures.auditRecordWithoutWallet().key()).isNull();
  }

  @Test
  void shouldRequireAReasonForEveryUnsuccessfulOutcome() throws Exception {
    JsonSchema schema = PayoutRequestValidator.loadSchema(Topics.PAYOUT_CONFIRMATIONS.schemaResource());
    String expired = serialized(Topics.PAYOUT_CONFIRMATIONS, Fixtures.expired()).toString();
    String withoutReason = expired.replaceAll(",\"reason\":\"[^\"]*\"", "");
    assertThat(withoutReason).doesNotContain("reason");

    assertThat(schema.validate(Json.mapper().readTree(utf8(withoutReason))))
        .extracting(ValidationMessage::getMessage)
        .containsExactly("$: required property 'reason' not found");
  }

  @Test
  void shouldRequireTheNodesTimeForEveryExpiry() throws Exception {
    JsonSchema schema = PayoutRequestValidator.loadSchema(Topics.PAYOUT_CONFIRMATIONS.schemaResource());
    String expired = serialized(Topics.PAYOUT_CONFIRMATIONS, Fixtures.expired()).toString();
    String withoutEvidence = expired.replaceAll(",\"evidenceUtime\":[0-9]+", "");
    assertThat(withoutEvidence).doesNotContain("evidenceUtime");

    assertThat(schema.validate(Json.mapper().readTree(utf8(withoutEvidence))))
        .extracting(ValidationMessage::getMessage)
        .containsExactly("$: required property 'evidenceUtime' not found");
    assertThatThrownBy(() -> Confirmation.of("r", "t", 1, Fixtures.MSG_HASH, 1, ConfirmationStatus.EXPIRED, null, null,
        null, null, "valid_until passed", Fixtures.T0))
        .isInstanceOf(NullPointerException.class).hasMessageContaining("evidenceUtime of an EXPIRED confirmation");
  }
}
