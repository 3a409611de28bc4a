package org.tonpayouts.runtime.wakeup;

import java.time.Duration;

/**
 * A processor's handle on its stream thread, which at rest waits long for records ({@code
 * poll.ms}): other threads {@link #wake() wake} it when a result is ready for it to apply, and the
 * processor itself {@link #keepPace(Duration) keeps a pace} while a wall-clock punctuation of its
 * must fire on time. Get it with {@link StreamThreads#wakerOfCurrentThread()}; on a thread
 * without a wakeable consumer (a TopologyTestDriver, a plain consumer) both do nothing.
 */
public interface StreamThreadWaker {
  /** The waker of a thread that cannot be woken: the thread finds results on its next loop. */
  StreamThreadWaker NONE = new StreamThreadWaker() {
    @Override
    public void wake() {
    }

    @Override
    public Runnable keepPace(Duration every) {
      return () -> { };
    }
  };

  /** Ends the poll the stream thread waits in, or makes its next poll return at once. Any thread. */
  void wake();

  /**
   * Makes the stream thread poll for at most {@code every} at a time until the returned release
   * runs (call both on the stream thread), so punctuations of that interval fire on time while
   * nothing else wakes it.
   */
  Runnable keepPace(Duration every);
}
