package org.tonpayouts.streams.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tonpayouts.streams.PayoutTestKit.FIRST_SUBWALLET;
import static org.tonpayouts.streams.PayoutTestKit.TON;
import static org.tonpayouts.streams.PayoutTestKit.json;
import static org.tonpayouts.streams.PayoutTestKit.recipient;
import static org.tonpayouts.streams.PayoutTestKit.request;
import static org.tonpayouts.streams.PayoutTestKit.transfer;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.StreamsProperties;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.PayoutRequestValidator;
import org.tonpayouts.schemas.Rejected;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.streams.metrics.PayoutMetrics;
import org.tonpayouts.streams.names.TopologyNames;

/**
 * The validator with its two ways out in a TopologyTestDriver (the broker tests are
 * {@link RejectionWriteFailureBrokerTest} and, for the whole pipeline, {@code HostileInputPipelineTest}).
 */
class RequestValidationProcessorTest {
  private static final Instant NOW = Instant.parse("2026-11-21T12:00:00Z");
  private static final String ACCEPTED = "accepted";
  private static final String KEY = Long.toString(FIRST_SUBWALLET);

  private final PayoutMetrics metrics = PayoutMetrics.inMemory();
  private TopologyTestDriver driver;
  private TestInputTopic<String, byte[]> requests;
  private TestOutputTopic<String, Rejected> rejected;
  private TestOutputTopic<String, PayoutRequest> accepted;

  @BeforeEach
  void startDriver() {
    PayoutsConfig config = new PayoutsConfig(Map.of());
    Topology topology = new Topology();
    topology.addSource("source", new StringDeserializer(), new ByteArrayDeserializer(), Topics.PAYOUT_REQUESTS.name());
    topology.addProcessor(TopologyNames.REQUEST_VALIDATOR, () -> new RequestValidationProcessor(
        PayoutRequestValidator.shared(), RequestRules.from(config, DestinationPolicy.none()), Clock.fixed(NOW, ZoneOffset.UTC), metrics), "source");
    topology.addSink(TopologyNames.REJECTED_SINK, Topics.PAYOUT_REJECTED.name(), new StringSerializer(),
        Topics.PAYOUT_REJECTED.valueSerde().serializer(), TopologyNames.REQUEST_VALIDATOR);
    topology.addSink(TopologyNames.WALLET_TX, ACCEPTED, new StringSerializer(),
        Topics.PAYOUT_REQUESTS.valueSerde().serializer(), TopologyNames.REQUEST_VALIDATOR);
    Properties props = StreamsProperties.base(config, "validator-test");
    driver = new TopologyTestDriver(topology, props, NOW);
    requests = driver.createInputTopic(Topics.PAYOUT_REQUESTS.name(), new StringSerializer(), new ByteArraySerializer());
    rejected = driver.createOutputTopic(Topics.PAYOUT_REJECTED.name(), new StringDeserializer(),
        Topics.PAYOUT_REJECTED.valueSerde().deserializer());
    accepted = driver.createOutputTopic(ACCEPTED, new StringDeserializer(), Topics.PAYOUT_REQUESTS.valueSerde().deserializer());
  }

  @AfterEach
  void closeDriver() {
    driver.close();
  }

  @Test
  void shouldForwardAValidRequestAndRejectTheRestWithBoundedRecords() {
    byte[] megabyte = new byte[1 << 20];
    Arrays.fill(megabyte, (byte) 0x01);
    requests.pipeInput("k".repeat(10_000), megabyte);
    requests.pipeInput(null, json(request("no-key", FIRST_SUBWALLET, transfer("t", recipient(1), TON))));
    requests.pipeInput(KEY, json(request("good", FIRST_SUBWALLET, transfer("t", recipient(1), TON))));

    List<TestRecord<String, Rejected>> refused = rejected.readRecordsToList();
    assertThat(accepted.readValuesToList()).extracting(PayoutRequest::requestId).containsExactly("good");
    assertThat(refused).hasSize(2);
    TestRecord<String, Rejected> big = refused.get(0);
    assertThat(big.key()).isEqualTo("k".repeat(Rejected.MAX_KEY_CHARS)).isEqualTo(big.value().originalKey());
    assertThat(big.value().keyTruncated()).isTrue();
    assertThat(big.value().payloadTruncated()).isTrue();
    assertThat(big.value().payloadLength()).isEqualTo(1 << 20);
    assertThat(big.value().offset()).isZero();
    assertThat(big.value().rejectedAt()).isEqualTo(NOW);
    assertThat(refused.get(1).key()).isNull();
    assertThat(refused.get(1).value().reason()).startsWith("record key: no key;");
    assertThat(metrics.count("payout.requests.rejected")).isEqualTo(2.0);
  }
}
