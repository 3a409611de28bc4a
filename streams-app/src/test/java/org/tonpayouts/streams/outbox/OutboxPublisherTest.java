package org.tonpayouts.streams.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.tonpayouts.embedded.EmbeddedKafkaBroker;
import org.tonpayouts.embedded.EmbeddedPostgresServer;
import org.tonpayouts.embedded.SharedTestInfrastructure;
import org.tonpayouts.schemas.AuditRecord;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.metrics.PayoutMetrics;

/**
 * The outbox publisher against a Kafka that is away, then a real one: nothing is marked while
 * Kafka does not acknowledge (the failure is counted), and once it does every audit row reaches
 * {@code payout.audit} with its id, keyed by its wallet, counted by level and event.
 */
class OutboxPublisherTest {
  private static HikariDataSource db;
  private static Ledger ledger;

  @BeforeAll
  static void database() {
    EmbeddedPostgresServer postgres = SharedTestInfrastructure.postgres();
    SharedTestInfrastructure.createDatabase(OutboxPublisherTest.class);
    db = Ledger.pooledDataSource(postgres.jdbcUrl(SharedTestInfrastructure.databaseName(OutboxPublisherTest.class)),
        postgres.user(), postgres.password(), 2);
    Ledger.migrate(db);
    ledger = new Ledger(db, Clock.systemUTC());
  }

  @AfterAll
  static void close() {
    db.close();
  }

  @Test
  void shouldKeepRowsWhileKafkaIsAwayAndPublishThemOnceItAnswers() {
    long subwallet = 698_983_191L + 77;
    AuditEvent mismatch = ledger.audit().record(AuditEvent.aboutWallet(subwallet, "0:" + "3c".repeat(32), 4L,
        AuditEvent.Level.ERROR, AuditEvent.Type.SEQNO_MISMATCH, "expected seqno 4, observed 5"));
    AuditEvent bounce = ledger.audit().record(new AuditEvent(0, null, AuditEvent.Level.WARNING, AuditEvent.Type.BOUNCE,
        null, null, "req-x", "t", null, null, null, "payout bounced back"));
    PayoutMetrics metrics = PayoutMetrics.inMemory();

    try (OutboxPublisher away = new OutboxPublisher(ledger, new KafkaProducer<>(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1", ProducerConfig.MAX_BLOCK_MS_CONFIG, 500,
        ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 1_000, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 500),
        new StringSerializer(), new ByteArraySerializer()), metrics, Duration.ofSeconds(60))) {
      assertThat(away.publishAll()).as("nothing published while the broker is away").isZero();
    }
    assertThat(metrics.count("payout.outbox.failures")).isEqualTo(1.0);
    assertThat(ledger.auditOutbox().unpublished()).isEqualTo(2);

    EmbeddedKafkaBroker kafka = SharedTestInfrastructure.kafka();
    if (!kafka.admin().listTopics().names().toCompletionStage().toCompletableFuture().join()
        .contains(Topics.PAYOUT_AUDIT.name())) {
      kafka.createTopic(Topics.PAYOUT_AUDIT.name(), 1);
    }
    try (OutboxPublisher publisher = new OutboxPublisher(ledger,
        OutboxPublisher.producer(kafka.bootstrapServers(), "outbox-test"), metrics, Duration.ofSeconds(60))) {
      assertThat(publisher.publishAll()).isEqualTo(2);
      assertThat(publisher.publishAll()).as("a second run finds nothing left").isZero();
    }

    assertThat(ledger.auditOutbox().unpublished()).isZero();
    Map<Long, ConsumerRecord<String, byte[]>> published = new java.util.HashMap<>();
    for (ConsumerRecord<String, byte[]> r : readAll(kafka.bootstrapServers())) {
      AuditRecord a = Topics.PAYOUT_AUDIT.valueSerde().deserializer().deserialize(r.topic(), r.value());
      published.put(a.auditId(), r);
    }
    assertThat(published).containsKeys(mismatch.id(), bounce.id());
    assertThat(published.get(mismatch.id()).key()).isEqualTo(Long.toString(subwallet));
    assertThat(published.get(bounce.id()).key()).isNull();
    assertThat(published.get(mismatch.id()).timestamp()).isEqualTo(mismatch.at().toEpochMilli());
    assertThat(metrics.registry().find("payout.audit.events").tag("level", "ERROR").tag("event", "SEQNO_MISMATCH")
        .counter().count()).isEqualTo(1.0);
    assertThat(metrics.registry().find("payout.audit.events").tag("level", "WARNING").tag("event", "BOUNCE")
        .counter().count()).isEqualTo(1.0);
  }

  private static List<ConsumerRecord<String, byte[]>> readAll(String bootstrap) {
    try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
        new StringDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions = consumer.partitionsFor(Topics.PAYOUT_AUDIT.name()).stream()
          .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
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
  void emptyOutboxesArePolledLessOftenUpToFiveIntervals() {
    Duration interval = Duration.ofMillis(200);
    Duration wait = interval;
    List<Long> waits = new ArrayList<>();
    for (int run = 0; run < 5; run++) {
      wait = OutboxPublisher.nextIdleWait(wait, interval);
      waits.add(wait.toMillis());
    }
    assertThat(waits).containsExactly(400L, 800L, 1000L, 1000L, 1000L);
  }
}
