package org.tonpayouts.runtime.topics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.embedded.EmbeddedKafkaBroker;
import org.tonpayouts.embedded.SharedTestInfrastructure;

/** {@code payouts topics} against a real KRaft broker; every test uses its own topic names. */
class TopicProvisionerTest {
  private static final TopicSettings SETTINGS = new TopicSettings(3, Optional.of((short) 1), 86_400_000L);

  private EmbeddedKafkaBroker kafka;
  private Admin admin;
  private TopicProvisioner provisioner;
  private String requests;
  private String confirmations;
  private String settlements;

  @BeforeEach
  void setUp() {
    kafka = SharedTestInfrastructure.kafka();
    admin = kafka.admin();
    provisioner = new TopicProvisioner(admin, kafka.bootstrapServers(), Duration.ofSeconds(30));
    String prefix = SharedTestInfrastructure.uniqueName("prov");
    requests = prefix + ".requests";
    confirmations = prefix + ".confirmations";
    settlements = prefix + ".settlements";
  }

  private List<TopicOutcome> provision(TopicSettings settings) throws Exception {
    List<String> names = List.of(requests, confirmations, settlements);
    List<TopicOutcome> outcomes = provisioner.provision(names, List.of(requests, confirmations), settings);
    // the broker learns of new topics asynchronously (KRaft metadata): wait until it describes them all
    await("topics visible").atMost(Duration.ofSeconds(30)).ignoreExceptions()
        .until(() -> admin.describeTopics(names).allTopicNames().get(5, TimeUnit.SECONDS).size() == names.size());
    return outcomes;
  }

  @Test
  void shouldCreateEveryTopicWithTheConfiguredLayoutThenCreateNothingTheSecondTime() throws Exception {
    List<TopicOutcome> first = provision(SETTINGS);

    assertThat(first).hasSize(3).allMatch(o -> o instanceof TopicOutcome.Created);
    assertThat(first.get(0).line()).isEqualTo("created   " + requests
        + " partitions=3 replication=1 cleanup.policy=delete retention.ms=86400000");
    var description = admin.describeTopics(List.of(settlements)).allTopicNames().get(30, TimeUnit.SECONDS)
        .get(settlements);
    assertThat(description.partitions()).hasSize(3);
    assertThat(topicConfig(settlements, TopicConfig.RETENTION_MS_CONFIG)).isEqualTo("86400000");
    assertThat(topicConfig(settlements, TopicConfig.CLEANUP_POLICY_CONFIG)).isEqualTo("delete");

    List<TopicOutcome> second = provision(SETTINGS);

    assertThat(second).hasSize(3).allMatch(o -> o instanceof TopicOutcome.Unchanged);
    assertThat(second).noneMatch(TopicOutcome::isProblem);
    assertThat(second.get(2).line()).startsWith("ok        " + settlements + " partitions=3 replication=1");
  }

  @Test
  void shouldPutBackADriftedRetentionAndCleanupPolicy() throws Exception {
    provision(SETTINGS);
    ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, confirmations);
    admin.incrementalAlterConfigs(Map.of(resource, List.of(
        new AlterConfigOp(new ConfigEntry(TopicConfig.RETENTION_MS_CONFIG, "1000"), AlterConfigOp.OpType.SET),
        new AlterConfigOp(new ConfigEntry(TopicConfig.CLEANUP_POLICY_CONFIG, "compact"), AlterConfigOp.OpType.SET))))
        .all().get(30, TimeUnit.SECONDS);

    List<TopicOutcome> outcomes = provision(SETTINGS);

    assertThat(outcomes.get(1)).isInstanceOf(TopicOutcome.Updated.class);
    assertThat(outcomes.get(1).line()).isEqualTo("updated   " + confirmations
        + " cleanup.policy=compact->delete retention.ms=1000->86400000");
    assertThat(topicConfig(confirmations, TopicConfig.RETENTION_MS_CONFIG)).isEqualTo("86400000");
    assertThat(topicConfig(confirmations, TopicConfig.CLEANUP_POLICY_CONFIG)).isEqualTo("delete");
    assertThat(provision(SETTINGS)).allMatch(o -> o instanceof TopicOutcome.Unchanged);
  }

  @Test
  void shouldReportButNeverChangeAnotherPartitionCount() throws Exception {
    admin.createTopics(List.of(new NewTopic(confirmations, 5, (short) 1))).all().get(30, TimeUnit.SECONDS);
    await("topic visible").atMost(Duration.ofSeconds(30)).ignoreExceptions()
        .until(() -> admin.describeTopics(List.of(confirmations)).allTopicNames().get(5, TimeUnit.SECONDS).size() == 1);

    List<TopicOutcome> outcomes = provision(SETTINGS);

    assertThat(outcomes).filteredOn(TopicOutcome::isProblem).extracting(TopicOutcome::line).containsExactly(
        "CONFLICT  " + confirmations + " has 5 partitions, topics.partitions is 3: not changed (repartitioning moves"
            + " wallets between tasks; see docs/operations.md, 'Scaling out'), set topics.partitions=5 to accept it",
        "CONFLICT  " + requests + "+" + confirmations + " must have the same partition count, have {" + requests
            + "=3, " + confirmations + "=5}: a wallet's requests and confirmations must meet in one task");
    assertThat(admin.describeTopics(List.of(confirmations)).allTopicNames().get(30, TimeUnit.SECONDS)
        .get(confirmations).partitions()).hasSize(5);
  }

  @Test
  void shouldReportAReplicationFactorBelowTheConfiguredOne() throws Exception {
    provision(SETTINGS);

    List<TopicOutcome> outcomes = provision(new TopicSettings(3, Optional.of((short) 3), 86_400_000L));

    assertThat(outcomes).allMatch(TopicOutcome::isProblem);
    assertThat(outcomes.get(0).line()).contains("has replication factor 1, topics.replication.factor is 3");
  }

  private String topicConfig(String topic, String key) throws Exception {
    ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
    return admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource).get(key).value();
  }
}
