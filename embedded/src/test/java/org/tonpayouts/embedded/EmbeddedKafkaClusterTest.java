package org.tonpayouts.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.stream.LongStream;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The three-node cluster forms as production is shaped, and a transactional producer with a
 * read_committed reader loses and duplicates nothing while nodes are stopped and restarted.
 */
class EmbeddedKafkaClusterTest {
  private static final Duration DEADLINE = Duration.ofSeconds(45);
  /** Records a writer must commit after each disturbance: proof that they keep flowing. */
  private static final long PROGRESS = 40;

  private static EmbeddedKafkaCluster cluster;

  @BeforeAll
  static void startCluster() {
    cluster = EmbeddedKafkaCluster.builder()
        // a stopped broker is fenced after 3 s instead of 9 s: the same failover, sooner
        .property("broker.session.timeout.ms", "3000")
        .property("broker.heartbeat.interval.ms", "500")
        .start();
    System.out.printf("embedded kafka cluster start-up: %d ms%n", cluster.startupTime().toMillis());
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void shouldFormAClusterOfThreeWithEveryReplicaInSync() throws Exception {
    String topic = SharedTestInfrastructure.uniqueName("formed");

    cluster.createTopic(topic, 2);

    assertThat(cluster.bootstrapServers().split(",")).hasSize(3);
    assertThat(cluster.admin().describeCluster().nodes().get()).hasSize(3);
    assertThat(cluster.admin().describeMetadataQuorum().quorumInfo().get().voters()).hasSize(3);
    assertThat(cluster.activeController()).isIn(cluster.nodeIds());
    var partitions = cluster.admin().describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions();
    assertThat(partitions).allSatisfy(p -> assertThat(p.replicas()).hasSize(3));
    await().atMost(DEADLINE).untilAsserted(() -> {
      assertThat(cluster.inSyncReplicasOf(topic, 0)).containsExactly(1, 2, 3);
      assertThat(cluster.inSyncReplicasOf(topic, 1)).containsExactly(1, 2, 3);
    });
    ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
    ConfigEntry minIsr = cluster.admin().describeConfigs(List.of(resource)).all().get().get(resource)
        .get("min.insync.replicas");
    assertThat(minIsr.value()).isEqualTo("2");
  }

  @Test
  void shouldRefuseAnUnknownNodeAndARestartOfARunningOne() {
    assertThatThrownBy(() -> cluster.stop(4)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no node 4");
    assertThatThrownBy(() -> cluster.restart(1)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("node 1 is running");
    assertThatThrownBy(() -> cluster.restart(cluster.nodeIds())).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("node 1 is running");
    assertThatThrownBy(() -> cluster.stop(List.of())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no node given");
    assertThat(cluster.nodeIds()).allMatch(cluster::isRunning);
  }

  @Test
  void shouldLoseAndDuplicateNothingWhileThePartitionLeaderIsStoppedAndRestarted() {
    String topic = SharedTestInfrastructure.uniqueName("leader-stop");
    cluster.createTopic(topic, 1);

    long committed;
    try (TransactionalWriter writer = TransactionalWriter.start(cluster, topic)) {
      writer.awaitCommitted(PROGRESS);
      int leader = cluster.leaderOf(topic, 0);

      cluster.stop(leader);
      await().atMost(DEADLINE).until(() -> cluster.leaderOf(topic, 0) != leader);
      writer.awaitProgress(PROGRESS);
      cluster.restart(leader);
      await().atMost(DEADLINE).until(() -> cluster.inSyncReplicasOf(topic, 0).size() == 3);
      writer.awaitProgress(PROGRESS);

      committed = writer.stop();
    }

    assertThat(TransactionalWriter.readCommitted(cluster.bootstrapServers(), topic)).containsExactlyElementsOf(sequence(committed));
  }

  @Test
  @Tag("soak") // about 20 s: with the soaks (docs/soak.md), out of the default run
  void shouldLoseAndDuplicateNothingWhileTheActiveControllerIsStopped() {
    String topic = SharedTestInfrastructure.uniqueName("controller-stop");
    cluster.createTopic(topic, 1);

    long committed;
    try (TransactionalWriter writer = TransactionalWriter.start(cluster, topic)) {
      writer.awaitCommitted(PROGRESS);
      int controller = cluster.activeController();

      cluster.stop(controller);
      await().atMost(DEADLINE).until(() -> cluster.activeController() != controller);
      writer.awaitProgress(PROGRESS);
      cluster.restart(controller);
      cluster.awaitAllInSync(DEADLINE);
      writer.awaitProgress(PROGRESS);

      committed = writer.stop();
    }

    assertThat(TransactionalWriter.readCommitted(cluster.bootstrapServers(), topic)).containsExactlyElementsOf(sequence(committed));
  }

  @Test
  @Tag("soak") // about 20 s: with the soaks (docs/soak.md), out of the default run
  void shouldKeepRecordsFlowingThroughARollingRestartOfAllThree() {
    String topic = SharedTestInfrastructure.uniqueName("rolling");
    cluster.createTopic(topic, 1);

    long committed;
    try (TransactionalWriter writer = TransactionalWriter.start(cluster, topic)) {
      writer.awaitCommitted(PROGRESS);
      for (int node : cluster.nodeIds()) {
        cluster.stop(node);
        writer.awaitProgress(PROGRESS);
        cluster.restart(node);
        cluster.awaitAllInSync(DEADLINE);
      }
      writer.awaitProgress(PROGRESS);

      committed = writer.stop();
    }

    assertThat(cluster.nodeIds()).allMatch(cluster::isRunning);
    assertThat(TransactionalWriter.readCommitted(cluster.bootstrapServers(), topic)).containsExactlyElementsOf(sequence(committed));
  }

  @Test
  @Tag("soak") // about 15 s: with the soaks (docs/soak.md), out of the default run
  void shouldLoseAndDuplicateNothingWhenTheWholeClusterStopsAndComesBack() {
    String topic = SharedTestInfrastructure.uniqueName("whole-cluster");
    cluster.createTopic(topic, 1);

    long committed;
    try (TransactionalWriter writer = TransactionalWriter.start(cluster, topic)) {
      writer.awaitCommitted(PROGRESS);

      cluster.stop(cluster.nodeIds());
      assertThat(cluster.nodeIds()).noneMatch(cluster::isRunning);
      cluster.restart(cluster.nodeIds());
      cluster.awaitAllInSync(DEADLINE);
      writer.awaitProgress(PROGRESS);

      committed = writer.stop();
    }

    assertThat(cluster.nodeIds()).allMatch(cluster::isRunning);
    assertThat(TransactionalWriter.readCommitted(cluster.bootstrapServers(), topic)).containsExactlyElementsOf(sequence(committed));
  }

  static List<Long> sequence(long count) {
    return LongStream.range(0, count).boxed().toList();
  }

}
