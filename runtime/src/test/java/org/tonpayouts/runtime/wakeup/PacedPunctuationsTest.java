package org.tonpayouts.runtime.wakeup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.junit.jupiter.api.Test;

/** A punctuation scheduled with its pace: both start together and both end on cancel. */
class PacedPunctuationsTest {
  /** Records the paces it keeps, as a stream thread's consumer would. */
  private static final class RecordingWaker implements StreamThreadWaker {
    final List<Duration> paces = new ArrayList<>();

    @Override
    public void wake() {
    }

    @Override
    public Runnable keepPace(Duration every) {
      paces.add(every);
      return () -> paces.remove(every);
    }
  }

  @Test
  void shouldKeepThePaceOfAScheduledPunctuationUntilItIsCancelled() {
    MockProcessorContext<Object, Object> context = new MockProcessorContext<>();
    RecordingWaker waker = new RecordingWaker();
    List<Long> ticks = new ArrayList<>();

    Cancellable punctuation = PacedPunctuations.schedule(context, waker, Duration.ofMillis(50), ticks::add);

    assertThat(context.scheduledPunctuators()).hasSize(1);
    MockProcessorContext.CapturedPunctuator scheduled = context.scheduledPunctuators().get(0);
    assertThat(scheduled.getInterval()).isEqualTo(Duration.ofMillis(50));
    assertThat(scheduled.getType()).isEqualTo(PunctuationType.WALL_CLOCK_TIME);
    scheduled.getPunctuator().punctuate(7L);
    assertThat(ticks).containsExactly(7L);
    assertThat(waker.paces).containsExactly(Duration.ofMillis(50));

    punctuation.cancel();

    assertThat(scheduled.cancelled()).isTrue();
    assertThat(waker.paces).as("the pace is released with the punctuation").isEmpty();
  }
}
