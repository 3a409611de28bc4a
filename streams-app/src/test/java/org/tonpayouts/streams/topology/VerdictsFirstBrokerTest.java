package org.tonpayouts.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.FailOnInvalidTimestamp;
import org.apache.kafka.streams.processor.TimestampExtractor;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.embedded.EmbeddedKafkaBroker;
import org.tonpayouts.embedded.SharedTestInfrastructure;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.StreamsProperties;
import org.tonpayouts.streams.names.TopologyNames;

/**
 * A verdict waiting behind a request backlog, on a real broker with the payout processes' Streams
 * properties: with the topology's two sources as {@link PayoutTopology} declares them the verdict
 * is taken first; and even in plain timestamp order, the bounded fetches of {@link
 * StreamsProperties} let at most one fetch's worth of older requests (64 KB, about 150) go ahead of
 * it, not the backlog (with the consumer's default 1 MB, about 2,400 of these requests did).
 */
class VerdictsFirstBrokerTest {
  private static final int BACKLOG = 3_000;

  @TempDir
  Path stateDir;

  private final EmbeddedKafkaBroker kafka = SharedTestInfrastructure.kafka();

  @Test
  void aVerdictIsTakenBeforeTheRequestsBufferedWithIt() throws Exception {
    assertThat(positionOfTheVerdict(new VerdictsFirst())).as("requests taken before the verdict").isLessThan(50);
  }

  @Test
  void inTimestampOrderAtMostOneBoundedFetchOfRequestsGoesFirst() throws Exception {
    assertThat(positionOfTheVerdict(new FailOnInvalidTimestamp())).as("requests taken before the verdict")
        .isLessThan(BACKLOG / 4);
  }

  /** Queues the backlog, then one verdict; starts the app; returns how many requests it took before the verdict. */
  private int positionOfTheVerdict(TimestampExtractor verdictTime) throws Exception {
    String requests = "requests-" + UUID.randomUUID();
    String verdicts = "verdicts-" + UUID.randomUUID();
    kafka.createTopics(Map.of(requests, 1, verdicts, 1));
    String padding = "x".repeat(400); // about the size of a payout request
    long old = System.currentTimeMillis() - 60_000;
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(), ProducerConfig.ACKS_CONFIG, "all"),
        new StringSerializer(), new StringSerializer())) {
      for (int i = 0; i < BACKLOG; i++) {
        producer.send(new ProducerRecord<>(requests, 0, old + i, "w", "request-" + i + padding));
      }
      producer.send(new ProducerRecord<>(verdicts, 0, System.currentTimeMillis(), "w", "verdict"));
      producer.flush();
    }

    List<String> taken = new CopyOnWriteArrayList<>();
    Topology topology = new Topology();
    topology.addSource(TopologyNames.REQUESTS_SOURCE, new StringDeserializer(), new StringDeserializer(), requests);
    topology.addSource(AutoOffsetReset.earliest(), TopologyNames.CONFIRMATIONS_SOURCE, verdictTime,
        new StringDeserializer(), new StringDeserializer(), verdicts);
    topology.addProcessor("take", () -> new Processor<String, String, Void, Void>() {
      @Override
      public void process(Record<String, String> record) {
        taken.add(record.value().startsWith("verdict") ? "verdict" : "request");
      }
    }, TopologyNames.REQUESTS_SOURCE, TopologyNames.CONFIRMATIONS_SOURCE);

    Properties props = StreamsProperties.base(new PayoutsConfig(Map.of(
        PayoutsConfig.KAFKA_BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers())), "verdicts-first-" + UUID.randomUUID());
    props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.resolve(requests).toString());
    try (KafkaStreams streams = new KafkaStreams(topology, props)) {
      streams.start();
      await().atMost(Duration.ofSeconds(60)).until(() -> taken.size() == BACKLOG + 1);
    }
    return taken.indexOf("verdict");
  }
}
