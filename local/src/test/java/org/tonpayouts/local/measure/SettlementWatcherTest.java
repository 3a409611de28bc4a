package org.tonpayouts.local.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.tonpayouts.embedded.EmbeddedKafkaBroker;
import org.tonpayouts.embedded.SharedTestInfrastructure;
import org.tonpayouts.local.audit.TransferRef;
import org.tonpayouts.local.stack.PipelineTopics;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.schemas.TransferKind;

/** The watcher's running tally of a load, on the in-process broker. */
class SettlementWatcherTest {
  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final int PARTITIONS = 3;
  private static final String TX = "ab".repeat(32);
  /** Every settlement's record timestamp: when streams-app would have forwarded it. */
  private static final long PRODUCED_AT = System.currentTimeMillis() - 60_000;
  private static EmbeddedKafkaBroker kafka;

  @BeforeAll
  static void topics() {
    kafka = SharedTestInfrastructure.kafka();
    PipelineTopics.create(kafka.admin(), kafka.bootstrapServers(), PARTITIONS);
  }

  @Test
  void shouldTallyTheExpectedTransfersFromTheTopicsEndOnward() {
    String run = SharedTestInfrastructure.uniqueName("watch");
    TransferRef earlier = new TransferRef(run + "-0", "payout");
    TransferRef a = new TransferRef(run + "-1", "payout");
    TransferRef b = new TransferRef(run + "-2", "payout");
    TransferRef c = new TransferRef(run + "-3", "payout");
    try (KafkaProducer<String, Settlement> producer = producer()) {
      send(producer, earlier, SettlementStatus.SETTLED);
      producer.flush();

      try (SettlementWatcher watcher = SettlementWatcher.fromNow(kafka.bootstrapServers(), Clock.systemUTC(),
          List.of(earlier, a, b, c))) {
        send(producer, a, SettlementStatus.SETTLED);
        send(producer, b, SettlementStatus.FAILED);
        send(producer, a, SettlementStatus.SETTLED);
        send(producer, new TransferRef(run + "-other", "payout"), SettlementStatus.SETTLED);
        producer.flush();

        await().atMost(DEADLINE).until(() -> watcher.tally().settled() == 2 && watcher.tally().duplicates() == 1);
        SettlementWatcher.Tally tally = watcher.tally();
        assertThat(tally.expected()).isEqualTo(4);
        assertThat(tally.missing()).as("c never settled; the earlier settlement is before the watcher's start")
            .isEqualTo(2);
        assertThat(tally.statusCounts()).containsEntry(SettlementStatus.SETTLED, 1)
            .containsEntry(SettlementStatus.FAILED, 1);
        assertThat(watcher.firstArrivals()).extracting(ObservedSettlement::ref).containsExactlyInAnyOrder(a, b);
        assertThat(watcher.settlements(earlier)).isEmpty();
        assertThat(watcher.settlements(a)).hasSize(2);
        assertThat(watcher.firstArrivals()).allSatisfy(o -> {
          assertThat(o.producedAtMillis()).isEqualTo(PRODUCED_AT);
          assertThat(o.observedAtMillis()).isGreaterThan(PRODUCED_AT);
        });
      }
    }
  }

  private static void send(KafkaProducer<String, Settlement> producer, TransferRef ref, SettlementStatus status) {
    boolean settled = status == SettlementStatus.SETTLED;
    Settlement s = Settlement.of(ref.requestId(), ref.transferId(), 0, 698983191L, TransferKind.PAYOUT,
        "0:" + "00".repeat(32), 1_000L, status, settled ? TX : null, settled ? 1L : null, 0L, null, null,
        settled ? null : "test failure", Instant.EPOCH, Instant.EPOCH);
    producer.send(new ProducerRecord<>(Topics.PAYOUT_SETTLEMENTS.name(), null, PRODUCED_AT,
        Topics.walletKey(s.subwalletId()), s));
  }

  private static KafkaProducer<String, Settlement> producer() {
    return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
        Topics.PAYOUT_SETTLEMENTS.keySerde().serializer(), Topics.PAYOUT_SETTLEMENTS.valueSerde().serializer());
  }
}
