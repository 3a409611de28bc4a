package org.tonpayouts.runtime.wakeup;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * How far a stream thread's exactly-once transactions have committed, so a processor can tell
 * whether what it forwarded is committed yet (read_committed consumers read it a moment later, once
 * the broker has written the commit markers): it takes a {@link StreamThreads#commitMark() mark} on
 * its stream thread right after forwarding, and later asks the mark whether a transaction committed
 * since. Under {@code exactly_once_v2} each stream thread has one producer and uses it only on
 * that thread, and a commit covers everything the thread sent before it. On a thread whose commits
 * nobody counts (a TopologyTestDriver) every mark counts as committed at once.
 */
public final class TransactionCommits {
  private TransactionCommits() {}

  /** The commits of one thread as they stood at one moment. */
  public static final class Mark {
    /** A mark on a thread whose commits nobody counts: committed from the start. */
    static final Mark UNCOUNTED = new Mark(null, 0);

    private final AtomicLong commits;
    private final long at;

    Mark(AtomicLong commits, long at) {
      this.commits = commits;
      this.at = at;
    }

    /** Whether a transaction committed after the mark was taken. Any thread. */
    public boolean committed() {
      return commits == null || commits.get() > at;
    }
  }

  /**
   * Waits for a commit with a limit: over once {@code committed} says so, or at {@code latest}
   * whatever happened (a commit that does not come must not hold anything for long).
   */
  public record Wait(BooleanSupplier committed, Instant latest) {
    public Wait {
      Objects.requireNonNull(committed, "committed");
      Objects.requireNonNull(latest, "latest");
    }

    /**
     * A wait for what the calling stream thread (one of {@code threads}) forwarded so far, for at most
     * {@code limit} from {@code now}.
     */
    public static Wait forForwarded(StreamThreads threads, Instant now, Duration limit) {
      return new Wait(threads.commitMark()::committed, now.plus(limit));
    }

    public boolean over(Instant now) {
      return !now.isBefore(latest) || committed.getAsBoolean();
    }
  }
}
