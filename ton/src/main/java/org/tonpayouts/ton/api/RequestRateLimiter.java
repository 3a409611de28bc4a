package org.tonpayouts.ton.api;

import io.github.bucket4j.Bucket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Spaces a client's HTTP requests to at most {@code requestsPerSecond}, so the service never
 * earns 429s by itself. A token bucket of capacity 1 (no bursts: toncenter counts per second)
 * refilled every {@code 1/rps}; waiting requests are parked on a scheduler, never on a caller's
 * thread.
 */
final class RequestRateLimiter {
  private final Bucket bucket;
  private final ScheduledExecutorService scheduler;
  private final Duration interval;

  RequestRateLimiter(double requestsPerSecond, ScheduledExecutorService scheduler) {
    // round the interval up: rounding down would let the Nth request start a little early
    this.interval = Duration.ofNanos((long) Math.ceil(1_000_000_000d / requestsPerSecond));
    this.bucket = Bucket.builder()
        .withNanosecondPrecision()
        .addLimit(limit -> limit.capacity(1).refillGreedy(1, interval))
        .build();
    this.scheduler = scheduler;
  }

  /** Completes when the caller may start one request; reservations are served in call order. */
  CompletableFuture<Void> acquire() {
    return bucket.asScheduler().consume(1, scheduler);
  }

  Duration interval() {
    return interval;
  }
}
