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
 * interval. The quiet spell is timed from the read before the one that saw the new block (the
 * block came after it), and only when that read was recent: after an idle spell (nothing watched,
 * no reads) or a failed read, a change says nothing about when the block came, and assuming it had
 * just come made the first transfers after a pause wait most of a block for their verdicts.
 * Thread-safe (stream threads share it).
 */
final class MasterchainWatch {
  /**
   * Share of the learned block interval, from the read before the one that saw the last block,
   * during which no new block is expected: reads resume 290-320 ms after a block at 400 ms blocks
   * and a 30 ms poll, three or four reads per block.
   */
  private static final double QUIET_SHARE = 0.8;
  /** Weight of the newest gap in the learned interval. */
  private static final double LEARNING_RATE = 0.25;

  private final TonApi api;
  private final long pollMs;
  private final long reuseMs;
  private final PollerMetrics metrics;
  private CompletableFuture<MasterchainInfo> last;
  private long lastAtMs;
  private long lastSeqno = -1;
  /** When the newest block came at the latest as far as we know (a read before it); -1: unknown. */
  private long lastChangeMs = -1;
  /** When the newest read that answered was made; -1: none yet. */
  private long lastAnsweredReadMs = -1;
  private double intervalMs;

  MasterchainWatch(TonApi api, Duration interval, PollerMetrics metrics) {
    this.api = Objects.requireNonNull(api, "api");
    this.pollMs = Math.max(1, interval.toMillis());
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
    // learned before anyone sees the answer, so the next read already knows it
    CompletableFuture<MasterchainInfo> read = api.getMasterchainInfo().thenApply(info -> {
      learn(info, nowMs);
      return info;
    });
    last = read;
    lastAtMs = nowMs;
    return read;
  }

  private synchronized void learn(MasterchainInfo info, long readAtMs) {
    long previousReadMs = lastAnsweredReadMs;
    if (readAtMs > lastAnsweredReadMs) {
      lastAnsweredReadMs = readAtMs;
    }
    if (info.seqno() <= lastSeqno) {
      return;
    }
    // the block came between the previous answered read and this one: its time is known only
    // when that read was recent (within a few poll intervals, and well within a block interval)
    boolean timed = lastSeqno >= 0 && previousReadMs >= 0 && readAtMs >= previousReadMs
        && readAtMs - previousReadMs <= phaseToleranceMs();
    long changeMs = timed ? previousReadMs : -1;
    if (timed && info.seqno() == lastSeqno + 1 && lastChangeMs >= 0 && changeMs > lastChangeMs) {
      double gap = changeMs - lastChangeMs;
      intervalMs = intervalMs <= 0 ? gap : (1 - LEARNING_RATE) * intervalMs + LEARNING_RATE * gap;
    }
    lastSeqno = info.seqno();
    lastChangeMs = changeMs;
  }

  /** How long ago the read before a change may have been for the change to tell when the block came. */
  private long phaseToleranceMs() {
    long fourPolls = 4 * pollMs;
    return intervalMs > 0 ? Math.min(fourPolls, (long) (intervalMs / 2)) : fourPolls;
  }
}
