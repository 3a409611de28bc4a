package org.tonpayouts.devnet;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.function.Supplier;

/**
 * A clock a test moves by hand, so block times, {@code valid_until} and lag durations pass
 * without waiting: either standing at an instant, or the system clock plus an offset (for a devnet
 * producing blocks on its own), or another clock shifted (another process's skewed clock). Give the
 * same one to devnet ({@link Devnet.Builder#clock}) and to the code under test to move both.
 */
public final class ManualClock extends Clock {
  private final Supplier<Instant> base;
  private volatile Duration offset = Duration.ZERO;

  private ManualClock(Supplier<Instant> base) {
    this.base = base;
  }

  /** A clock standing at {@code start} until moved. */
  public static ManualClock fixedAt(Instant start) {
    return new ManualClock(() -> start);
  }

  /** The system clock, moved forward by every {@link #advance}. */
  public static ManualClock systemPlusOffset() {
    return new ManualClock(Instant::now);
  }

  /** {@code base} shifted by {@code offset} (and by every {@link #advance} of this one). */
  public static ManualClock following(Clock base, Duration offset) {
    ManualClock clock = new ManualClock(base::instant);
    clock.advance(offset);
    return clock;
  }

  public void advance(Duration by) {
    offset = offset.plus(by);
  }

  @Override
  public Instant instant() {
    return base.get().plus(offset);
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
