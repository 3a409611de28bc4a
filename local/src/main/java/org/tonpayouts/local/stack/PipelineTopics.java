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
 * The payout topics of a local stack (the launcher, the end-to-end tests): what {@code payouts
 * topics} does, with replication factor 1 on a single broker (or the cluster's default) and the
 * default retention.
 */
public final class PipelineTopics {
  private PipelineTopics() {}

  /** Single-broker settings with {@code partitions} partitions per topic. */
  public static TopicSettings singleBroker(int partitions) {
    long retention = (Long) PayoutsConfig.CONFIG.defaultValues().get(PayoutsConfig.TOPICS_RETENTION_MS_CONFIG);
    return new TopicSettings(partitions, Optional.of((short) 1), retention);
  }

  /**
   * Creates the topics of {@link Topics#ALL} that are missing; existing ones are checked.
   *
   * @throws IllegalStateException when an existing topic conflicts (another partition count)
   */
  public static void create(Admin admin, String bootstrapServers, int partitions) {
    create(admin, bootstrapServers, partitions, Optional.of((short) 1));
  }

  /**
   * As {@link #create(Admin, String, int)}, with replication factor {@code replication} (empty: the
   * brokers' {@code default.replication.factor}).
   */
  public static void create(Admin admin, String bootstrapServers, int partitions, Optional<Short> replication) {
    TopicSettings settings = new TopicSettings(partitions, replication, singleBroker(partitions).retentionMs());
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
