package org.tonpayouts.streams.ledger.caps;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.tonpayouts.runtime.caps.SpendCap;

/** One window's arithmetic: which buckets count, when a held amount fits, and when room frees up. */
class SpendWindowsTest {
  /** 60 TON an hour: buckets of one minute. */
  private static final SpendCap CAP = new SpendCap(Duration.ofHours(1), 60_000_000_000L);
  private static final Instant T0 = Instant.parse("2026-01-01T12:00:00Z");
  private static final long TON = 1_000_000_000L;

  private static SpendWindows with(Object... minuteAndTons) {
    SpendWindows w = new SpendWindows(CAP);
    for (int i = 0; i < minuteAndTons.length; i += 2) {
      Instant at = T0.plus(Duration.ofMinutes((Integer) minuteAndTons[i]));
      w.add(SpendWindows.bucketOf(CAP, at), BigInteger.valueOf((Long) minuteAndTons[i + 1] * TON));
    }
    return w;
  }

  @Test
  void shouldCountTheSixtyBucketsBeforeTheCurrentOneAndTheOldestWhole() {
    SpendWindows w = with(0, 10L, 30, 20L);

    assertThat(w.spent(T0.plus(Duration.ofMinutes(60)).plusSeconds(59))).isEqualTo(BigInteger.valueOf(30 * TON));
    assertThat(w.spent(T0.plus(Duration.ofMinutes(61)))).isEqualTo(BigInteger.valueOf(20 * TON));
    assertThat(w.spent(T0.plus(Duration.ofMinutes(91)))).isZero();
  }

  @Test
  void shouldCountABucketAheadOfOurClockWrittenByAnotherInstance() {
    SpendWindows w = with(5, 10L);

    assertThat(w.spent(T0.plus(Duration.ofMinutes(4)))).isEqualTo(BigInteger.valueOf(10 * TON));
  }

  @Test
  void shouldPassWhatFitsExactlyAndHoldWhatCrossesUntilTheOldestEnoughSpendLeaves() {
    SpendWindows w = with(0, 30L, 10, 20L, 20, 5L);
    Instant now = T0.plus(Duration.ofMinutes(25));

    assertThat(w.check(CapScope.WALLET, 5 * TON, now)).isNull();
    CapDecision.Held held = w.check(CapScope.WALLET, 40 * TON, now);

    assertThat(held.spent()).isEqualTo(BigInteger.valueOf(55 * TON));
    // 35 TON too many: minute 0 (30) is not enough, minute 10 (20) too; it leaves at 10 + 61 minutes
    assertThat(held.freesAt()).isEqualTo(T0.plus(Duration.ofMinutes(71)));
    assertThat(held.describe(7)).contains("subwallet 7's cap of 60000000000 nanotons per 1h")
        .contains("55000000000 spent in the window, this transfer needs 40000000000")
        .contains("the window has room from " + T0.plus(Duration.ofMinutes(71)));
  }

  @Test
  void shouldNeverFreeAnAmountOverTheCapByItself() {
    CapDecision.Held held = with().check(CapScope.DEPLOYMENT, 61 * TON, T0);

    assertThat(held.spent()).isZero();
    assertThat(held.freesAt()).isNull();
    assertThat(held.describe(7)).startsWith("the deployment's cap of 60000000000 nanotons per 1h")
        .contains("its amount alone is over the cap");
  }
}
