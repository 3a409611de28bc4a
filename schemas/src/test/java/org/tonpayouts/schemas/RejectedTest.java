package org.tonpayouts.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/** Every rejection {@link Rejected#of} builds is writable: bounded reason, payload and key. */
class RejectedTest {
  private static final String TOPIC = Topics.PAYOUT_REJECTED.name();

  private static byte[] serialize(Rejected rejected) {
    return Topics.PAYOUT_REJECTED.valueSerde().serializer().serialize(TOPIC, rejected);
  }

  private static Rejected reject(byte[] payload) {
    return Rejected.of("$: bad", "7", payload, "payout.requests", 0, 1L, Fixtures.T0);
  }

  @Test
  void shouldKeepAShortPayloadWholeWithItsLengthAndHash() {
    byte[] payload = "{\"schemaVersion\":1}".getBytes(StandardCharsets.UTF_8);

    Rejected rejected = reject(payload);

    assertThat(rejected.originalPayload()).isEqualTo("{\"schemaVersion\":1}");
    assertThat(rejected.payloadTruncated()).isFalse();
    assertThat(rejected.payloadLength()).isEqualTo(payload.length);
    // sha256sum of the same 19 bytes
    assertThat(rejected.payloadSha256()).isEqualTo("0e9561cfb83d50990a103b3896fe249a11fe27fa28985448187f93ec12116d72");
    assertThat(rejected.originalPayloadBytes()).isEqualTo(payload);
  }

  @Test
  void shouldCutAMegabyteOfEscapedControlBytesToAPrefix() {
    byte[] controls = new byte[1 << 20];
    Arrays.fill(controls, (byte) 0x01);

    Rejected rejected = reject(controls);
    byte[] written = serialize(rejected);

    assertThat(rejected.payloadBase64()).isFalse();
    assertThat(rejected.payloadTruncated()).isTrue();
    assertThat(rejected.originalPayloadBytes()).hasSize(Rejected.MAX_PAYLOAD_PREFIX_BYTES);
    assertThat(rejected.payloadLength()).isEqualTo(1 << 20);
    assertThat(rejected.payloadSha256()).isEqualTo(Rejected.sha256(controls));
    assertThat(written.length).isLessThan(Rejected.MAX_SERIALIZED_BYTES).isGreaterThan(6 * Rejected.MAX_PAYLOAD_PREFIX_BYTES);
  }

  @Test
  void shouldCutAMegabyteOfInvalidUtf8ToABase64Prefix() {
    byte[] garbage = new byte[1 << 20];
    new Random(1).nextBytes(garbage);
    garbage[0] = (byte) 0xff;

    Rejected rejected = reject(garbage);

    assertThat(rejected.payloadBase64()).isTrue();
    assertThat(rejected.payloadTruncated()).isTrue();
    assertThat(rejected.originalPayloadBytes()).isEqualTo(Arrays.copyOf(garbage, Rejected.MAX_PAYLOAD_PREFIX_BYTES));
    assertThat(rejected.payloadSha256()).isEqualTo(Rejected.sha256(garbage));
    assertThat(serialize(rejected).length).isLessThan(Rejected.MAX_SERIALIZED_BYTES);
  }

  @Test
  void shouldNeverCutInsideACharacter() {
    byte[] euros = "€".repeat(5_000).getBytes(StandardCharsets.UTF_8);
    byte[] emoji = ("x" + "😀".repeat(5_000)).getBytes(StandardCharsets.UTF_8);

    Rejected threeByte = reject(euros);
    Rejected fourByte = reject(emoji);

    assertThat(threeByte.originalPayload()).matches("€+").hasSize(Rejected.MAX_PAYLOAD_PREFIX_BYTES / 3);
    assertThat(fourByte.originalPayload()).startsWith("x😀").doesNotContain("\uFFFD");
    assertThat(fourByte.originalPayloadBytes().length).isLessThanOrEqualTo(Rejected.MAX_PAYLOAD_PREFIX_BYTES);
    assertThat((fourByte.originalPayloadBytes().length - 1) % 4).isZero();
  }

  @Test
  void shouldCapTheKeyAndSayItWasCut() {
    Rejected rejected = Rejected.of("$: bad", "k".repeat(10_000), null, "payout.requests", 0, 1L, Fixtures.T0);
    Rejected pairAtTheCut = Rejected.of("$: bad", "k".repeat(255) + "😀", null, "payout.requests", 0, 1L, Fixtures.T0);

    assertThat(rejected.originalKey()).hasSize(Rejected.MAX_KEY_CHARS);
    assertThat(rejected.keyTruncated()).isTrue();
    assertThat(pairAtTheCut.originalKey()).hasSize(255);
    assertThat(Fixtures.rejectedText().keyTruncated()).isFalse();
  }

  @Test
  void shouldListTwentyProblemsEscapedAndCountTheRest() {
    List<String> problems = new ArrayList<>();
    for (int i = 0; i < 80_000; i++) {
      problems.add("$.transfers[" + i + "]: required property 'kind' not found");
    }
    problems.set(0, "$.c: bad \r\n\u001b[31m \u202e \ud800 end");

    Rejected rejected = Rejected.of(problems, "7", new byte[] {1}, "payout.requests", 0, 1L, Fixtures.T0);

    assertThat(rejected.problemCount()).isEqualTo(80_000);
    assertThat(rejected.reason()).startsWith("$.c: bad \\u000d\\u000a\\u001b[31m \\u202e \\ud800 end; ")
        .endsWith("; and 79980 more problems")
        .doesNotContainPattern("[\\p{Cntrl}\\u202a-\\u202e\\u2066-\\u2069\\ud800-\\udfff]");
  }

  @Test
  void shouldStayUnderTheCapInTheWorstCaseAndMatchTheSchema() throws Exception {
    Rejected worst = Fixtures.rejectedHostile();

    byte[] written = serialize(worst);
    JsonNode json = Json.mapper().readTree(written);

    assertThat(written.length).isLessThan(Rejected.MAX_SERIALIZED_BYTES);
    assertThat(PayoutRequestValidator.loadSchema(Topics.PAYOUT_REJECTED.schemaResource()).validate(json)).isEmpty();
    assertThat(Topics.PAYOUT_REJECTED.valueSerde().deserializer().deserialize(TOPIC, written)).isEqualTo(worst);
  }

  @Test
  void shouldRefuseToSerializeARejectionAboveTheCap() {
    Rejected huge = new Rejected(Rejected.SCHEMA_VERSION, "x".repeat(Rejected.MAX_SERIALIZED_BYTES), 1, null, false,
        null, false, false, null, null, "payout.requests", 0, 1L, Fixtures.T0);

    assertThatThrownBy(() -> serialize(huge)).isExactlyInstanceOf(SerializationException.class)
        .hasMessageContaining("Refusing to write a Rejected of").hasMessageContaining("the limit is 131072 bytes");
  }
}
