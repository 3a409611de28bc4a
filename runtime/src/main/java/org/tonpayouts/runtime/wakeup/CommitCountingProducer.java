package org.tonpayouts.runtime.wakeup;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.Producer;

/**
 * A stream thread's producer that counts the transactions it commits into its instance's {@link
 * StreamThreads}, under the thread that begins them (Kafka Streams begins, sends and commits on
 * the stream thread). Every other call is the wrapped producer's own ({@link DelegatingProducer}).
 */
final class CommitCountingProducer extends DelegatingProducer<byte[], byte[]> {
  private final StreamThreads threads;
  /** The counter of the thread that began the newest transaction (Kafka Streams' stream thread). */
  private AtomicLong commits;

  CommitCountingProducer(Producer<byte[], byte[]> delegate, StreamThreads threads) {
    super(delegate);
    this.threads = java.util.Objects.requireNonNull(threads, "threads");
  }

  @Override
  public void beginTransaction() {
    delegate.beginTransaction();
    commits = threads.commitCounterOfCurrentThread();
  }

  @Override
  public void commitTransaction() {
    delegate.commitTransaction();
    AtomicLong counter = commits;
    if (counter != null) {
      counter.incrementAndGet(); // only once the commit succeeded: a failed one throws past this
    }
  }
}
