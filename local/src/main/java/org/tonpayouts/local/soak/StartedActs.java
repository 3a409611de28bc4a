package org.tonpayouts.local.soak;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Chaos acts a soak driver carries out on a thread of its own (a front-run, a dust flood), each
 * completing with what it did: the chaos waits for them at the end of the plan, and the report
 * lists the ones that succeeded (a failed one is logged where it failed).
 */
final class StartedActs<T> {
  private final List<CompletableFuture<T>> started = new CopyOnWriteArrayList<>();

  /** A new act's outcome, for its thread to complete. */
  CompletableFuture<T> start() {
    CompletableFuture<T> act = new CompletableFuture<>();
    started.add(act);
    return act;
  }

  /** Waits until every started act is done; false on timeout. */
  boolean awaitDone(Duration timeout) throws InterruptedException {
    try {
      CompletableFuture.allOf(started.toArray(CompletableFuture[]::new)).get(timeout.toMillis(),
          TimeUnit.MILLISECONDS);
      return true;
    } catch (ExecutionException e) {
      return true; // done, one failed: logged, and missing from done()
    } catch (TimeoutException e) {
      return false;
    }
  }

  /** What the acts done so far did, in the order they were started. */
  List<T> done() {
    return started.stream().filter(f -> f.isDone() && !f.isCompletedExceptionally()).map(CompletableFuture::join)
        .toList();
  }
}
