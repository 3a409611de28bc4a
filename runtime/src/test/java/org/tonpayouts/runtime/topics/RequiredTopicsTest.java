package org.tonpayouts.runtime.topics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.junit.jupiter.api.Test;
import org.tonpayouts.embedded.SharedTestInfrastructure;

/** The start-up check of both apps, against a real broker. */
class RequiredTopicsTest {
  private final Admin admin = SharedTestInfrastructure.kafka().admin();
  private final String servers = SharedTestInfrastructure.kafka().bootstrapServers();
  private final String prefix = SharedTestInfrastructure.uniqueName("req");

  @Test
  void shouldListTheTopicsATopologyReadsAndWrites() {
    Topology topology = new Topology();
    topology.addSource("in", "a", "b");
    topology.addProcessor("p", () -> new org.apache.kafka.streams.processor.api.Processor<Object, Object, Object, Object>() {
      @Override
      public void process(org.apache.kafka.streams.processor.api.Record<Object, Object> record) {
      }
    }, "in");
    topology.addSink("out", "c", "p");

    assertThat(RequiredTopics.of(topology)).containsExactly("a", "b", "c");
  }

  @Test
  void shouldIgnoreInternalRepartitionTopics() {
    StreamsBuilder builder = new StreamsBuilder();
    builder.<String, String>stream("in").selectKey((k, v) -> v).groupByKey().count();
    assertThat(RequiredTopics.of(builder.build())).containsExactly("in");
  }

  @Test
  void shouldNameTheMissingTopicsAndTheCommandThatCreatesThem() throws Exception {
    String present = prefix + ".present";
    admin.createTopics(List.of(new NewTopic(present, 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
    awaitVisible(present);
    String command = RequiredTopics.createCommand(Optional.of(Path.of("/etc/payouts.properties")));

    assertThatThrownBy(() -> RequiredTopics.verify(admin, servers,
        List.of(prefix + ".requests", present, prefix + ".confirmations"), List.of(), Duration.ofSeconds(30), command))
        .isInstanceOf(TopicsNotReadyException.class)
        .hasMessage("missing topics on Kafka at " + servers + ": " + prefix + ".requests, " + prefix
            + ".confirmations. Create them with: java -jar streams-app.jar topics --config /etc/payouts.properties"
            + " (from a checkout: ./payouts topics --config /etc/payouts.properties)");
  }

  @Test
  void shouldRefuseCoPartitionedTopicsWithDifferentCounts() throws Exception {
    admin.createTopics(List.of(new NewTopic(prefix + ".r", 2, (short) 1), new NewTopic(prefix + ".c", 3, (short) 1)))
        .all().get(30, TimeUnit.SECONDS);
    List<String> both = List.of(prefix + ".r", prefix + ".c");
    both.forEach(this::awaitVisible);

    assertThatThrownBy(() -> RequiredTopics.verify(admin, servers, both, both, Duration.ofSeconds(30), "x"))
        .isInstanceOf(TopicsNotReadyException.class)
        .hasMessageContaining("must have the same partition count, have {" + prefix + ".r=2, " + prefix + ".c=3}");
  }

  @Test
  void shouldPassWhenEverythingIsThere() throws Exception {
    admin.createTopics(List.of(new NewTopic(prefix + ".x", 2, (short) 1), new NewTopic(prefix + ".y", 2, (short) 1)))
        .all().get(30, TimeUnit.SECONDS);
    List<String> both = List.of(prefix + ".x", prefix + ".y");
    both.forEach(this::awaitVisible);

    RequiredTopics.verify(admin, servers, both, both, Duration.ofSeconds(30), "x");
  }

  /** The broker learns of a created topic asynchronously (KRaft metadata). */
  private void awaitVisible(String topic) {
    await(topic + " visible").atMost(Duration.ofSeconds(30)).ignoreExceptions()
        .until(() -> admin.describeTopics(List.of(topic)).allTopicNames().get(5, TimeUnit.SECONDS).size() == 1);
  }

  @Test
  void shouldNameTheClusterWhenKafkaDoesNotAnswer() {
    try (AdminClients.Session nowhere = AdminClients.open("127.0.0.1:1", "test-nowhere")) {
      assertThatThrownBy(() -> RequiredTopics.verify(nowhere.admin(), "127.0.0.1:1", List.of("a"), List.of(),
          Duration.ofSeconds(2), "x"))
          .isInstanceOf(KafkaUnavailableException.class)
          .hasMessageStartingWith("no answer from Kafka at 127.0.0.1:1");
    }
  }
}
