package org.tonpayouts.local;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.tonpayouts.schemas.Rejected;
import org.tonpayouts.schemas.Topics;

/**
 * Reads {@code payout.rejected} as a producer team would (read_committed, from the beginning) on a
 * background thread and files every rejection under the input it refers to (source partition and
 * offset), with the size the record had on the topic.
 */
final class RejectionWatcher implements AutoCloseable {
  /** One rejection as it sat on the topic. */
  record Seen(String recordKey, Rejected rejected, int recordBytes) {}

  /** Where an input was written: its partition and offset on {@code payout.requests}. */
  record Source(int partition, long offset) {}

  private final KafkaConsumer<String, byte[]> consumer;
  private final Thread thread;
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final Map<Source, List<Seen>> bySource = new ConcurrentHashMap<>();
  private volatile Throwable failure;

  private RejectionWatcher(KafkaConsumer<String, byte[]> consumer) {
    this.consumer = consumer;
    this.thread = new Thread(this::run, "rejection-watcher");
    thread.setDaemon(true);
  }

  static RejectionWatcher start(String bootstrapServers) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10);
    KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
    List<TopicPartition> partitions = new ArrayList<>();
    consumer.partitionsFor(Topics.PAYOUT_REJECTED.name())
        .forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    RejectionWatcher watcher = new RejectionWatcher(consumer);
    watcher.thread.start();
    return watcher;
  }

  private void run() {
    try {
      while (running.get()) {
        for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(100))) {
          Rejected rejected = Topics.PAYOUT_REJECTED.valueSerde().deserializer().deserialize(record.topic(), record.value());
          int bytes = Math.max(0, record.serializedKeySize()) + Math.max(0, record.serializedValueSize());
          bySource.computeIfAbsent(new Source(rejected.partition(), rejected.offset()), s -> new CopyOnWriteArrayList<>())
              .add(new Seen(record.key(), rejected, bytes));
        }
      }
    } catch (WakeupException e) {
      // close() asked us to stop
    } catch (RuntimeException e) {
      failure = e;
    } finally {
      consumer.close(Duration.ofSeconds(5));
    }
  }

  /** Every rejection seen of the input at {@code source}. */
  List<Seen> rejections(Source source) {
    return List.copyOf(bySource.getOrDefault(source, List.of()));
  }

  /** How many of {@code sources} have at least one rejection. */
  long rejectedCount(List<Source> sources) {
    return sources.stream().filter(bySource::containsKey).count();
  }

  Throwable failure() {
    return failure;
  }

  @Override
  public void close() {
    if (running.compareAndSet(true, false)) {
      consumer.wakeup();
      try {
        thread.join(Duration.ofSeconds(10).toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
