package org.tonpayouts.runtime.async;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where the I/O threads leave a stream task's completed work: each completion is a step to run on
 * the task's stream thread (the only thread that may touch its stores and forward records). The
 * task drains it on every record and on a punctuation scheduled while work is pending; each
 * delivery wakes the stream thread (when the inbox was given a waker), so that punctuation runs
 * now rather than when the thread's poll times out.
 *
 * <p>Thread-safe: I/O threads {@link #deliver}, the stream thread {@link #drain}s.
 */
public final class Inbox {
  private final Queue<Runnable> completed = new ConcurrentLinkedQueue<>();
  private final AtomicInteger pending = new AtomicInteger();
  private volatile Runnable wake = () -> { };

  /** What to run after each delivery to wake the stream thread that drains this inbox. */
  public void wakeWith(Runnable wake) {
    this.wake = java.util.Objects.requireNonNull(wake, "wake");
  }

  /** Counts one job handed to an I/O thread; its completion must be {@link #deliver}ed once. */
  public void expect() {
    pending.incrementAndGet();
  }

  /** Leaves {@code step} for the stream thread (called by I/O threads, exactly once per job). */
  public void deliver(Runnable step) {
    completed.add(step);
    wake.run();
  }

  /**
   * Runs every delivered step, in delivery order, on the calling (stream) thread.
   *
   * @return how many ran
   */
  public int drain() {
    int ran = 0;
    for (Runnable step = completed.poll(); step != null; step = completed.poll()) {
      pending.decrementAndGet();
      step.run();
      ran++;
    }
    return ran;
  }

  /** Jobs handed out and not yet drained. */
  public int pending() {
    return pending.get();
  }
}
