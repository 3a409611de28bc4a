package org.tonpayouts.streams.ledger.caps;

import java.math.BigInteger;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import org.tonpayouts.runtime.caps.SpendCap;

/**
 * The spend of one scope in one cap's window, bucket by bucket (a bucket is a sixtieth of the
 * window; bucket {@code k} covers {@code [k * width, (k + 1) * width)} in epoch seconds). At time
 * {@code now} in bucket {@code k}, buckets {@code k - 60} to {@code k} count: the window's oldest
 * bucket counts whole, so the cap errs on the side of holding.
 */
final class SpendWindows {
  /** Buckets counted at once: the current one and the sixty before it; also the ring's size in the table. */
  static final int SLOTS = SpendCap.BUCKETS_PER_WINDOW + 1;

  private final SpendCap cap;
  private final TreeMap<Long, BigInteger> buckets = new TreeMap<>();

  SpendWindows(SpendCap cap) {
    this.cap = cap;
  }

  static long bucketOf(SpendCap cap, Instant at) {
    return Math.floorDiv(at.getEpochSecond(), cap.bucketSeconds());
  }

  /** Adds a bucket's spend as read from the ledger, or a transfer passed in this batch. */
  void add(long bucket, BigInteger amount) {
    buckets.merge(bucket, amount, BigInteger::add);
  }

  /**
   * What the window holds at {@code now}. Buckets after the current one count too: another
   * instance's clock a little ahead of ours wrote them, and leaving them out would under-count.
   */
  BigInteger spent(Instant now) {
    return counted(now).values().stream().reduce(BigInteger.ZERO, BigInteger::add);
  }

  private java.util.SortedMap<Long, BigInteger> counted(Instant now) {
    return buckets.tailMap(bucketOf(cap, now) - SLOTS + 1);
  }

  /**
   * Held, if {@code amount} on top of the spend at {@code now} is over the cap; null when it fits.
   */
  CapDecision.Held check(CapScope scope, long amount, Instant now) {
    BigInteger spent = spent(now);
    BigInteger excess = spent.add(BigInteger.valueOf(amount)).subtract(BigInteger.valueOf(cap.capNano()));
    if (excess.signum() <= 0) {
      return null;
    }
    return new CapDecision.Held(scope, cap, spent, amount, amount > cap.capNano() ? null : freesAt(excess, now));
  }

  /** When enough of the oldest spend has left the window to make {@code excess} room. */
  private Instant freesAt(BigInteger excess, Instant now) {
    BigInteger leaving = BigInteger.ZERO;
    for (Map.Entry<Long, BigInteger> bucket : counted(now).entrySet()) {
      leaving = leaving.add(bucket.getValue());
      if (leaving.compareTo(excess) >= 0) {
        // bucket b stops counting once the current bucket is b + SLOTS
        return Instant.ofEpochSecond((bucket.getKey() + SLOTS) * cap.bucketSeconds());
      }
    }
    throw new IllegalStateException("the window's spend cannot be below the excess over the cap");
  }
}
