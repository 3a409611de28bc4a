package org.tonpayouts.runtime.wakeup;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The stream threads of one Kafka Streams instance as its processors reach them from their own
 * thread: the thread's {@linkplain #wakerOfCurrentThread() waker} (its main consumer, a {@link
 * WakeableConsumer}) and how far its transactions have {@linkplain #commitMark() committed}
 * (counted by its {@link CommitCountingProducer}). One per instance, made by its {@link
 * WakeableClientSupplier} and handed to its processors through the topology's wiring; a processor
 * calls it on its stream thread (in {@code init}, after a forward). A thread with neither (a
 * TopologyTestDriver's, or any thread of {@link #none()}) gets a waker that does nothing and marks
 * committed at once, so the processor finds its results on its next loop, as without wake-ups.
 */
public final class StreamThreads {
  /** Each stream thread's main consumer, registered on its first poll (the thread is known then). */
  private final Map<Thread, WakeableConsumer> consumers = new ConcurrentHashMap<>();
  /** Each stream thread's committed transactions; an entry goes with its thread (a replaced producer counts on). */
  private final Map<Thread, AtomicLong> commits = Collections.synchronizedMap(new WeakHashMap<>());

  StreamThreads() {}

  /** Threads nothing registers with: wakers do nothing, every mark is committed (TopologyTestDriver tests). */
  public static StreamThreads none() {
    return new StreamThreads();
  }

  /**
   * The waker of the calling stream thread (call it on the stream thread, e.g. in a processor's
   * {@code init}); {@link StreamThreadWaker#NONE} when the thread has no wakeable consumer.
   */
  public StreamThreadWaker wakerOfCurrentThread() {
    WakeableConsumer consumer = consumers.get(Thread.currentThread());
    if (consumer == null) {
      return StreamThreadWaker.NONE;
    }
    return new StreamThreadWaker() {
      @Override
      public void wake() {
        consumer.wake();
      }

      @Override
      public Runnable keepPace(Duration every) {
        return consumer.keepPace(every);
      }
    };
  }

  /** A mark of the calling thread's commits as they stand: everything it forwarded so far is in a later one. */
  public TransactionCommits.Mark commitMark() {
    AtomicLong counter = commits.get(Thread.currentThread());
    return counter == null ? TransactionCommits.Mark.UNCOUNTED : new TransactionCommits.Mark(counter, counter.get());
  }

  void register(WakeableConsumer consumer) {
    consumers.put(consumer.pollingThread(), consumer);
  }

  void unregister(WakeableConsumer consumer) {
    Thread thread = consumer.pollingThread();
    if (thread != null) {
      consumers.remove(thread, consumer);
    }
  }

  /** The calling thread's counter, made on its first counted transaction. */
  AtomicLong commitCounterOfCurrentThread() {
    return commits.computeIfAbsent(Thread.currentThread(), t -> new AtomicLong());
  }
}
