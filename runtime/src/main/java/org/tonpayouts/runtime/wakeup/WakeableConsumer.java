package org.tonpayouts.runtime.wakeup;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.clients.consumer.SubscriptionPattern;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.metrics.KafkaMetric;

/**
 * A stream thread's main consumer that another thread can wake: {@link #wake()} ends the poll the
 * stream thread waits in (or makes its next poll return at once), so the thread runs its loop and
 * its punctuations now. The payout processors hand work to I/O threads and apply the results on the
 * stream thread; without a wake-up the results waited for the poll to time out, which forced a
 * 5 ms {@code poll.ms} and a stream thread that woke 200 times a second with nothing to do.
 *
 * <p>While the thread is busy (records came, or it was woken, within {@link #ACTIVE_FOR}) it polls
 * for at most {@link #ACTIVE_POLL}: Kafka Streams commits and punctuates only between polls, so a
 * long poll right after a record was forwarded would hold that record's commit (and every hop
 * downstream) for up to {@code poll.ms}. While a processor keeps a pace ({@link #keepPace}, for a
 * wall-clock punctuation that must fire on time) it polls for at most that pace. At rest it waits
 * the full {@code poll.ms}, and once its Kafka Streams closes ({@link #stayAwake()}) never long,
 * so the thread sees the close at once.
 *
 * <p>It wakes with {@link Consumer#wakeup()}, whose {@link WakeupException} this wrapper keeps from
 * Kafka Streams: a poll that is woken returns no records, and every other call that could meet a
 * wake-up meant for a poll that already ended is made again. Everything else is the wrapped
 * consumer's own behaviour.
 */
final class WakeableConsumer implements Consumer<byte[], byte[]> {
  /** How long after records or a wake-up the thread counts as busy. */
  static final Duration ACTIVE_FOR = Duration.ofMillis(500);
  /** The longest poll of a busy thread: well within a commit interval. */
  static final Duration ACTIVE_POLL = Duration.ofMillis(5);
  /** How long after a rebalance callback the thread counts as busy (it is setting up its tasks). */
  static final Duration SETTLING_FOR = Duration.ofSeconds(10);

  private final Consumer<byte[], byte[]> delegate;
  private final AtomicBoolean wakeRequested = new AtomicBoolean();
  private volatile boolean polling;
  private volatile Thread pollingThread;
  private volatile long busyUntilNanos = System.nanoTime();
  private volatile boolean awake;
  /** Paces the stream thread's processors keep, by hold; made, released and read on the stream thread. */
  private final Map<Object, Long> paceNanos = new ConcurrentHashMap<>();

  WakeableConsumer(Consumer<byte[], byte[]> delegate) {
    this.delegate = delegate;
  }

  /** Ends the poll the stream thread waits in, or makes its next poll return at once. Any thread. */
  void wake() {
    busyFor(ACTIVE_FOR);
    wakeRequested.set(true);
    if (polling) {
      delegate.wakeup();
    }
  }

  /** Polls for at most {@code every} until the returned release runs. The stream thread's processors only. */
  Runnable keepPace(Duration every) {
    Object hold = new Object();
    paceNanos.put(hold, every.toNanos());
    return () -> paceNanos.remove(hold);
  }

  /** From now on polls short and ends the current poll: the Kafka Streams instance is closing. Any thread. */
  void stayAwake() {
    awake = true;
    wake();
  }

  /** How long the next poll may wait, at most {@code timeout} (Kafka Streams' {@code poll.ms}). */
  private Duration pollWait(Duration timeout) {
    if (wakeRequested.getAndSet(false)) {
      return Duration.ZERO; // a wake-up asked for before this poll began (or while the last one was returning)
    }
    long limit = timeout.toNanos();
    if (awake || System.nanoTime() - busyUntilNanos < 0) {
      limit = Math.min(limit, ACTIVE_POLL.toNanos());
    }
    for (long pace : paceNanos.values()) {
      limit = Math.min(limit, Math.max(pace, ACTIVE_POLL.toNanos())); // never shorter than a busy thread's
    }
    return limit == timeout.toNanos() ? timeout : Duration.ofNanos(limit);
  }

  /**
   * The listener, with each rebalance callback making the thread busy for {@link #SETTLING_FOR}: it
   * sets up its new tasks over several loops (restoration, then running), each waiting for a poll.
   */
  private ConsumerRebalanceListener settling(ConsumerRebalanceListener listener) {
    return new ConsumerRebalanceListener() {
      @Override
      public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        settle();
        listener.onPartitionsRevoked(partitions);
      }

      @Override
      public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        settle();
        listener.onPartitionsAssigned(partitions);
      }

