package org.tonpayouts.runtime.wakeup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.embedded.EmbeddedKafkaBroker;
import org.tonpayouts.embedded.SharedTestInfrastructure;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.StreamsProperties;

/**
 * What streams-app's commit hold rests on, on a real broker with exactly-once Kafka Streams built
 * with a {@link WakeableClientSupplier}: a mark taken on the stream thread right after
 * forwarding a record is not committed then; it turns committed with the stream thread's next
 * commit, and the record is read by a read_committed consumer (its transaction committed, it was
 * not aborted). The broker writes the commit markers just after the producer's commit returns, so
 * "committed" may come a moment before the record can be read; the hold only orders work.
 */
class TransactionCommitsBrokerTest {
  @TempDir
  Path stateDir;

  private final EmbeddedKafkaBroker kafka = SharedTestInfrastructure.kafka();

  /** What the processor saw on its stream thread: the mark, and whether it was committed right after forwarding. */
  private record Taken(TransactionCommits.Mark mark, boolean committedAtOnce) {}

  @Test
  void aMarkTakenAfterForwardingTurnsCommittedWithTheCommitThatPublishesTheRecord() throws Exception {
    String in = "commits-in-" + UUID.randomUUID();
    String out = "commits-out-" + UUID.randomUUID();
    kafka.createTopics(Map.of(in, 1, out, 1));
    AtomicReference<Taken> taken = new AtomicReference<>();
    WakeableClientSupplier clients = new WakeableClientSupplier();
    Topology topology = new Topology();
    topology.addSource("in", new StringDeserializer(), new StringDeserializer(), in);
    topology.addProcessor("forward", () -> new Processor<String, String, String, String>() {
      private ProcessorContext<String, String> context;

      @Override
      public void init(ProcessorContext<String, String> context) {
        this.context = context;
      }

      @Override
      public void process(Record<String, String> record) {
        context.forward(record);
        TransactionCommits.Mark mark = clients.threads().commitMark();
        taken.set(new Taken(mark, mark.committed()));
      }
    }, "in");
    topology.addSink("out", out, new StringSerializer(), new StringSerializer(), "forward");

    Properties props = StreamsProperties.base(new PayoutsConfig(Map.of(
        PayoutsConfig.KAFKA_BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers())), "commits-" + UUID.randomUUID());
    props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 500);
    
    try (KafkaStreams streams = new KafkaStreams(topology, props, clients);
        KafkaConsumer<String, String> reader = readCommitted()) {
      streams.start();
      reader.subscribe(List.of(out));
      try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
          ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), new StringSerializer(),
          new StringSerializer())) {
        producer.send(new ProducerRecord<>(in, "w", "settled")).get();
      }

      await().atMost(Duration.ofSeconds(60)).until(() -> taken.get() != null);
      assertThat(taken.get().committedAtOnce()).as("the transaction holding the record is still open").isFalse();
      await().atMost(Duration.ofSeconds(30)).until(() -> taken.get().mark().committed());
      List<String> read = new ArrayList<>();
      await().atMost(Duration.ofSeconds(30)).until(() -> {
        for (ConsumerRecord<String, String> record : reader.poll(Duration.ofMillis(100))) {
          read.add(record.value());
        }
        return !read.isEmpty();
      });
      assertThat(read).containsExactly("settled");
      clients.stayAwake();
    }
  }

  private KafkaConsumer<String, String> readCommitted() {
    return new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
        ConsumerConfig.GROUP_ID_CONFIG, "reader-" + UUID.randomUUID(),
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new StringDeserializer(), new StringDeserializer());
  }
}
