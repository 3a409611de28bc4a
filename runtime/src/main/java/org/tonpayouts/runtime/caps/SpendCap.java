package org.tonpayouts.runtime.caps;

import java.time.Duration;

/**
 * One rolling spend cap: at most {@code capNano} nanotons may be signed away within any
 * {@code window} (per wallet or for the whole deployment, as configured).
 *
 * @param window how far back the spend is summed; whole minutes (so a bucket is whole seconds),
 *     within {@link #MIN_WINDOW} and {@link #MAX_WINDOW}
 * @param capNano the most the window may hold, in nanotons; positive
 */
public record SpendCap(Duration window, long capNano) {
  /** Shorter windows would be a rate limit, which is not what a cap is for. */
  public static final Duration MIN_WINDOW = Duration.ofMinutes(1);
  /** Longer windows would keep spend records for longer than any operator plans ahead. */
  public static final Duration MAX_WINDOW = Duration.ofDays(31);
  /**
   * Spend is kept in buckets of a sixtieth of the window: a window sums at most 61 rows, and a
   * spend leaves the window between {@code window} and {@code window * 61/60} after it was signed
   * (the bucket of the window's start counts whole: the cap errs on the side of holding).
   */
  public static final int BUCKETS_PER_WINDOW = 60;

  public SpendCap {
    if (window == null || window.compareTo(MIN_WINDOW) < 0 || window.compareTo(MAX_WINDOW) > 0
        || window.getNano() != 0 || window.getSeconds() % 60 != 0) {
      throw new IllegalArgumentException("window must be whole minutes from 1m to 31d, got " + window);
    }
    if (capNano <= 0) {
      throw new IllegalArgumentException("cap must be positive nanotons, got " + capNano);
    }
  }

  public long windowSeconds() {
    return window.getSeconds();
  }

  /** The width of one spend bucket of this window, in seconds: a sixtieth of it, exactly. */
  public long bucketSeconds() {
    return window.getSeconds() / BUCKETS_PER_WINDOW;
  }

  /** As configured: {@code 1h:500000000000}. */
  @Override
  public String toString() {
    return SpendCapList.formatWindow(window) + ":" + capNano;
  }
}
