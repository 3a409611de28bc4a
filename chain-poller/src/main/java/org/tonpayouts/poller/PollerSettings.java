package org.tonpayouts.poller;

import java.time.Duration;
import java.util.Objects;
import org.tonpayouts.runtime.PayoutsConfig;

/**
 * How the chain poller paces and bounds its rounds.
 *
 * @param interval how often a round checks for a new masterchain block
 * @param clockSkew margin added to {@code valid_until} before a message counts as expired, and
 *     taken off {@code submittedAt} when scanning back for a message's transaction
 * @param roundTimeout how long one round waits for all wallets' calls; wallets still waiting are
 *     left unchanged for the next round
 * @param fallbackRounds poll wallets at least every this many rounds even when the masterchain
 *     seqno did not advance (or could not be read)
 * @param resolvedRetention how long a verdict is remembered to ignore re-emitted submissions
 * @param pageSize transactions asked per {@code getTransactions} page (1 to 100)
 * @param maxPages pages one wallet's scan may read in a round before it gives up on reaching back
 * @param bounceWindow how long a confirmed bounceable payout is watched for a bounce (0: not at all)
 * @param feedRetention how long the block feed keeps the blocks it read (0: no block feed, every
 *     watched wallet is scanned on its own); see {@link BlockFeed}
 * @param feedClockMargin how far apart the clock that records a transfer's first message
 *     ({@code firstSubmittedAt}) and this poller's clock may be: the feed vouches for transfers
 *     recorded after it started, less this
 */
public record PollerSettings(
    Duration interval,
    Duration clockSkew,
    Duration roundTimeout,
    int fallbackRounds,
    Duration resolvedRetention,
    int pageSize,
    int maxPages,
    Duration bounceWindow,
    Duration feedRetention,
    Duration feedClockMargin) {

  public static final int DEFAULT_PAGE_SIZE = 32;
  public static final int DEFAULT_MAX_PAGES = 16;

  public PollerSettings {
    positive(interval, "interval");
    Objects.requireNonNull(clockSkew, "clockSkew");
    if (clockSkew.isNegative()) {
      throw new IllegalArgumentException("clockSkew must not be negative, got " + clockSkew);
    }
    positive(roundTimeout, "roundTimeout");
    positive(resolvedRetention, "resolvedRetention");
    if (fallbackRounds < 1) {
      throw new IllegalArgumentException("fallbackRounds must be at least 1, got " + fallbackRounds);
    }
    if (pageSize < 2 || pageSize > 100) {
      // paging repeats the previous page's oldest transaction, so a page of 1 would never advance
      throw new IllegalArgumentException("pageSize must be 2..100, got " + pageSize);
    }
    if (maxPages < 1) {
      throw new IllegalArgumentException("maxPages must be at least 1, got " + maxPages);
    }
    Objects.requireNonNull(bounceWindow, "bounceWindow");
    if (bounceWindow.isNegative()) {
      throw new IllegalArgumentException("bounceWindow must not be negative, got " + bounceWindow);
    }
    Objects.requireNonNull(feedRetention, "feedRetention");
    if (feedRetention.isNegative()) {
      throw new IllegalArgumentException("feedRetention must not be negative, got " + feedRetention);
    }
    Objects.requireNonNull(feedClockMargin, "feedClockMargin");
    if (feedClockMargin.isNegative()) {
      throw new IllegalArgumentException("feedClockMargin must not be negative, got " + feedClockMargin);
    }
  }

  private static void positive(Duration d, String name) {
    Objects.requireNonNull(d, name);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, got " + d);
    }
  }

  /** The settings a deployed poller runs with. */
  public static PollerSettings from(PayoutsConfig config) {
    return new PollerSettings(
        config.pollerInterval(),
        config.clockSkewMargin(),
        config.pollerRoundTimeout(),
        config.pollerFallbackRounds(),
        config.pollerResolvedRetention(),
        DEFAULT_PAGE_SIZE,
        DEFAULT_MAX_PAGES,
        config.bounceWindow(),
        config.pollerFeedRetention(),
        config.pollerFeedClockMargin());
  }

  public PollerSettings withClockSkew(Duration skew) {
    return new PollerSettings(interval, skew, roundTimeout, fallbackRounds, resolvedRetention, pageSize, maxPages,
        bounceWindow, feedRetention, feedClockMargin);
  }

  public PollerSettings withFallbackRounds(int rounds) {
    return new PollerSettings(interval, clockSkew, roundTimeout, rounds, resolvedRetention, pageSize, maxPages,
        bounceWindow, feedRetention, feedClockMargin);
  }

  public PollerSettings withPaging(int size, int pages) {
    return new PollerSettings(interval, clockSkew, roundTimeout, fallbackRounds, resolvedRetention, size, pages,
        bounceWindow, feedRetention, feedClockMargin);
  }

  public PollerSettings withBounceWindow(Duration window) {
    return new PollerSettings(interval, clockSkew, roundTimeout, fallbackRounds, resolvedRetention, pageSize, maxPages,
        window, feedRetention, feedClockMargin);
  }

  /** These settings with the block feed vouching for transfers recorded after it started, less {@code margin}. */
  public PollerSettings withFeedClockMargin(Duration margin) {
    return new PollerSettings(interval, clockSkew, roundTimeout, fallbackRounds, resolvedRetention, pageSize, maxPages,
        bounceWindow, feedRetention, margin);
  }

  /** These settings with the block feed keeping blocks for {@code retention} (0: off). */
  public PollerSettings withFeedRetention(Duration retention) {
    return new PollerSettings(interval, clockSkew, roundTimeout, fallbackRounds, resolvedRetention, pageSize, maxPages,
        bounceWindow, retention, feedClockMargin);
  }
}
