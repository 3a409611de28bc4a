package org.tonpayouts.runtime.ops;

import org.tonpayouts.devnet.ManualClock;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TimedCheckTest {
  private final ExecutorService executor = Executors.newCachedThreadPool();
  private final ManualClock clock = ManualClock.fixedAt(Instant.parse("2026-03-01T12:00:00Z"));

  @AfterEach
  void stop() {
    executor.shutdownNow();
  }

  @Test
  void shouldReuseAnAnswerForTheCachePeriodThenAskAgain() {
    AtomicInteger calls = new AtomicInteger();
    TimedCheck check = new TimedCheck(() -> CheckResult.up("call " + calls.incrementAndGet()), Duration.ofSeconds(1),
        Duration.ofSeconds(10), clock, executor);

    assertThat(check.check().detail()).isEqualTo("call 1");
    clock.advance(Duration.ofSeconds(9));
    assertThat(check.check().detail()).isEqualTo("call 1");
    clock.advance(Duration.ofSeconds(1));
    assertThat(check.check().detail()).isEqualTo("call 2");
  }

  @Test
  void shouldAnswerDownInTimeWhenTheCheckHangsAndNotStartItTwice() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger started = new AtomicInteger();
    TimedCheck check = new TimedCheck(() -> {
      started.incrementAndGet();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return CheckResult.up("finally");
    }, Duration.ofMillis(50), Duration.ZERO, clock, executor);

    assertThat(check.check()).isEqualTo(CheckResult.down("no answer within 50 ms"));
    assertThat(check.check()).isEqualTo(CheckResult.down("no answer within 50 ms"));
    assertThat(started).hasValue(1);

    release.countDown();
    assertThat(check.check()).isEqualTo(CheckResult.up("finally"));
  }

  @Test
  void shouldTurnAFailingCheckIntoDownWithTheExceptionClass() {
    TimedCheck check = new TimedCheck(() -> {
      throw new IllegalStateException("boom");
    }, Duration.ofSeconds(1), Duration.ZERO, clock, executor);

    assertThat(check.check()).isEqualTo(CheckResult.down("IllegalStateException", "IllegalStateException: boom"));
  }
}
