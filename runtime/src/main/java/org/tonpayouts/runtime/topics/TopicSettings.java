package org.tonpayouts.runtime.topics;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.TopicConfig;
import org.tonpayouts.runtime.PayoutsConfig;

/**
 * How every payout topic is laid out: partitions, replication and the topic configs that
 * {@code payouts topics} sets. The names and formats of the topics are in
 * {@link org.tonpayouts.schemas.Topics}; these numbers are deployment settings from
 * {@link PayoutsConfig}.
 *
 * @param partitions the partition count of every payout topic
 * @param replicationFactor empty: the broker's {@code default.replication.factor}
 * @param retentionMs {@code retention.ms}, -1 for forever
 */
public record TopicSettings(int partitions, Optional<Short> replicationFactor, long retentionMs) {
  /**
   * Always {@code delete}: every topic is keyed by subwallet id, so compaction would keep only a
   * wallet's last request, submission or settlement.
   */
  public static final String CLEANUP_POLICY = TopicConfig.CLEANUP_POLICY_DELETE;

  public TopicSettings {
    if (partitions < 1) {
      throw new IllegalArgumentException("partitions must be at least 1, got " + partitions);
    }
    replicationFactor.ifPresent(rf -> {
      if (rf < 1) {
        throw new IllegalArgumentException("replication factor must be at least 1, got " + rf);
      }
    });
    if (retentionMs < -1 || retentionMs == 0) {
      throw new IllegalArgumentException("retention.ms must be -1 (forever) or positive, got " + retentionMs);
    }
  }

  public static TopicSettings from(PayoutsConfig config) {
    int rf = config.getInt(PayoutsConfig.TOPICS_REPLICATION_FACTOR_CONFIG);
    return new TopicSettings(config.getInt(PayoutsConfig.TOPICS_PARTITIONS_CONFIG),
        rf < 0 ? Optional.empty() : Optional.of((short) rf), config.getLong(PayoutsConfig.TOPICS_RETENTION_MS_CONFIG));
  }

  /** The topic configs every payout topic gets, in a stable order. */
  public Map<String, String> topicConfigs() {
    Map<String, String> configs = new LinkedHashMap<>();
    configs.put(TopicConfig.CLEANUP_POLICY_CONFIG, CLEANUP_POLICY);
    configs.put(TopicConfig.RETENTION_MS_CONFIG, Long.toString(retentionMs));
    return configs;
  }
}
