package org.tonpayouts.ton.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AsyncPermitsTest {

  @Test
  void shouldKeepAtMostTheAllowedCallsInFlightAndStartTheOthersInOrder() {
    AsyncPermits permits = new AsyncPermits(2);
    List<CompletableFuture<Integer>> calls = new ArrayList<>();
    List<Integer> started = new ArrayList<>();
    List<CompletableFuture<Integer>> results = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      int n = i;
      CompletableFuture<Integer> call = new CompletableFuture<>();
      calls.add(call);
      results.add(permits.run(() -> {
        started.add(n);
        return call;
      }));
    }

    assertThat(started).containsExactly(0, 1);
    calls.get(1).complete(1);
    assertThat(started).containsExactly(0, 1, 2);
    assertThat(results.get(1)).isCompletedWithValue(1);
    calls.get(0).completeExceptionally(new IllegalStateException("boom"));
    assertThat(started).containsExactly(0, 1, 2, 3);
    assertThat(results.get(0)).isCompletedExceptionally();
    assertThat(permits.inFlight()).isEqualTo(2);
    calls.forEach(c -> c.complete(0));
    assertThat(started).containsExactly(0, 1, 2, 3, 4);
    assertThat(permits.inFlight()).isZero();
  }

  @Test
  void shouldNotRecurseThroughALongQueueOfCallsThatCompleteAtOnce() {
    AsyncPermits permits = new AsyncPermits(1);
    CompletableFuture<Void> blocker = new CompletableFuture<>();
    permits.run(() -> blocker);
    AtomicInteger ran = new AtomicInteger();
    List<CompletableFuture<Object>> queued = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      queued.add(permits.run(() -> {
        ran.incrementAndGet();
        return CompletableFuture.failedFuture(new IllegalStateException("refused"));
      }));
    }

    blocker.complete(null);

    assertThat(ran).hasValue(100_000);
    assertThat(queued).allSatisfy(f -> assertThat(f).isCompletedExceptionally());
    assertThat(permits.inFlight()).isZero();
  }
}
