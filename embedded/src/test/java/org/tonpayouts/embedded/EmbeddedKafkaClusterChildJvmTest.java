package org.tonpayouts.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The cluster with each node in a child JVM, where a stop is a real {@code kill -9}: a transactional
 * writer loses and duplicates nothing when the leader of its partition is killed and restarted.
 *
 * <p>Tagged {@code soak} (about 40 s and three 256 MB JVMs), so it runs only on request: {@code mvn -o
 * -pl embedded test -Dexcluded.test.groups= -Dtest=EmbeddedKafkaClusterChildJvmTest}.
 */
@Tag("soak")
class EmbeddedKafkaClusterChildJvmTest {
  private static final Duration DEADLINE = Duration.ofSeconds(45);
  private static final long PROGRESS = 40;

  private static EmbeddedKafkaCluster cluster;

  @BeforeAll
  static void startCluster() {
    cluster = EmbeddedKafkaCluster.builder()
        .childJvms(true)
        .property("broker.session.timeout.ms", "3000")
        .property("broker.heartbeat.interval.ms", "500")
        .start();
    System.out.printf("child-JVM kafka cluster start-up: %d ms%n", cluster.startupTime().toMillis());
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void shouldLoseAndDuplicateNothingWhenThePartitionLeaderIsKilledAndRestarted() {
    String topic = SharedTestInfrastructure.uniqueName("leader-kill");
    cluster.createTopic(topic, 1);

    long committed;
    try (TransactionalWriter writer = TransactionalWriter.start(cluster, topic)) {
      writer.awaitCommitted(PROGRESS);
      int leader = cluster.leaderOf(topic, 0);

      cluster.stop(leader);
      assertThat(cluster.isRunning(leader)).isFalse();
      await().atMost(DEADLINE).until(() -> cluster.leaderOf(topic, 0) != leader);
      writer.awaitProgress(PROGRESS);
      cluster.restart(leader);
      await().atMost(DEADLINE).until(() -> cluster.inSyncReplicasOf(topic, 0).size() == 3);
      writer.awaitProgress(PROGRESS);

      committed = writer.stop();
    }

    assertThat(TransactionalWriter.readCommitted(cluster.bootstrapServers(), topic))
        .containsExactlyElementsOf(EmbeddedKafkaClusterTest.sequence(committed));
  }
}
