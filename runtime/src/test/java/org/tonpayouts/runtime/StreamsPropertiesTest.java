package org.tonpayouts.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.tonpayouts.runtime.topics.TopicSettings;

/** Group membership and topic settings taken from the configuration. */
class StreamsPropertiesTest {
  private static PayoutsConfig config(Map<String, String> env) {
    return PayoutsConfig.load(Optional.empty(), env);
  }

  /** CloseOptions keeps its choice in a protected field: read it the way a subclass may. */
  private static final class Inspect extends CloseOptions {
    Inspect(CloseOptions options) {
      super(options);
    }

    GroupMembershipOperation operation() {
      return operation;
    }
  }

  @Test
  void shouldUseDynamicMembershipAndLeaveTheGroupOnCloseByDefault() {
    PayoutsConfig config = config(Map.of());

    Properties props = StreamsProperties.base(config, "app");

    assertThat(props).doesNotContainKey(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
    assertThat(new Inspect(StreamsProperties.closeOptions(config, java.time.Duration.ofSeconds(5))).operation())
        .isEqualTo(CloseOptions.GroupMembershipOperation.LEAVE_GROUP);
  }

  @Test
  void shouldUseStaticMembershipAndStayInTheGroupWhenAnInstanceIdIsSet() {
    PayoutsConfig config = config(Map.of("PAYOUTS_STREAMS_GROUP_INSTANCE_ID", "payouts-0"));

    Properties props = StreamsProperties.base(config, "app");

    assertThat(props).containsEntry(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "payouts-0");
    assertThat(new StreamsConfig(props).getMainConsumerConfigs("app", "client", 0))
        .containsEntry(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "payouts-0-0");
    assertThat(new Inspect(StreamsProperties.closeOptions(config, java.time.Duration.ofSeconds(5))).operation())
        .isEqualTo(CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP);
  }

  @Test
  void shouldGiveTheConsumersKafkasSessionTimeoutByDefaultAndAShorterOneWhenSet() {
    Properties defaults = StreamsProperties.base(config(Map.of()), "app");
    assertThat(new StreamsConfig(defaults).getMainConsumerConfigs("app", "client", 0))
        .containsEntry(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 45_000)
        .containsEntry(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 3_000);

    Properties shorter = StreamsProperties.base(config(Map.of("PAYOUTS_STREAMS_SESSION_TIMEOUT_MS", "6000")), "app");
    // a killed or paused instance's wallets move after 6 s; heartbeats stay a third of the session
    assertThat(new StreamsConfig(shorter).getMainConsumerConfigs("app", "client", 0))
        .containsEntry(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 6_000)
        .containsEntry(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 2_000);
  }

  @Test
  void shouldReadTopicSettingsWithTheBrokerDefaultReplicationUnlessOneIsGiven() {
    TopicSettings defaults = TopicSettings.from(config(Map.of()));
    assertThat(defaults).isEqualTo(new TopicSettings(12, Optional.empty(), 604_800_000L));

    TopicSettings set = TopicSettings.from(config(Map.of("PAYOUTS_TOPICS_PARTITIONS", "24",
        "PAYOUTS_TOPICS_REPLICATION_FACTOR", "3", "PAYOUTS_TOPICS_RETENTION_MS", "-1")));
    assertThat(set).isEqualTo(new TopicSettings(24, Optional.of((short) 3), -1L));
    assertThat(set.topicConfigs()).containsEntry("cleanup.policy", "delete").containsEntry("retention.ms", "-1");
  }

  @Test
  void shouldRefuseARetentionOfZero() {
    assertThatThrownBy(() -> config(Map.of("PAYOUTS_TOPICS_RETENTION_MS", "0")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("topics.retention.ms")
        .hasMessageContaining("-1 (forever) or a positive number");
  }
}
