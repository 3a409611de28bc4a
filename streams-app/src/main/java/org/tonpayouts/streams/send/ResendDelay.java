package org.tonpayouts.streams.send;

import java.time.Duration;
import java.util.Arrays;

/**
 * How long the {@link Resender} waits for a verdict before it sends a message again: the
 * configured minimum ({@code transfer.resend.after.ms}), or {@value #MARGIN} times the median of
 * recent verdict times, whichever is longer (at most {@code max}).
 *
 * <p>A re-send is for a message lost on its way to the validators. When verdicts take longer than
 * the minimum only because the pipeline is busy (measured: 4 s at 1,000 wallets against 1.2 s),
 * a fixed delay re-sent almost every message, the wallet refused nearly all of them (already
 * applied), and those refusals were a third of all API calls. Learning from the verdicts that do
 * come keeps re-sends for messages that are really late.
 *
 * <p>Why a multiple of the median: a busy pipeline's verdict times are tight (W=1000: median
 * 0.74 s, 99th percentile 1.49 s), so 2.5 times the median covers their tail; a disruption (a
 * process restarting, a rebalance) adds verdicts of 5-40 s, and a tail percentile followed those
 * up to the 15 s cap (the chaos soak: 99th percentile 21 s), so a message lost just then waited
 * 15 s for its re-send. The median ignores them while they are under half of the window. It is
 * taken over the last {@value #WINDOW} verdicts, so it follows the load both ways within a few
 * hundred of them. Which verdicts it is told about is the {@link Resender}'s part.
 *
 * <p>Thread-safe.
 */
public final class ResendDelay {
  /** Verdict times the median is taken over: the most recent ones. */
  static final int WINDOW = 256;
  /** The delay, in medians of recent verdict times. */
  static final double MARGIN = 2.5;
  /** New verdict times between two computations of the median (a sort of the window). */
  static final int RECOMPUTE_EVERY = 16;

  private final Duration min;
  private final Duration max;
  private final long[] recent = new long[WINDOW];
  private int count;
  private int next;
  private int sinceComputed;
  private Duration current;

  public ResendDelay(Duration min, Duration max) {
    if (max.compareTo(min) < 0) {
      throw new IllegalArgumentException("max " + max + " is below min " + min);
    }
    this.min = min;
    this.max = max;
    this.current = min;
  }

  /** A watched message got its verdict {@code elapsed} after it was handed to the API. */
  public synchronized void verdictAfter(Duration elapsed) {
    recent[next] = Math.max(0, elapsed.toMillis());
    next = (next + 1) % WINDOW;
    count = Math.min(count + 1, WINDOW);
    if (++sinceComputed >= RECOMPUTE_EVERY || count < RECOMPUTE_EVERY) {
      sinceComputed = 0;
      long[] sorted = Arrays.copyOf(recent, count);
      Arrays.sort(sorted);
      long median = sorted[(count - 1) / 2];
      long wait = Math.round(MARGIN * median);
      current = Duration.ofMillis(Math.min(max.toMillis(), Math.max(min.toMillis(), wait)));
    }
  }

  /** How long to wait now before the first re-send of a message just handed to the API. */
  public synchronized Duration current() {
    return current;
  }
}
