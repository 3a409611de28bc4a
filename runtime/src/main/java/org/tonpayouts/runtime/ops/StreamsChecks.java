package org.tonpayouts.runtime.ops;

import java.util.EnumSet;
import java.util.Set;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KafkaStreams.State;

/** Health of a {@link KafkaStreams} instance: live until it stops for good, ready while RUNNING. */
public final class StreamsChecks {
  private static final Set<State> DEAD = EnumSet.of(State.PENDING_ERROR, State.ERROR, State.PENDING_SHUTDOWN,
      State.NOT_RUNNING);

  private StreamsChecks() {}

  /** Up unless the instance is stopping or has stopped (an error, or a close). */
  public static HealthCheck live(KafkaStreams streams) {
    return () -> {
      State state = streams.state();
      return DEAD.contains(state) ? CheckResult.down("state " + state) : CheckResult.up("state " + state);
    };
  }

  /**
   * Up only while RUNNING: in REBALANCING the instance's partitions are moving and its wallets wait;
   * CREATED means not started yet, and a broker it cannot reach keeps it out of RUNNING.
   */
  public static HealthCheck ready(KafkaStreams streams) {
    return () -> {
      State state = streams.state();
      return state == State.RUNNING ? CheckResult.up("state RUNNING")
          : CheckResult.down("state " + state + (state == State.REBALANCING
              ? " (joining the group or moving partitions; stays here when Kafka is unreachable)" : ""));
    };
  }
}
