package org.tonpayouts.streams.io;

import java.time.Duration;
import java.util.Arrays;

/**
 * How long the {@link Resender} waits for a verdict before it sends a message again: the
 * configured minimum ({@code transfer.resend.after.ms}), or a quarter more than the slowest
 * percent of recent verdicts took (their 99th percentile), whichever is longer (at most
 * {@code max}).
 *
 * <p>A re-send is for a message lost on its way to the validators. When verdicts take longer than
 * the minimum only because the pipeline is busy (measured: 4 s at 1,000 wallets against 1.2 s),
 * a fixed delay re-sent almost every message, the wallet refused nearly all of them (already
 * applied), and those refusals were a third of all API calls. Learning from the verdicts that do
 * come keeps re-sends for messages that are really late. It learns their tail, not their mean:
 * under load verdict times spread (a block's verdicts reach the processor over a second or more),
 * and a re-send is wasted on every message whose verdict is slower than the delay. The percentile
 * is over the last {@value #WINDOW} verdicts, so it follows the load both ways within a few hundred
 * of them. Which verdicts it is told about is the {@link Resender}'s part.
 *
 * <p>Thread-safe.
 */
public final class ResendDelay {
  /** Verdict times the percentile is taken over: the most recent ones. */
  static final int WINDOW = 256;
  /** The percentile waited for, and the margin on top of it. */
  static final double PERCENTILE = 0.99;
  static final double MARGIN = 1.25;
  /** New verdict times between two computations of the percentile (a sort of the window). */
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
      long tail = sorted[(int) Math.ceil(PERCENTILE * count) - 1];
      long wait = Math.round(MARGIN * tail);
      current = Duration.ofMillis(Math.min(max.toMillis(), Math.max(min.toMillis(), wait)));
    }
  }

  /** How long to wait now before the first re-send of a message just handed to the API. */
  public synchronized Duration current() {
    return current;
  }
}
