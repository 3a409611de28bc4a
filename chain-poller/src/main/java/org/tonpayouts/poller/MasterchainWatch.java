package org.tonpayouts.poller;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.tonpayouts.ton.api.MasterchainInfo;
import org.tonpayouts.ton.api.TonApi;

/**
 * The last masterchain block, read at most once per half poll interval for the whole process:
 * every stream task runs its own round, and without sharing, a poller with twelve partitions
 * would ask {@code getMasterchainInfo} twelve times per interval out of the same API budget.
 * Thread-safe (stream threads share it).
 */
final class MasterchainWatch {
  private final TonApi api;
  private final long reuseMs;
  private final PollerMetrics metrics;
  private CompletableFuture<MasterchainInfo> last;
  private long lastAtMs;

  MasterchainWatch(TonApi api, Duration interval, PollerMetrics metrics) {
    this.api = Objects.requireNonNull(api, "api");
    this.reuseMs = Math.max(1, interval.toMillis() / 2);
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  /**
   * The masterchain read for a round punctuated at {@code nowMs}: the one another task started
   * within the last half interval (possibly still in flight, possibly failed), or a new one.
   */
  synchronized CompletableFuture<MasterchainInfo> read(long nowMs) {
    if (last == null || nowMs >= lastAtMs + reuseMs || nowMs < lastAtMs) {
      metrics.apiCall("getMasterchainInfo");
      last = api.getMasterchainInfo();
      lastAtMs = nowMs;
    }
    return last;
  }
}
