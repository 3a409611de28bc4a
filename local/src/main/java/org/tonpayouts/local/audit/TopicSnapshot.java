package org.tonpayouts.local.audit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.tonpayouts.schemas.Topic;

/**
 * Everything committed to a topic up to now, read once from the beginning as a downstream
 * consumer would ({@code read_committed}): what an auditor checks a topic against.
 */
public final class TopicSnapshot {
  private static final Duration POLL = Duration.ofMillis(200);

  private TopicSnapshot() {}

  /**
   * Reads every partition of {@code topic} up to its last stable offset at the time of the call.
   *
   * @throws IllegalStateException when the end is not reached within {@code timeout}
   */
  public static <K, V> List<V> read(String bootstrapServers, Topic<K, V> topic, Duration timeout) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString().toLowerCase());
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.CLIENT_ID_CONFIG, "payouts-soak-audit-" + topic.name());
    try (KafkaConsumer<K, V> consumer = new KafkaConsumer<>(props, topic.keySerde().deserializer(),
        topic.valueSerde().deserializer())) {
      List<TopicPartition> partitions = consumer.partitionsFor(topic.name()).stream()
          .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      List<V> values = new ArrayList<>();
      long deadline = System.nanoTime() + timeout.toNanos();
      while (!reached(consumer, end)) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("could not read " + topic.name() + " to its end within " + timeout);
        }
        for (ConsumerRecord<K, V> record : consumer.poll(POLL)) {
          if (record.value() != null) {
            values.add(record.value());
          }
        }
      }
      return values;
    }
  }

  private static boolean reached(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
    return end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
  }
}
