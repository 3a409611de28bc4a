package org.tonpayouts.runtime.topics;

import java.util.Map;
import java.util.stream.Collectors;

/** What {@link TopicProvisioner} did with one topic; {@link #line()} is what {@code payouts topics} prints. */
public sealed interface TopicOutcome {
  String topic();

  /** One line for the operator: what was done or found, and what to do about a conflict. */
  String line();

  /** True when the topic is not as the configuration says and was not fixed automatically. */
  default boolean isProblem() {
    return false;
  }

  /** The topic did not exist and was created. */
  record Created(String topic, int partitions, String replication, Map<String, String> configs)
      implements TopicOutcome {
    @Override
    public String line() {
      return "created   " + topic + " partitions=" + partitions + " replication=" + replication + " " + show(configs);
    }
  }

  /** The topic exists as configured (or was created meanwhile by someone else). */
  record Unchanged(String topic, int partitions, int replication, Map<String, String> configs) implements TopicOutcome {
    @Override
    public String line() {
      return "ok        " + topic + " partitions=" + partitions + " replication=" + replication + " " + show(configs);
    }
  }

  /** The topic exists; configs that differed (old and new value) were set as configured. */
  record Updated(String topic, Map<String, String> before, Map<String, String> after) implements TopicOutcome {
    @Override
    public String line() {
      return "updated   " + topic + " " + after.entrySet().stream()
          .map(e -> e.getKey() + "=" + before.get(e.getKey()) + "->" + e.getValue())
          .collect(Collectors.joining(" "));
    }
  }

  /** The topic differs in a way that is never changed automatically (partitions, replication). */
  record Conflict(String topic, String problem) implements TopicOutcome {
    @Override
    public String line() {
      return "CONFLICT  " + topic + " " + problem;
    }

    @Override
    public boolean isProblem() {
      return true;
    }
  }

  private static String show(Map<String, String> configs) {
    return configs.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" "));
  }
}
