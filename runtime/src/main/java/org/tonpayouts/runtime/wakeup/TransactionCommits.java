package org.tonpayouts.runtime.wakeup;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * How far each stream thread's exactly-once transactions have committed, so a processor can tell
 * whether what it forwarded is committed yet (read_committed consumers read it a moment later, once
 * the broker has written the commit markers): it takes a {@link #mark()} on its stream thread right
 * after forwarding, and later asks the mark whether a transaction committed since.
 * Under {@code exactly_once_v2} each stream thread has one producer and uses it only on that
 * thread, and a commit covers everything the thread sent before it; the producers of {@link
 * StreamThreadWakeups#clientSupplier()} count their commits here. On a thread without such a
 * producer (a TopologyTestDriver) every mark counts as committed at once.
 */
public final class TransactionCommits {
  /** Transactions committed by the thread's producers (one replaced after a fence counts on); unset: not counted. */
  private static final ThreadLocal<AtomicLong> COMMITS = new ThreadLocal<>();

  private TransactionCommits() {}

  /** A mark of the calling thread's commits as they stand: everything it forwarded so far is in a later one. */
  public static Mark mark() {
    AtomicLong commits = COMMITS.get();
    return commits == null ? Mark.UNCOUNTED : new Mark(commits, commits.get());
  }

  /** The calling thread's counter, made on its first counted transaction; it goes with the thread. */
  static AtomicLong counterOfCurrentThread() {
    AtomicLong commits = COMMITS.get();
    if (commits == null) {
      commits = new AtomicLong();
      COMMITS.set(commits);
    }
    return commits;
  }

  /** The commits of one thread as they stood at one moment. */
  public static final class Mark {
    /** A mark on a thread whose commits nobody counts: committed from the start. */
    static final Mark UNCOUNTED = new Mark(null, 0);

    private final AtomicLong commits;
    private final long at;

    private Mark(AtomicLong commits, long at) {
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

    /** A wait for what the calling stream thread forwarded so far, for at most {@code limit} from {@code now}. */
    public static Wait forForwarded(Instant now, Duration limit) {
      return new Wait(TransactionCommits.mark()::committed, now.plus(limit));
    }

    public boolean over(Instant now) {
      return !now.isBefore(latest) || committed.getAsBoolean();
    }
  }
}
