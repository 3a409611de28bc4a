package org.tonpayouts.runtime.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.embedded.EmbeddedKafkaBroker;
import org.tonpayouts.embedded.SharedTestInfrastructure;

/** The process's {@code /metrics} keeps every Kafka Streams meter, whatever the stores and across restarts. */
class ProcessMetricsTest {
  @TempDir
  Path state;

  /**
   * A key-value store and a window store (as streams-app has): Kafka Streams tags them with
   * different keys, which Prometheus refused for whichever registered second. And a second
   * instance in the same process (a restart of the topology) serves its own meters at once.
   */
  @Test
  void shouldServeTheStateStoreMetersOfEveryStoreKindAndServeThemAgainAfterARestart() {
    EmbeddedKafkaBroker kafka = SharedTestInfrastructure.kafka();
    String input = SharedTestInfrastructure.uniqueName("metrics-in");
    kafka.createTopic(input, 1);
    String applicationId = SharedTestInfrastructure.uniqueName("metrics-app");
    try (ProcessMetrics metrics = new ProcessMetrics("test-app")) {
      for (int run = 1; run <= 2; run++) {
        try (KafkaStreams streams = new KafkaStreams(topology(input), properties(kafka, applicationId + "-" + run))) {
          metrics.bind(streams);
          streams.setStateListener((now, before) -> metrics.onStateChange(streams, now));
          streams.start();
          await().atMost(Duration.ofSeconds(30)).until(() -> streams.state() == KafkaStreams.State.RUNNING);
          String thread = "thread_id=\"" + streams.metadataForLocalThreads().iterator().next().threadName() + "\"";
          int r = run;
          // bound again by the listener on RUNNING: the binder's own look is a minute away
          await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(metrics.scrape()).as("run %s", r)
              .containsPattern("kafka_stream_state_num_entries_active_mem_table\\{[^}]*state_id=\"heads\","
                  + "[^}]*" + thread)
              .containsPattern("kafka_stream_state_num_entries_active_mem_table\\{[^}]*state_id=\"memory\",[^}]*" + thread));
          assertThat(metrics.registrationFailures()).as("meters the registry refused, run %s", run).isZero();
        }
      }
    }
  }

  private static Topology topology(String input) {
    StreamsBuilder builder = new StreamsBuilder();
    builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("heads"), Serdes.String(),
        Serdes.String()));
    builder.addStateStore(Stores.windowStoreBuilder(Stores.persistentWindowStore("memory", Duration.ofHours(1),
        Duration.ofHours(1), false), Serdes.String(), Serdes.String()));
    builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
        .process(() -> new Processor<String, String, Void, Void>() {
          @Override
          public void process(Record<String, String> record) {}
        }, "heads", "memory");
    return builder.build();
  }

  private Properties properties(EmbeddedKafkaBroker kafka, String applicationId) {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(StreamsConfig.STATE_DIR_CONFIG, state.toString());
    return p;
  }
}
