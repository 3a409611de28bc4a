package org.tonpayouts.runtime.wakeup;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.SubscriptionPattern;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

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
 * Kafka Streams: a poll that is woken returns no records, and the consumer it wraps ({@link
 * StrayWakeupRetries}) makes every other call that meets a wake-up meant for a poll that already
 * ended again. The consumer registers with its instance's {@link StreamThreads} under the thread
 * that polls it, so that thread's processors can find it. Every other call is the wrapped
 * consumer's own ({@link DelegatingConsumer}).
 */
final class WakeableConsumer extends DelegatingConsumer<byte[], byte[]> {
  /** How long after records or a wake-up the thread counts as busy. */
  static final Duration ACTIVE_FOR = Duration.ofMillis(500);
  /** The longest poll of a busy thread: well within a commit interval. */
  static final Duration ACTIVE_POLL = Duration.ofMillis(5);
  /** How long after a rebalance callback the thread counts as busy (it is setting up its tasks). */
  static final Duration SETTLING_FOR = Duration.ofSeconds(10);

  private final StreamThreads threads;
  private final AtomicBoolean wakeRequested = new AtomicBoolean();
  private volatile boolean polling;
  private volatile Thread pollingThread;
  private volatile long busyUntilNanos = System.nanoTime();
  private volatile boolean awake;
  /** Paces the stream thread's processors keep, by hold; made, released and read on the stream thread. */
  private final Map<Object, Long> paceNanos = new ConcurrentHashMap<>();

  /**
   * @param delegate the consumer to wake, its other blocking calls guarded against a wake-up that
   *     missed its poll ({@link StrayWakeupRetries})
   * @param threads where the consumer registers under its stream thread on its first poll
   */
  WakeableConsumer(Consumer<byte[], byte[]> delegate, StreamThreads threads) {
    super(new StrayWakeupRetries<>(delegate));
    this.threads = java.util.Objects.requireNonNull(threads, "threads");
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
      threads.register(this);
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

  @Override
  public void close() {
    threads.unregister(this);
    delegate.close();
  }

  @Override
  public void close(Duration timeout) {
    threads.unregister(this);
    delegate.close(timeout);
  }

  @Override
  public void close(CloseOptions option) {
    threads.unregister(this);
    delegate.close(option);
  }

  // ---- a rebalance keeps the thread busy while it sets up its tasks -------------------------------

  @Override
  public void subscribe(Collection<String> topics, ConsumerRebalanceListener listener) {
    delegate.subscribe(topics, settling(listener));
  }

  @Override
  public void subscribe(Pattern pattern, ConsumerRebalanceListener listener) {
    delegate.subscribe(pattern, settling(listener));
  }

  @Override
  public void subscribe(SubscriptionPattern pattern, ConsumerRebalanceListener listener) {
    delegate.subscribe(pattern, settling(listener));
  }
}
