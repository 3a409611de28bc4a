package org.tonpayouts.runtime.wakeup;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.WakeupException;

/**
 * A consumer whose blocking calls (other than {@code poll}) are made once more when they meet a
 * {@link WakeupException}. {@link WakeableConsumer} wakes a stream thread with {@link
 * Consumer#wakeup()}, which a poll that has just returned no longer takes: the consumer keeps the
 * wake-up for its next blocking call (a commit, a position), which would throw it into Kafka
 * Streams. Made again, that call runs normally, the wake-up spent. A poll's wake-up goes through
 * untouched: ending the poll is what it is for.
 */
final class StrayWakeupRetries<K, V> extends DelegatingConsumer<K, V> {

  StrayWakeupRetries(Consumer<K, V> delegate) {
    super(delegate);
  }

  /** Runs a call that may meet a wake-up meant for a poll that already returned: once more, then it is spent. */
  private static <T> T unwoken(Supplier<T> call) {
    try {
      return call.get();
    } catch (WakeupException e) {
      return call.get();
    }
  }

  private static void unwoken(Runnable call) {
    unwoken(() -> {
      call.run();
      return null;
    });
  }

  @Override
  public void commitSync() {
    unwoken(() -> delegate.commitSync());
  }

  @Override
  public void commitSync(Duration timeout) {
    unwoken(() -> delegate.commitSync(timeout));
  }

  @Override
  public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets) {
    unwoken(() -> delegate.commitSync(offsets));
  }

  @Override
  public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
    unwoken(() -> delegate.commitSync(offsets, timeout));
  }

  @Override
  public long position(TopicPartition partition) {
    return unwoken(() -> delegate.position(partition));
  }

  @Override
  public long position(TopicPartition partition, Duration timeout) {
    return unwoken(() -> delegate.position(partition, timeout));
  }

  @Override
  public Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions) {
    return unwoken(() -> delegate.committed(partitions));
  }

  @Override
  public Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions, Duration timeout) {
    return unwoken(() -> delegate.committed(partitions, timeout));
  }

  @Override
  public Uuid clientInstanceId(Duration timeout) {
    return unwoken(() -> delegate.clientInstanceId(timeout));
  }

  @Override
  public List<PartitionInfo> partitionsFor(String topic) {
    return unwoken(() -> delegate.partitionsFor(topic));
  }

  @Override
  public List<PartitionInfo> partitionsFor(String topic, Duration timeout) {
    return unwoken(() -> delegate.partitionsFor(topic, timeout));
  }

  @Override
  public Map<String, List<PartitionInfo>> listTopics() {
    return unwoken(() -> delegate.listTopics());
  }

  @Override
  public Map<String, List<PartitionInfo>> listTopics(Duration timeout) {
    return unwoken(() -> delegate.listTopics(timeout));
  }

  @Override
  public Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> timestamps) {
    return unwoken(() -> delegate.offsetsForTimes(timestamps));
  }

  @Override
  public Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> timestamps,
      Duration timeout) {
    return unwoken(() -> delegate.offsetsForTimes(timestamps, timeout));
  }

  @Override
  public Map<TopicPartition, Long> beginningOffsets(Collection<TopicPartition> partitions) {
    return unwoken(() -> delegate.beginningOffsets(partitions));
  }

  @Override
  public Map<TopicPartition, Long> beginningOffsets(Collection<TopicPartition> partitions, Duration timeout) {
    return unwoken(() -> delegate.beginningOffsets(partitions, timeout));
  }

  @Override
  public Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions) {
    return unwoken(() -> delegate.endOffsets(partitions));
  }

  @Override
  public Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions, Duration timeout) {
    return unwoken(() -> delegate.endOffsets(partitions, timeout));
  }
}
