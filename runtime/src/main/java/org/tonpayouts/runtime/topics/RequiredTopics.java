package org.tonpayouts.runtime.topics;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyDescription;

/**
 * The start-up check of both apps: every topic the topology reads or writes exists, and
 * co-partitioned topics have one partition count. Kafka Streams does not create source topics and,
 * left alone, replaces its thread and warns forever; this check stops the process instead with a
 * message that names the missing topics and the command that creates them.
 */
public final class RequiredTopics {
  private RequiredTopics() {}

  /** The topics {@code topology} reads (sources) and writes (sinks), internal repartition topics excluded. */
  public static Set<String> of(Topology topology) {
    Set<String> topics = new LinkedHashSet<>();
    for (TopologyDescription.Subtopology sub : topology.describe().subtopologies()) {
      for (TopologyDescription.Node node : sub.nodes()) {
        if (node instanceof TopologyDescription.Source source && source.topicSet() != null) {
          topics.addAll(source.topicSet());
        } else if (node instanceof TopologyDescription.Sink sink && sink.topic() != null) {
          topics.add(sink.topic());
        }
      }
    }
    topics.removeIf(name -> name.endsWith("-repartition"));
    return topics;
  }

  /** The command an operator runs to create the topics, with the configuration this process was given. */
  public static String createCommand(Optional<Path> configFile) {
    String config = configFile.map(f -> " --config " + f).orElse("");
    return "java -jar streams-app.jar topics" + config + " (from a checkout: ./payouts topics" + config + ")";
  }

  /**
   * Checks the topics.
   *
   * @param coPartitioned topics that must have one partition count when they are among {@code required}
   * @throws TopicsNotReadyException when a topic is missing or partition counts differ
   * @throws KafkaUnavailableException when Kafka does not answer within {@code timeout}
   * @throws KafkaAccessDeniedException when Kafka refuses the login or the right to describe a topic
   */
  public static void verify(Admin admin, String bootstrapServers, Collection<String> required,
      Collection<String> coPartitioned, Duration timeout, String createCommand) {
    List<String> missing = new ArrayList<>();
    Map<String, Integer> partitions = new LinkedHashMap<>();
    var futures = admin.describeTopics(required).topicNameValues();
    for (String name : required) {
      try {
        TopicDescription d = KafkaCalls.await(futures.get(name), timeout, "check topic " + name, bootstrapServers);
        partitions.put(name, d.partitions().size());
      } catch (ExecutionException e) {
        if (e.getCause() instanceof UnknownTopicOrPartitionException) {
          missing.add(name);
        } else {
          throw new TopicsNotReadyException("cannot check topic " + name + " on Kafka at " + bootstrapServers + ": "
              + e.getCause(), e.getCause());
        }
      }
    }
    if (!missing.isEmpty()) {
      throw new TopicsNotReadyException("missing topics on Kafka at " + bootstrapServers + ": "
          + String.join(", ", missing) + ". Create them with: " + createCommand, null);
    }
    Map<String, Integer> together = new LinkedHashMap<>();
    coPartitioned.stream().filter(partitions::containsKey).forEach(name -> together.put(name, partitions.get(name)));
    if (together.values().stream().distinct().count() > 1) {
      throw new TopicsNotReadyException("topics " + String.join(" and ", together.keySet())
          + " must have the same partition count, have " + together + " on Kafka at " + bootstrapServers
          + ": a wallet's requests and confirmations must meet in one task. See docs/operations.md, 'Scaling out'.", null);
    }
  }
}
