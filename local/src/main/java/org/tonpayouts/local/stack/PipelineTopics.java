package org.tonpayouts.local.stack;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.topics.AdminClients;
import org.tonpayouts.runtime.topics.TopicOutcome;
import org.tonpayouts.runtime.topics.TopicProvisioner;
import org.tonpayouts.runtime.topics.TopicSettings;
import org.tonpayouts.schemas.Topic;
import org.tonpayouts.schemas.Topics;

/**
 * The payout topics of a single-broker stack (the local launcher, the end-to-end tests): what
 * {@code payouts topics} does, with replication factor 1 and the default retention; or, for a
 * cluster of several brokers, with the replication factor given.
 */
public final class PipelineTopics {
  private PipelineTopics() {}

  /** Single-broker settings with {@code partitions} partitions per topic. */
  public static TopicSettings singleBroker(int partitions) {
    return new TopicSettings(partitions, Optional.of((short) 1), defaultRetentionMs());
  }

  private static long defaultRetentionMs() {
    return (Long) PayoutsConfig.CONFIG.defaultValues().get(PayoutsConfig.TOPICS_RETENTION_MS_CONFIG);
  }

  /**
   * Creates the topics of {@link Topics#ALL} that are missing; existing ones are checked.
   *
   * @throws IllegalStateException when an existing topic conflicts (another partition count)
   */
  public static void create(Admin admin, String bootstrapServers, int partitions) {
    create(admin, bootstrapServers, singleBroker(partitions));
  }

  /**
   * {@link #create(Admin, String, int)} with {@code replicationFactor} copies of every partition;
   * empty: the brokers' {@code default.replication.factor} (3 on an {@code EmbeddedKafkaCluster}).
   *
   * @throws IllegalStateException when an existing topic conflicts (another partition count, fewer
   *     replicas)
   */
  public static void create(Admin admin, String bootstrapServers, int partitions, Optional<Short> replicationFactor) {
    create(admin, bootstrapServers, new TopicSettings(partitions, replicationFactor, defaultRetentionMs()));
  }

  private static void create(Admin admin, String bootstrapServers, TopicSettings settings) {
    List<TopicOutcome> outcomes;
    try {
      outcomes = new TopicProvisioner(admin, bootstrapServers, AdminClients.TIMEOUT).provision(
          Topics.ALL.stream().map(Topic::name).toList(), Topics.CO_PARTITIONED.stream().map(Topic::name).toList(),
          settings);
    } catch (ExecutionException e) {
      throw new IllegalStateException("could not create the payout topics on " + bootstrapServers, e.getCause());
    }
    List<String> conflicts = outcomes.stream().filter(TopicOutcome::isProblem).map(TopicOutcome::line).toList();
    if (!conflicts.isEmpty()) {
      throw new IllegalStateException("payout topics on " + bootstrapServers + " conflict: " + conflicts);
    }
  }
}
