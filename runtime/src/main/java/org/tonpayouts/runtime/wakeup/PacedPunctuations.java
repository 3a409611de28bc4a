package org.tonpayouts.runtime.wakeup;

import java.time.Duration;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.Punctuator;
import org.apache.kafka.streams.processor.api.ProcessorContext;

/**
 * Wall-clock punctuations that fire on time on a stream thread that waits long for records at
 * rest: Kafka Streams punctuates only between polls, so while one is scheduled the thread polls for
 * no longer than its interval ({@link StreamThreadWaker#keepPace}), and goes back to long polls
 * once it is cancelled.
 */
public final class PacedPunctuations {
  private PacedPunctuations() {}

  /**
   * Schedules {@code punctuator} every {@code interval} of wall-clock time; cancelling the result
   * cancels the punctuation and releases its pace. A processor cancels what it scheduled in
   * {@code close()} (Kafka Streams drops the punctuation of a closed task, not the pace).
   */
  public static Cancellable schedule(ProcessorContext<?, ?> context, StreamThreadWaker waker, Duration interval,
      Punctuator punctuator) {
    Cancellable punctuation = context.schedule(interval, PunctuationType.WALL_CLOCK_TIME, punctuator);
    Runnable release = waker.keepPace(interval);
    return () -> {
      punctuation.cancel();
      release.run();
    };
  }
}
