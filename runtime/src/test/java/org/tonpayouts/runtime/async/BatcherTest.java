package org.tonpayouts.runtime.async;


import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BatcherTest {
  private static final long WAIT_S = 10;

  @Test
  void jobsSubmittedWhileABatchRunsFormTheNextBatch() throws Exception {
    CountDownLatch firstRunning = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    BlockingQueue<List<String>> batches = new LinkedBlockingQueue<>();
    try (Batcher<String> batcher = new Batcher<>("test", batch -> {
      batches.add(List.copyOf(batch));
      if (batch.contains("a")) {
        firstRunning.countDown();
        await(release);
      }
    }, batch -> {})) {
      batcher.submit("a");
      assertThat(firstRunning.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
      batcher.submit("b");
      batcher.submit("c");
      release.countDown();
      assertThat(batches.poll(WAIT_S, TimeUnit.SECONDS)).containsExactly("a");
      assertThat(batches.poll(WAIT_S, TimeUnit.SECONDS)).containsExactly("b", "c");
      assertThat(awaitIdle(batcher::idle, Duration.ofSeconds(WAIT_S))).isTrue();
    }
  }

  @Test
  void withTwoThreadsAJobDoesNotWaitForTheRunningBatch() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch firstRunning = new CountDownLatch(1);
    CountDownLatch secondDone = new CountDownLatch(1);
    try (Batcher<String> batcher = new Batcher<>("test", 2, batch -> {
      if (batch.contains("slow")) {
        firstRunning.countDown();
        await(release);
      } else {
        secondDone.countDown();
      }
    }, batch -> {})) {
      batcher.submit("slow");
      assertThat(firstRunning.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
      batcher.submit("quick");
      // the quick job completes while the slow batch still holds its thread
      assertThat(secondDone.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
      assertThat(awaitIdle(batcher::idle, Duration.ofMillis(50))).isFalse();
      release.countDown();
      assertThat(awaitIdle(batcher::idle, Duration.ofSeconds(WAIT_S))).isTrue();
    }
  }

  @Test
  void aBatchThatThrowsIsHandedToOnCrashAndTheThreadGoesOn() throws Exception {
    BlockingQueue<List<String>> crashed = new LinkedBlockingQueue<>();
    BlockingQueue<List<String>> ran = new LinkedBlockingQueue<>();
    try (Batcher<String> batcher = new Batcher<>("test", batch -> {
      if (batch.contains("poison")) {
        throw new IllegalStateException("boom");
      }
      ran.add(List.copyOf(batch));
    }, batch -> crashed.add(List.copyOf(batch)))) {
      batcher.submit("poison");
      assertThat(crashed.poll(WAIT_S, TimeUnit.SECONDS)).containsExactly("poison");
      batcher.submit("fine");
      assertThat(ran.poll(WAIT_S, TimeUnit.SECONDS)).containsExactly("fine");
      assertThat(awaitIdle(batcher::idle, Duration.ofSeconds(WAIT_S))).isTrue();
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(WAIT_S, TimeUnit.SECONDS)) {
        throw new IllegalStateException("test latch not released within " + WAIT_S + " s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Waits, at most {@code timeout}, until the batcher has run every job it was given; false when it has not. */
  private static boolean awaitIdle(java.util.function.BooleanSupplier idle, Duration timeout) {
    try {
      org.awaitility.Awaitility.await().atMost(timeout).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1))
          .until(idle::getAsBoolean);
      return true;
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      return false;
    }
  }
}
