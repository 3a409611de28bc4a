package org.tonpayouts.streams.send;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ResendDelayTest {
  private final ResendDelay delay = new ResendDelay(Duration.ofMillis(1200), Duration.ofSeconds(20));

  @Test
  void waitsTheMinimumUntilVerdictsSayOtherwise() {
    assertThat(delay.current()).isEqualTo(Duration.ofMillis(1200));
    for (int i = 0; i < 100; i++) {
      delay.verdictAfter(Duration.ofMillis(350)); // a quiet pipeline: verdicts within a block or two
    }
    assertThat(delay.current()).isEqualTo(Duration.ofMillis(1200));
  }

  @Test
  void followsSlowVerdictsUpAndBackDown() {
    for (int i = 0; i < 200; i++) {
      delay.verdictAfter(Duration.ofSeconds(4)); // a busy pipeline
    }
    assertThat(delay.current()).as("2.5 times the median").isEqualTo(Duration.ofMillis(10_000));
    for (int i = 0; i < ResendDelay.WINDOW + ResendDelay.RECOMPUTE_EVERY; i++) { // a window, and the next computation
      delay.verdictAfter(Duration.ofMillis(300));
    }
    assertThat(delay.current()).isEqualTo(Duration.ofMillis(1200));
  }

  @Test
  void coversABusyPipelinesTailButNotADisruption() {
    // a busy pipeline: verdicts between 0.5 and 1.5 s after their send, evenly
    for (int i = 0; i < ResendDelay.WINDOW; i++) {
      delay.verdictAfter(Duration.ofMillis(500 + (i * 1000L / ResendDelay.WINDOW)));
    }
    assertThat(delay.current()).as("past the slowest of them: none of those messages is sent again")
        .isGreaterThan(Duration.ofMillis(1500)).isLessThan(Duration.ofMillis(2600));

    // a process restarts: a fifth of the next verdicts take 20 s
    for (int i = 0; i < ResendDelay.WINDOW / 5; i++) {
      delay.verdictAfter(Duration.ofSeconds(20));
    }
    assertThat(delay.current()).as("a message lost now is still sent again within seconds")
        .isLessThan(Duration.ofSeconds(4));
  }

  @Test
  void neverWaitsLongerThanTheMaximum() {
    for (int i = 0; i < 200; i++) {
      delay.verdictAfter(Duration.ofMinutes(1));
    }
    assertThat(delay.current()).isEqualTo(Duration.ofSeconds(20));
  }

  @Test
  void oneSlowVerdictMovesTheDelayOnlyALittle() {
    for (int i = 0; i < 100; i++) {
      delay.verdictAfter(Duration.ofMillis(500));
    }
    delay.verdictAfter(Duration.ofSeconds(30));
    assertThat(delay.current()).isLessThan(Duration.ofMillis(4000));
  }

  @Test
  void refusesAMaximumBelowTheMinimum() {
    assertThatThrownBy(() -> new ResendDelay(Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
