package org.tonpayouts.embedded;

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

  /** Stops the servers. */
  @Override
  void close();
}
