package org.tonpayouts.ton.api;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * At most N asynchronous calls in flight; the others wait in arrival order, without blocking a
 * thread. {@link TonApiClient} sends every HTTP attempt through one ({@link
 * TonApiConfig#maxInFlight()}), so a thousand wallets starting at once reuse tens of connections,
 * not a thousand.
 */
public final class AsyncPermits {
  private final int max;
  private final Queue<Runnable> waiting = new ArrayDeque<>();
  private final ThreadLocal<boolean[]> draining = ThreadLocal.withInitial(() -> new boolean[1]);
  private int inFlight;

  public AsyncPermits(int max) {
    if (max < 1) {
      throw new IllegalArgumentException("at least one call must be allowed in flight, got " + max);
    }
    this.max = max;
  }

  public int max() {
    return max;
  }

  /** Starts {@code call} when a permit is free; the permit is returned when its future completes. */
  public <T> CompletableFuture<T> run(Supplier<CompletableFuture<T>> call) {
    CompletableFuture<T> result = new CompletableFuture<>();
    Runnable start = () -> {
      CompletableFuture<T> started;
      try {
        started = call.get();
      } catch (RuntimeException e) {
        started = CompletableFuture.failedFuture(e);
      }
      started.whenComplete((value, error) -> {
        release();
        if (error != null) {
          result.completeExceptionally(error);
        } else {
          result.complete(value);
        }
      });
    };
    synchronized (this) {
      waiting.add(start);
    }
    drain();
    return result;
  }

  private void release() {
    synchronized (this) {
      inFlight--;
    }
    drain();
  }

  /**
   * Starts waiting calls while permits are free. A call that completes at once releases its permit
   * inside this loop; the flag keeps that from recursing (the loop already running picks it up), so
   * a long queue of failing calls cannot overflow the stack.
   */
  private void drain() {
    boolean[] draining = this.draining.get();
    if (draining[0]) {
      return;
    }
    draining[0] = true;
    try {
      while (true) {
        Runnable next;
        synchronized (this) {
          if (inFlight >= max || waiting.isEmpty()) {
            return;
          }
          next = waiting.poll();
          inFlight++;
        }
        next.run();
      }
    } finally {
      draining[0] = false;
    }
  }

  /** Calls in flight now (for tests). */
  public synchronized int inFlight() {
    return inFlight;
  }
}
