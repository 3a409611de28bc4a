package org.tonpayouts.embedded;

import java.util.Map;
import org.apache.kafka.clients.admin.Admin;

/**
 * What a stack needs of its Kafka, whether one broker ({@link EmbeddedKafkaBroker}) or a cluster
 * ({@link EmbeddedKafkaCluster}): where clients connect, and an admin client the servers own.
 */
public interface KafkaServers extends AutoCloseable {
  /** {@code host:port} of every broker, for {@code bootstrap.servers}. */
  String bootstrapServers();

  /** The servers' own admin client, shared and closed with them: never close it yourself. */
  Admin admin();

  /** Creates one topic with the servers' default replication; see {@link #createTopics(Map)}. */
  default void createTopic(String name, int partitions) {
    createTopics(Map.of(name, partitions));
  }

  /**
   * Creates topics with the given partition counts (the servers' default replication: 1 on a
   * broker, 3 on the cluster) and waits until the controller has them. A topic that already exists
   * with the same partition count is fine (a restarted local stack); with a different count it is
   * an error, since keying by wallet depends on the partition count.
   */
  default void createTopics(Map<String, Integer> partitionsByTopic) {
    EmbeddedKafkaBroker.createTopics(admin(), partitionsByTopic);
  }

  /** Stops the servers. */
  @Override
  void close();
}
