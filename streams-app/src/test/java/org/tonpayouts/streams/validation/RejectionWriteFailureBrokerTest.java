package org.tonpayouts.streams.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.tonpayouts.streams.PayoutTestKit.FIRST_SUBWALLET;
import static org.tonpayouts.streams.PayoutTestKit.TON;
import static org.tonpayouts.streams.PayoutTestKit.json;
import static org.tonpayouts.streams.PayoutTestKit.recipient;
import static org.tonpayouts.streams.PayoutTestKit.request;
import static org.tonpayouts.streams.PayoutTestKit.transfer;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.embedded.EmbeddedKafkaBroker;
import org.tonpayouts.embedded.SharedTestInfrastructure;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.RejectionProductionExceptionHandler;
import org.tonpayouts.runtime.StreamsProperties;
import org.tonpayouts.schemas.JsonSerde;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.PayoutRequestValidator;
import org.tonpayouts.schemas.Rejected;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.streams.metrics.PayoutMetrics;
import org.tonpayouts.streams.names.TopologyNames;

/**
 * The production exception handler on a real broker with exactly-once: a rejection that cannot be
 * written is skipped and counted and the next request of the same partition still goes through;
 * a record for any other topic that cannot be written stops the task.
 *
 * <p>"Cannot be written" is produced the way production would meet it: the rejections' serde caps
 * the value size ({@link JsonSerde#limitedTo}); here the cap is 2 KB instead of
 * {@link Rejected#MAX_SERIALIZED_BYTES}, so a 5 KB garbage value yields a rejection that is too
 * large. (The full pipeline's tests in {@code local} show every real rejection is written and the
 * next request settles.) The topology is the validator with its two ways out, as in the app.
 */
class RejectionWriteFailureBrokerTest {
  private static final String KEY = Long.toString(FIRST_SUBWALLET);

  @TempDir
  Path stateDir;

  private final EmbeddedKafkaBroker kafka = SharedTestInfrastructure.kafka();
  private final PayoutMetrics metrics = PayoutMetrics.inMemory();
  private final AtomicInteger threadDeaths = new AtomicInteger();

  /** Source topic → real validator → payout.rejected (capped at {@code rejectionCap}) and the accepted topic. */
  private Topology topology(String input, String accepted, int rejectionCap, Serializer<PayoutRequest> acceptedValues) {
    PayoutsConfig config = new PayoutsConfig(Map.of());
    Topology topology = new Topology();
    topology.addSource("source", new StringDeserializer(), new ByteArrayDeserializer(), input);
    topology.addProcessor(TopologyNames.REQUEST_VALIDATOR, () -> new RequestValidationProcessor(
        PayoutRequestValidator.shared(), RequestRules.from(config, DestinationPolicy.none()), Clock.systemUTC(), metrics), "source");
    topology.addSink(TopologyNames.REJECTED_SINK, Topics.PAYOUT_REJECTED.name(), new StringSerializer(),
        JsonSerde.of(Rejected.class).limitedTo(rejectionCap), TopologyNames.REQUEST_VALIDATOR);
    topology.addSink(TopologyNames.WALLET_TX, accepted, new StringSerializer(), acceptedValues,
        TopologyNames.REQUEST_VALIDATOR);
    return topology;
  }

  private KafkaStreams start(Topology topology, String applicationId) {
    Map<String, Object> values = Map.of(PayoutsConfig.KAFKA_BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    Properties props = StreamsProperties.base(new PayoutsConfig(values), applicationId, metrics.registry());
    props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    KafkaStreams streams = new KafkaStreams(topology, props);
    streams.setUncaughtExceptionHandler(e -> {
      threadDeaths.incrementAndGet();
      return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
    });
    streams.start();
    return streams;
  }

  private void produce(String topic, List<ProducerRecord<String, byte[]>> records) {
    try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(), ProducerConfig.ACKS_CONFIG, "all"),
        new StringSerializer(), new ByteArraySerializer())) {
      for (ProducerRecord<String, byte[]> record : records) {
        producer.send(record);
      }
      producer.flush();
    }
  }

  /** Every committed record of {@code topic} partition 0 so far. */
  private List<ConsumerRecord<String, byte[]>> readAll(String topic) {
    try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new StringDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions = new ArrayList<>();
      consumer.partitionsFor(topic).forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
      while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
        consumer.poll(Duration.ofMillis(100)).forEach(records::add);
      }
      return records;
    }
  }

  @Test
  void shouldSkipAndCountAnUnwritableRejectionAndLetTheNextRequestOfThePartitionThrough() {
    String run = SharedTestInfrastructure.uniqueName("unwritable");
    String input = run + "-requests";
    String accepted = run + "-accepted";
    kafka.createTopics(Map.of(input, 1, accepted, 1, Topics.PAYOUT_REJECTED.name(), 1));
    byte[] garbage = new byte[5_000];
    Arrays.fill(garbage, (byte) 'x');

    try (KafkaStreams streams = start(topology(input, accepted, 2_000, Topics.PAYOUT_REQUESTS.valueSerde().serializer()),
        run)) {
      produce(input, List.of(
          new ProducerRecord<>(input, KEY, json(request(run + "-before", FIRST_SUBWALLET, transfer("t", recipient(1), TON)))),
          new ProducerRecord<>(input, run + "-too-large", garbage),
          new ProducerRecord<>(input, run + "-small", new byte[] {'x'}),
          new ProducerRecord<>(input, KEY, json(request(run + "-after", FIRST_SUBWALLET, transfer("t", recipient(2), TON))))));

      await("both valid requests passed").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
          .until(() -> readAll(accepted).size() == 2);
      List<String> rejectedKeys = readAll(Topics.PAYOUT_REJECTED.name()).stream().map(ConsumerRecord::key)
          .filter(k -> k != null && k.startsWith(run)).toList();

      assertThat(rejectedKeys).containsExactly(run + "-small");
      assertThat(metrics.count(RejectionProductionExceptionHandler.DROPPED_METRIC)).isEqualTo(1.0);
      assertThat(metrics.count("payout.requests.rejected")).isEqualTo(2.0);
      assertThat(threadDeaths).hasValue(0);
      assertThat(streams.state()).isEqualTo(KafkaStreams.State.RUNNING);
    }
  }

  @Test
  void shouldStopTheTaskWhenAnythingButARejectionCannotBeWritten() {
    String run = SharedTestInfrastructure.uniqueName("unwritable-accepted");
    String input = run + "-requests";
    String accepted = run + "-accepted";
    kafka.createTopics(Map.of(input, 1, accepted, 1, Topics.PAYOUT_REJECTED.name(), 1));
    Serializer<PayoutRequest> failing = (topic, request) -> {
      throw new SerializationException("simulated: " + request.requestId() + " cannot be written");
    };

    try (KafkaStreams streams = start(topology(input, accepted, Rejected.MAX_SERIALIZED_BYTES, failing), run)) {
      produce(input, List.of(new ProducerRecord<>(input, KEY,
          json(request(run + "-paid", FIRST_SUBWALLET, transfer("t", recipient(1), TON))))));

      await("the client stopped").atMost(Duration.ofSeconds(60))
          .until(() -> streams.state() == KafkaStreams.State.ERROR);
      assertThat(threadDeaths).hasValue(1);
      assertThat(metrics.count(RejectionProductionExceptionHandler.DROPPED_METRIC)).isZero();
      assertThat(readAll(accepted)).isEmpty();
    }
  }
}
