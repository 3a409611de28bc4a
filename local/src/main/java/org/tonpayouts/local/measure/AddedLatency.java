package org.tonpayouts.local.measure;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Millisecond latencies of the transfers of a load, sorted, with nearest-rank percentiles; what
 * each sample means is said by whoever measured it ({@link LoadLatency}).
 *
 * @param millis sorted latencies of the measured transfers
 * @param unmeasured transfers whose latency is unknown (e.g. their block's time was not seen)
 */
public record AddedLatency(List<Long> millis, int unmeasured) {
  public AddedLatency {
    millis = List.copyOf(millis);
  }

  /** The samples, sorted here, with nothing unmeasured. */
  public static AddedLatency of(List<Long> millis) {
    return of(millis, 0);
  }

  public static AddedLatency of(List<Long> millis, int unmeasured) {
    List<Long> sorted = new ArrayList<>(millis);
    Collections.sort(sorted);
    return new AddedLatency(sorted, unmeasured);
  }

  /** Nearest-rank percentile ({@code p} in 0..100); 0 without samples. */
  public long percentile(double p) {
    if (millis.isEmpty()) {
      return 0;
    }
    int rank = (int) Math.ceil(p / 100.0 * millis.size());
    return millis.get(Math.min(millis.size() - 1, Math.max(0, rank - 1)));
  }

  public long max() {
    return millis.isEmpty() ? 0 : millis.get(millis.size() - 1);
  }
}
