package org.tonpayouts.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.LongSerializer;

/**
 * Commits transactions of {@value #BATCH} records numbered 0, 1, 2, ... on a thread of its own,
 * as a transactional application does: a commit that timed out is retried (its outcome is
 * unknown), any other abortable error aborts and the same numbers are written again, so the
 * committed values are exactly 0 to {@link #committed} - 1.
 */
final class TransactionalWriter implements AutoCloseable {
  private static final Duration DEADLINE = Duration.ofSeconds(45);
  private static final int BATCH = 5;
  private static final AtomicInteger IDS = new AtomicInteger();

  private final KafkaProducer<Long, Long> producer;
  private final AtomicLong committed = new AtomicLong();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final Thread thread;
  private volatile boolean running = true;
  private int aborts;

  private TransactionalWriter(KafkaProducer<Long, Long> producer, String topic) {
    this.producer = producer;
    this.thread = new Thread(() -> run(topic), "transactional-writer-" + topic);
  }

  static TransactionalWriter start(EmbeddedKafkaCluster cluster, String topic) {
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
    props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "writer-" + topic + "-" + IDS.incrementAndGet());
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, LongSerializer.class);
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, LongSerializer.class);
    props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000);
    KafkaProducer<Long, Long> producer = new KafkaProducer<>(props);
    producer.initTransactions();
    TransactionalWriter writer = new TransactionalWriter(producer, topic);
    writer.thread.setDaemon(true);
    writer.thread.start();
    return writer;
  }

  private void run(String topic) {
    try {
      while (running) {
        long next = committed.get();
        producer.beginTransaction();
        for (long value = next; value < next + BATCH; value++) {
          producer.send(new ProducerRecord<>(topic, value, value));
        }
        try {
          commit();
          committed.set(next + BATCH);
        } catch (ProducerFencedException | OutOfOrderSequenceException | AuthorizationException e) {
          throw e; // fatal: the test fails on it
        } catch (KafkaException e) {
          aborts++;
          abort();
        }
      }
    } catch (Throwable e) {
      failure.set(e);
    }
  }

  private void commit() {
    while (true) {
      try {
        producer.commitTransaction();
        return;
      } catch (TimeoutException e) {
        // the outcome is unknown: committing again completes (or reports) that same transaction
      }
    }
  }

  private void abort() {
    while (true) {
      try {
        producer.abortTransaction();
        return;
      } catch (TimeoutException e) {
        // as for the commit: retry the same abort
      }
    }
  }

  void awaitCommitted(long atLeast) {
    await().atMost(DEADLINE).until(() -> {
      assertThat(failure.get()).isNull();
      return committed.get() >= atLeast;
    });
  }

  /** Waits until {@code records} more are committed than now. */
  void awaitProgress(long records) {
    awaitCommitted(committed.get() + records);
  }

  /** Finishes the transaction in flight and returns how many records were committed. */
  long stop() {
    running = false;
    try {
      thread.join(DEADLINE.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted stopping the writer", e);
    }
    assertThat(thread.isAlive()).as("writer still running after %s", DEADLINE).isFalse();
    assertThat(failure.get()).isNull();
    System.out.printf("transactional writer: committed=%d aborts=%d%n", committed.get(), aborts);
    return committed.get();
  }

  @Override
  public void close() {
    running = false;
    producer.close(Duration.ofSeconds(5));
  }

  /** Every committed value of the one-partition topic, in order; an aborted one would be skipped. */
  static List<Long> readCommitted(String bootstrapServers, String topic) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, LongDeserializer.class);
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, LongDeserializer.class);
    TopicPartition partition = new TopicPartition(topic, 0);
    List<Long> values = new ArrayList<>();
    try (KafkaConsumer<Long, Long> consumer = new KafkaConsumer<>(props)) {
      consumer.assign(List.of(partition));
      consumer.seekToBeginning(List.of(partition));
      // the writer has finished, so no transaction is open and the end offset is final
      long end = consumer.endOffsets(List.of(partition)).get(partition);
      await().atMost(DEADLINE).until(() -> {
        for (ConsumerRecord<Long, Long> record : consumer.poll(Duration.ofMillis(200))) {
          values.add(record.value());
        }
        return consumer.position(partition) >= end;
      });
    }
    return values;
  }
}
