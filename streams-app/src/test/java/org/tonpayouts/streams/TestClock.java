package org.tonpayouts.streams;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.function.Supplier;

/**
 * A clock tests move by hand, so valid_until can pass without waiting: either a fixed instant, or
 * the system clock plus an offset (for tests that also talk to devnet, which runs on real time).
 */
public final class TestClock extends Clock {
  private final Supplier<Instant> base;
  private volatile Duration offset = Duration.ZERO;

  private TestClock(Supplier<Instant> base) {
    this.base = base;
  }

  public static TestClock fixedAt(Instant start) {
    return new TestClock(() -> start);
  }

  public static TestClock systemPlusOffset() {
    return new TestClock(Instant::now);
  }

  /** A clock that reads {@code base} shifted by {@code offset}: another process's skewed clock. */
  public static TestClock following(Clock base, Duration offset) {
    return new TestClock(() -> base.instant().plus(offset));
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
    throw new UnsupportedOperationException("tests use UTC");
  }
}
