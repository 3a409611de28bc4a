package org.tonpayouts.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedKafkaBrokerTest {
  private static final Duration DEADLINE = Duration.ofSeconds(30);

  private static EmbeddedKafkaBroker kafka;

  @BeforeAll
  static void startBroker() {
    kafka = SharedTestInfrastructure.kafka();
    System.out.printf("embedded kafka start-up: %d ms%n", kafka.startupTime().toMillis());
  }

  @Test
  void shouldServeOneBrokerOnLoopback() throws Exception {
    assertThat(kafka.bootstrapServers()).isEqualTo("127.0.0.1:" + kafka.port());
    assertThat(kafka.admin().describeCluster().nodes().get()).hasSize(1);
    assertThat(SharedTestInfrastructure.kafka()).isSameAs(kafka);
  }

  @Test
  void shouldSayHowToGetASecureListenerWhenItHasNone() {
    assertThatThrownBy(kafka::secureBootstrapServers).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("saslSslListener(ca)");
  }

  @Test
  void shouldCreateTopicsWithTheirPartitionCounts() throws Exception {
    String a = SharedTestInfrastructure.uniqueName("topic-a");
    String b = SharedTestInfrastructure.uniqueName("topic-b");

    kafka.createTopics(Map.of(a, 3, b, 1));

    var described = kafka.admin().describeTopics(List.of(a, b)).allTopicNames().get();
    assertThat(described.get(a).partitions()).hasSize(3);
    assertThat(described.get(b).partitions()).hasSize(1);
  }

  @Test
  void shouldAcceptAnExistingTopicOnlyWithTheSamePartitionCount() {
    String topic = SharedTestInfrastructure.uniqueName("existing");
    kafka.createTopic(topic, 2);

    kafka.createTopic(topic, 2);

    assertThatThrownBy(() -> kafka.createTopic(topic, 4))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("exists with 2 partitions, wanted 4");
  }

  @Test
  void shouldRoundTripRecords() throws Exception {
    String topic = SharedTestInfrastructure.uniqueName("round-trip");
    kafka.createTopic(topic, 2);

    try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig(kafka))) {
      for (int i = 0; i < 10; i++) {
        producer.send(new ProducerRecord<>(topic, "wallet-" + (i % 3), "payout-" + i)).get();
      }
    }

    List<String> values = consumeValues(kafka, topic, "read_uncommitted", 10);
    assertThat(values).hasSize(10).contains("payout-0", "payout-9");
  }

  @Test
  void shouldShowOnlyCommittedTransactionsToReadCommittedConsumers() {
    String topic = SharedTestInfrastructure.uniqueName("transactions");
    kafka.createTopic(topic, 1);

    Properties config = producerConfig(kafka);
    config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, SharedTestInfrastructure.uniqueName("tx"));
    long started = System.nanoTime();
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(config)) {
      producer.initTransactions();
      producer.beginTransaction();
      producer.send(new ProducerRecord<>(topic, "w1", "committed-1"));
      producer.send(new ProducerRecord<>(topic, "w1", "committed-2"));
      producer.commitTransaction();

      producer.beginTransaction();
      producer.send(new ProducerRecord<>(topic, "w1", "aborted"));
      producer.flush();
      producer.abortTransaction();

      producer.beginTransaction();
      producer.send(new ProducerRecord<>(topic, "w1", "committed-3"));
      producer.commitTransaction();
    }
    System.out.printf(
        "first transactional producer (init + 3 transactions): %d ms%n",
        Duration.ofNanos(System.nanoTime() - started).toMillis());

    assertThat(consumeValues(kafka, topic, "read_committed", 3))
        .containsExactly("committed-1", "committed-2", "committed-3");
    // The aborted record is in the log: only the isolation level hides it.
    assertThat(consumeValues(kafka, topic, "read_uncommitted", 4)).contains("aborted");
  }

  @Test
  void shouldKeepDataInAGivenDirectoryAcrossRestartsOnNewPorts(@TempDir Path dir) {
    String topic = "persistent-payouts";
    int firstPort;
    try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().dataDir(dir).start()) {
      firstPort = broker.port();
      broker.createTopic(topic, 2);
      try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig(broker))) {
        producer.send(new ProducerRecord<>(topic, "w1", "before-restart"));
      }
    }
    assertThat(Files.exists(dir.resolve("logs").resolve("meta.properties"))).isTrue();

    try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().dataDir(dir).start()) {
      assertThat(broker.port()).isNotEqualTo(firstPort);
      broker.createTopic(topic, 2);
      assertThat(consumeValues(broker, topic, "read_committed", 1)).containsExactly("before-restart");
    }
    assertThat(dir).exists();
  }

  @Test
  void shouldDeleteATemporaryDataDirectoryOnClose() {
    EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start();
    Path dir = broker.dataDir();
    assertThat(dir).isDirectory();

    broker.close();
    broker.close();

    assertThat(dir).doesNotExist();
  }

  static Properties producerConfig(EmbeddedKafkaBroker broker) {
    Properties config = new Properties();
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    return config;
  }

  /** Reads from the beginning until {@code expected} values arrived (or the deadline passes). */
  static List<String> consumeValues(
      EmbeddedKafkaBroker broker, String topic, String isolation, int expected) {
    Properties config = new Properties();
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    config.put(ConsumerConfig.GROUP_ID_CONFIG, SharedTestInfrastructure.uniqueName("group"));
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    List<String> values = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
      consumer.subscribe(List.of(topic));
      await()
          .atMost(DEADLINE)
          .until(
              () -> {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(100))) {
                  values.add(record.value());
                }
                return values.size() >= expected;
              });
    }
    return values;
  }
}
