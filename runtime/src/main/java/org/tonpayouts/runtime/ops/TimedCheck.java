package org.tonpayouts.runtime.ops;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A health check that answers within {@code timeout} and is re-run at most once per
 * {@code cacheFor}: probes every few seconds must neither hang on a dead database nor spend the
 * TON API's rate budget. A check still running when the deadline passes is reported down and
 * awaited again by the next probe rather than started twice.
 */
public final class TimedCheck implements HealthCheck {
  private final HealthCheck delegate;
  private final Duration timeout;
  private final Duration cacheFor;
  private final Clock clock;
  private final Executor executor;
  private CompletableFuture<CheckResult> running;
  private CheckResult last;
  private long lastAtMs;

  public TimedCheck(HealthCheck delegate, Duration timeout, Duration cacheFor, Clock clock, Executor executor) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    this.cacheFor = Objects.requireNonNull(cacheFor, "cacheFor");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.executor = Objects.requireNonNull(executor, "executor");
  }

  @Override
  public synchronized CheckResult check() {
    long now = clock.millis();
    if (last != null && now - lastAtMs < cacheFor.toMillis()) {
      return last;
    }
    if (running == null) {
      running = CompletableFuture.supplyAsync(delegate::check, executor);
    }
    CheckResult result;
    try {
      result = running.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      return CheckResult.down("no answer within " + timeout.toMillis() + " ms");
    } catch (ExecutionException e) {
      result = CheckResult.down(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return CheckResult.down("interrupted");
    }
    running = null;
    last = result;
    lastAtMs = clock.millis();
    return result;
  }
}
