package org.tonpayouts.poller;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.tonpayouts.ton.api.MasterchainInfo;
import org.tonpayouts.ton.api.TonApi;

/**
 * The last masterchain block, read as seldom as the chain allows, for the whole process: every
 * stream task runs its own rounds, and without sharing a poller with twelve partitions would ask
 * {@code getMasterchainInfo} twelve times per interval out of the same API budget.
 *
 * <p>Two savings: a read is shared by every task that asks within half a poll interval; and once
 * a new block was seen, no read is made before most of a block interval has passed (the interval
 * is learned from the blocks seen: an exponential average of the time between seqno changes), so
 * the poller asks a few times per block, around when the next one is due, instead of every poll
 * interval. Thread-safe (stream threads share it).
 */
final class MasterchainWatch {
  /** Share of the learned block interval during which no new block is expected. */
  private static final double QUIET_SHARE = 0.7;
  /** Weight of the newest gap in the learned interval. */
  private static final double LEARNING_RATE = 0.25;

  private final TonApi api;
  private final long reuseMs;
  private final PollerMetrics metrics;
  private CompletableFuture<MasterchainInfo> last;
  private long lastAtMs;
  private long lastSeqno = -1;
  private long lastChangeMs = -1;
  private double intervalMs;

  MasterchainWatch(TonApi api, Duration interval, PollerMetrics metrics) {
    this.api = Objects.requireNonNull(api, "api");
    this.reuseMs = Math.max(1, interval.toMillis() / 2);
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  /**
   * The masterchain read for a round punctuated at {@code nowMs}: the one made recently (possibly
   * still in flight, possibly failed), or a new one.
   */
  synchronized CompletableFuture<MasterchainInfo> read(long nowMs) {
    boolean fresh = last != null && nowMs >= lastAtMs && nowMs < lastAtMs + reuseMs;
    boolean tooEarly = last != null && intervalMs > 0 && lastChangeMs >= 0 && nowMs >= lastChangeMs
        && nowMs < lastChangeMs + QUIET_SHARE * intervalMs && last.isDone() && !last.isCompletedExceptionally();
    if (fresh || tooEarly) {
      return last;
    }
    metrics.apiCall("getMasterchainInfo");
    CompletableFuture<MasterchainInfo> read = api.getMasterchainInfo();
    last = read;
    lastAtMs = nowMs;
    read.thenAccept(info -> learn(info, nowMs));
    return read;
  }

  private synchronized void learn(MasterchainInfo info, long readAtMs) {
    if (info.seqno() <= lastSeqno) {
      return;
    }
    if (lastSeqno >= 0 && lastChangeMs >= 0 && readAtMs > lastChangeMs) {
      double gap = (double) (readAtMs - lastChangeMs) / (info.seqno() - lastSeqno);
      intervalMs = intervalMs <= 0 ? gap : (1 - LEARNING_RATE) * intervalMs + LEARNING_RATE * gap;
    }
    lastSeqno = info.seqno();
    lastChangeMs = readAtMs;
  }
}
