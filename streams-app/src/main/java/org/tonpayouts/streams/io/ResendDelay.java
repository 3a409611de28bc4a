package org.tonpayouts.streams.io;

import java.time.Duration;

/**
 * How long the {@link Resender} waits for a verdict before it sends a message again: the
 * configured minimum ({@code transfer.resend.after.ms}), or twice the typical time verdicts take
 * now, whichever is longer (at most {@code max}).
 *
 * <p>A re-send is for a message lost on its way to the validators. When verdicts take longer than
 * the minimum only because the pipeline is busy (measured: 4 s at 1,000 wallets against 1.2 s),
 * a fixed delay re-sent almost every message, the wallet refused nearly all of them (already
 * applied), and those refusals were a third of all API calls. Learning from the verdicts that do
 * come keeps re-sends for messages that are really late. The typical time is an exponentially
 * weighted average, so it follows the load both ways within a few dozen verdicts.
 *
 * <p>Thread-safe.
 */
public final class ResendDelay {
  /** Weight of one new verdict time in the average. */
  static final double WEIGHT = 0.05;

  private final Duration min;
  private final Duration max;
  private double typicalMillis = -1;

  public ResendDelay(Duration min, Duration max) {
    if (max.compareTo(min) < 0) {
      throw new IllegalArgumentException("max " + max + " is below min " + min);
    }
    this.min = min;
    this.max = max;
  }

  /** A watched message got its verdict {@code elapsed} after it was handed to the API. */
  public synchronized void verdictAfter(Duration elapsed) {
    double ms = Math.max(0, elapsed.toMillis());
    typicalMillis = typicalMillis < 0 ? ms : typicalMillis + WEIGHT * (ms - typicalMillis);
  }

  /** How long to wait now before the first re-send of a message just handed to the API. */
  public synchronized Duration current() {
    long learned = typicalMillis < 0 ? 0 : Math.round(2 * typicalMillis);
    return Duration.ofMillis(Math.min(max.toMillis(), Math.max(min.toMillis(), learned)));
  }
}
