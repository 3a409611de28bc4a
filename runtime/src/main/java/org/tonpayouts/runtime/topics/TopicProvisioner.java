package org.tonpayouts.runtime.topics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates or checks the payout topics: what {@code payouts topics} runs. Idempotent: a second run
 * creates nothing and changes nothing.
 *
 * <ul>
 *   <li>a missing topic is created with the configured partitions, replication and configs;</li>
 *   <li>an existing topic whose {@code cleanup.policy} or {@code retention.ms} differs is updated
 *       (both are safe to change on a live topic);</li>
 *   <li>a partition count other than the configured one, a replication factor below the configured
 *       one, or co-partitioned topics with different counts are reported as conflicts and never
 *       changed: more partitions move wallets between tasks (docs/operations.md, "Scaling out").</li>
 * </ul>
 */
public final class TopicProvisioner {
  private static final Logger log = LoggerFactory.getLogger(TopicProvisioner.class);

  private final Admin admin;
  private final String bootstrapServers;
  private final Duration timeout;

  public TopicProvisioner(Admin admin, String bootstrapServers, Duration timeout) {
    this.admin = Objects.requireNonNull(admin, "admin");
    this.bootstrapServers = Objects.requireNonNull(bootstrapServers, "bootstrapServers");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
  }

  /**
   * Provisions {@code names} in order.
   *
   * @param coPartitioned names (among {@code names}) that must end with the same partition count
   */
  public List<TopicOutcome> provision(List<String> names, Collection<String> coPartitioned, TopicSettings settings)
      throws ExecutionException {
    Map<String, TopicDescription> existing = describe(names);
    Map<String, Map<String, String>> configs = configsOf(existing.keySet());
    List<TopicOutcome> outcomes = new ArrayList<>();
    Map<String, Integer> partitionCounts = new LinkedHashMap<>();
    for (String name : names) {
      TopicDescription description = existing.get(name);
      TopicOutcome outcome = description == null
          ? create(name, settings)
          : reconcile(description, configs.getOrDefault(name, Map.of()), settings);
      outcomes.add(outcome);
      partitionCounts.put(name, description == null ? settings.partitions() : description.partitions().size());
      log.info("topic provisioned {}", outcome.line().replaceAll("\\s+", " "));
    }
    coPartitionConflict(partitionCounts, coPartitioned).ifPresent(outcomes::add);
    return outcomes;
  }

  private Map<String, TopicDescription> describe(List<String> names) throws ExecutionException {
    Map<String, TopicDescription> found = new HashMap<>();
    var futures = admin.describeTopics(names).topicNameValues();
    for (String name : names) {
      try {
        found.put(name, KafkaCalls.await(futures.get(name), timeout, "describe topic " + name, bootstrapServers));
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
          throw e;
        }
      }
    }
    return found;
  }

  /**
   * A topic the controller says exists may take a moment to reach the broker's metadata (KRaft
   * propagates it asynchronously): ask again for a while.
   */
  private TopicDescription describeOnceVisible(String name) throws ExecutionException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      TopicDescription d = describe(List.of(name)).get(name);
      if (d != null) {
        return d;
      }
      if (System.nanoTime() > deadline) {
        throw new KafkaUnavailableException("topic " + name + " exists but Kafka at " + bootstrapServers
            + " does not describe it within " + timeout.toSeconds() + " s", null);
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new KafkaUnavailableException("interrupted while waiting for topic " + name, e);
      }
    }
  }

  private Map<String, Map<String, String>> configsOf(Collection<String> names) throws ExecutionException {
    if (names.isEmpty()) {
      return Map.of();
    }
    List<ConfigResource> resources = names.stream().map(n -> new ConfigResource(ConfigResource.Type.TOPIC, n)).toList();
    Map<ConfigResource, Config> all = KafkaCalls.await(admin.describeConfigs(resources).all(), timeout,
        "read topic configs", bootstrapServers);
    Map<String, Map<String, String>> byTopic = new HashMap<>();
    all.forEach((resource, config) -> {
      Map<String, String> values = new HashMap<>();
      for (ConfigEntry entry : config.entries()) {
        values.put(entry.name(), entry.value());
      }
      byTopic.put(resource.name(), values);
    });
    return byTopic;
  }

  private TopicOutcome create(String name, TopicSettings settings) throws ExecutionException {
    NewTopic topic = new NewTopic(name, Optional.of(settings.partitions()), settings.replicationFactor())
        .configs(settings.topicConfigs());
    try {
      KafkaCalls.await(admin.createTopics(List.of(topic)).all(), timeout, "create topic " + name, bootstrapServers);
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw e;
      }
      // created between our describe and our create (another run): judge it as it is
      TopicDescription now = describeOnceVisible(name);
      return reconcile(now, configsOf(List.of(name)).getOrDefault(name, Map.of()), settings);
    }
    return new TopicOutcome.Created(name, settings.partitions(),
        settings.replicationFactor().map(String::valueOf).orElse("broker-default"), settings.topicConfigs());
  }

  private TopicOutcome reconcile(TopicDescription description, Map<String, String> current, TopicSettings settings)
      throws ExecutionException {
    String name = description.name();
    int partitions = description.partitions().size();
    int replication = description.partitions().get(0).replicas().size();
    if (partitions != settings.partitions()) {
      return new TopicOutcome.Conflict(name, "has " + partitions + " partitions, topics.partitions is "
          + settings.partitions() + ": not changed (repartitioning moves wallets between tasks; see docs/operations.md,"
          + " 'Scaling out'), set topics.partitions=" + partitions + " to accept it");
    }
    if (settings.replicationFactor().isPresent() && replication < settings.replicationFactor().get()) {
      return new TopicOutcome.Conflict(name, "has replication factor " + replication + ", topics.replication.factor is "
          + settings.replicationFactor().get() + ": not changed (reassign its partitions with"
          + " kafka-reassign-partitions.sh)");
    }
    Map<String, String> wanted = settings.topicConfigs();
    Map<String, String> before = new LinkedHashMap<>();
    Map<String, String> after = new LinkedHashMap<>();
    wanted.forEach((key, value) -> {
      if (!value.equals(current.get(key))) {
        before.put(key, current.get(key));
        after.put(key, value);
      }
    });
    if (after.isEmpty()) {
      return new TopicOutcome.Unchanged(name, partitions, replication, wanted);
    }
    List<AlterConfigOp> ops = after.entrySet().stream()
        .map(e -> new AlterConfigOp(new ConfigEntry(e.getKey(), e.getValue()), AlterConfigOp.OpType.SET)).toList();
    ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, name);
    KafkaCalls.await(admin.incrementalAlterConfigs(Map.of(resource, ops)).all(), timeout,
        "update configs of topic " + name, bootstrapServers);
    return new TopicOutcome.Updated(name, before, after);
  }

  private static Optional<TopicOutcome> coPartitionConflict(Map<String, Integer> counts, Collection<String> together) {
    Map<String, Integer> relevant = new LinkedHashMap<>();
    together.forEach(name -> {
      if (counts.containsKey(name)) {
        relevant.put(name, counts.get(name));
      }
    });
    if (relevant.values().stream().distinct().count() <= 1) {
      return Optional.empty();
    }
    return Optional.of(new TopicOutcome.Conflict(String.join("+", relevant.keySet()),
        "must have the same partition count, have " + relevant + ": a wallet's requests and confirmations must meet"
            + " in one task"));
  }
}
