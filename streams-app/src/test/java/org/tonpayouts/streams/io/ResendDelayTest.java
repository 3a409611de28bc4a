package org.tonpayouts.streams.io;

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
    assertThat(delay.current()).as("a quarter past the slowest percent").isEqualTo(Duration.ofMillis(5000));
    for (int i = 0; i < ResendDelay.WINDOW + ResendDelay.RECOMPUTE_EVERY; i++) { // a window, and the next computation
      delay.verdictAfter(Duration.ofMillis(300));
    }
    assertThat(delay.current()).isEqualTo(Duration.ofMillis(1200));
  }

  @Test
  void waitsPastTheTailOfVerdictTimesNotTwiceTheirAverage() {
    // a busy pipeline: most verdicts within 1 s, a block's last ones 3 s after their send
    for (int i = 0; i < ResendDelay.WINDOW; i++) {
      delay.verdictAfter(Duration.ofMillis(i % 20 == 0 ? 3000 : 1000));
    }
    assertThat(delay.current()).as("a message whose verdict is in that tail is not sent again")
        .isGreaterThan(Duration.ofMillis(3000)).isEqualTo(Duration.ofMillis(3750));
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