      @Override
      public void onPartitionsLost(Collection<TopicPartition> partitions) {
        settle();
        listener.onPartitionsLost(partitions);
      }
    };
  }

  private void settle() {
    busyFor(SETTLING_FOR);
  }

  /**
   * Counts the thread busy for at least {@code period} from now; never shortens a longer period
   * (records right after a rebalance do not end its settling). Two threads racing here can lose one
   * extension: the cost is a longer poll, never a lost wake-up.
   */
  private void busyFor(Duration period) {
    long until = System.nanoTime() + period.toNanos();
    if (until - busyUntilNanos > 0) {
      busyUntilNanos = until;
    }
  }

  /** The thread that polls this consumer (its stream thread), once it polled. */
  Thread pollingThread() {
    return pollingThread;
  }

  @Override
  public ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
    if (pollingThread == null) {
      pollingThread = Thread.currentThread();
      StreamThreadWakeups.register(this);
    }
    polling = true;
    try {
      ConsumerRecords<byte[], byte[]> records = delegate.poll(pollWait(timeout));
      if (!records.isEmpty()) {
        busyFor(ACTIVE_FOR);
      }
      return records;
    } catch (WakeupException e) {
      wakeRequested.set(false);
      return ConsumerRecords.empty();
    } finally {
      polling = false;
    }
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
  public void wakeup() {
    delegate.wakeup();
  }

  @Override
  public void close() {
    StreamThreadWakeups.unregister(this);
    delegate.close();
  }

  @Override
  public void close(Duration timeout) {
    StreamThreadWakeups.unregister(this);
    delegate.close(timeout);
  }

  @Override
  public void close(CloseOptions option) {
    StreamThreadWakeups.unregister(this);
    delegate.close(option);
  }

  // ---- blocking calls: made again after a stray wake-up ------------------------------------------

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

  // ---- the rest: as the wrapped consumer ------------------------------------------------------------

  @Override
  public Set<TopicPartition> assignment() {
    return delegate.assignment();
  }

  @Override
  public Set<String> subscription() {
    return delegate.subscription();
  }

  @Override
  public void subscribe(Collection<String> topics) {
    delegate.subscribe(topics);
  }

  @Override
  public void subscribe(Collection<String> topics, ConsumerRebalanceListener listener) {
    delegate.subscribe(topics, settling(listener));
  }

  @Override
  public void assign(Collection<TopicPartition> partitions) {
    delegate.assign(partitions);
  }

  @Override
  public void subscribe(Pattern pattern, ConsumerRebalanceListener listener) {
    delegate.subscribe(pattern, settling(listener));
  }

  @Override
  public void subscribe(Pattern pattern) {
    delegate.subscribe(pattern);
  }

  @Override
  public void subscribe(SubscriptionPattern pattern, ConsumerRebalanceListener listener) {
    delegate.subscribe(pattern, settling(listener));
  }

  @Override
  public void subscribe(SubscriptionPattern pattern) {
    delegate.subscribe(pattern);
  }

  @Override
  public void unsubscribe() {
    delegate.unsubscribe();
  }

  @Override
  public void commitAsync() {
    delegate.commitAsync();
  }

  @Override
  public void commitAsync(OffsetCommitCallback callback) {
    delegate.commitAsync(callback);
  }

  @Override
  public void commitAsync(Map<TopicPartition, OffsetAndMetadata> offsets, OffsetCommitCallback callback) {
    delegate.commitAsync(offsets, callback);
  }

  @Override
  public void registerMetricForSubscription(KafkaMetric metric) {
    delegate.registerMetricForSubscription(metric);
  }

  @Override
  public void unregisterMetricFromSubscription(KafkaMetric metric) {
    delegate.unregisterMetricFromSubscription(metric);
  }

  @Override
  public void seek(TopicPartition partition, long offset) {
    delegate.seek(partition, offset);
  }

  @Override
  public void seek(TopicPartition partition, OffsetAndMetadata offsetAndMetadata) {
    delegate.seek(partition, offsetAndMetadata);
  }

  @Override
  public void seekToBeginning(Collection<TopicPartition> partitions) {
    delegate.seekToBeginning(partitions);
  }

  @Override
  public void seekToEnd(Collection<TopicPartition> partitions) {
    delegate.seekToEnd(partitions);
  }

  @Override
  public Map<MetricName, ? extends Metric> metrics() {
    return delegate.metrics();
  }

  @Override
  public Set<TopicPartition> paused() {
    return delegate.paused();
  }

  @Override
  public void pause(Collection<TopicPartition> partitions) {
    delegate.pause(partitions);
  }

  @Override
  public void resume(Collection<TopicPartition> partitions) {
    delegate.resume(partitions);
  }

  @Override
  public OptionalLong currentLag(TopicPartition partition) {
    return delegate.currentLag(partition);
  }

  @Override
  public ConsumerGroupMetadata groupMetadata() {
    return delegate.groupMetadata();
  }

  @Override
  public void enforceRebalance() {
    delegate.enforceRebalance();
  }

  @Override
  public void enforceRebalance(String reason) {
    delegate.enforceRebalance(reason);
  }
}
