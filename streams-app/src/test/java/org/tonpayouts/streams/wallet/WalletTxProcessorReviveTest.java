package org.tonpayouts.streams.wallet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tonpayouts.streams.PayoutTestKit.FIRST_SUBWALLET;
import static org.tonpayouts.streams.PayoutTestKit.TON;
import static org.tonpayouts.streams.PayoutTestKit.recipient;
import static org.tonpayouts.streams.PayoutTestKit.request;
import static org.tonpayouts.streams.PayoutTestKit.transfer;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.schemas.JsonSerde;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.Submission;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.streams.names.TopologyNames;

/**
 * Kafka Streams revives a task after a dirty close (a corrupted task under exactly-once, e.g. an
 * aborted transaction) by closing and initialising the same processor instance again on its
 * restored stores. The processor must start as a fresh one would: nothing of the old
 * incarnation's in-memory state (here: the fence it ran into) may keep it from paying.
 */
class WalletTxProcessorReviveTest {
  private WalletTxHarness h;

  @AfterEach
  void close() {
    if (h != null) {
      h.close();
    }
  }

  @Test
  void shouldPayAgainWhenRevivedAfterItWasFencedAndHoldsThePartitionOnceMore() throws Exception {
    h = new WalletTxHarness(WalletTxProcessorReviveTest.class, Map.of());
    long id = FIRST_SUBWALLET + 3;
    h.fund(id, 10 * TON);
    PayoutRequest request = request("revived", id, transfer("t", recipient(7), 2 * TON));
    MockProcessorContext<String, Object> context = new MockProcessorContext<>();
    context.setCurrentSystemTimeMs(WalletTxHarness.START.toEpochMilli());
    stores(context);
    WalletTxProcessor processor = new WalletTxProcessor(new WalletTxDependencies(h.wiring.io(), h.ledger,
        WalletTxHarness.SUBWALLETS, h.appClock, h.metrics, new WalletTxDependencies.Settings(
            h.config.clockSkewMargin(), h.config.verdictTimeout(), h.config.walletBacklogMax(),
            h.config.dedupRetention()), "revive-test", org.tonpayouts.runtime.wakeup.StreamThreads.none()));

    processor.init(context);
    // another instance takes the partition: this incarnation is a zombie, its intent is refused
    h.ledger.owners().take(context.applicationId(), context.taskId().partition(), "other-instance");
    processor.process(new Record<>(Topics.walletKey(id), request, context.currentSystemTimeMs()));
    settle(processor, context);
    assertThat(h.metrics.count("ton.tx.fenced")).isEqualTo(1);
    assertThat(submissions(context)).isEmpty();

    // the partition comes back to this instance and the task is revived: close, then init again
    processor.close();
    processor.init(context);
    settle(processor, context);

    assertThat(submissions(context)).singleElement()
        .satisfies(s -> assertThat(s.requestId()).isEqualTo("revived"));
    assertThat(h.ledger.queries().attempts("revived", "t")).hasSize(1);
  }

  /** Lets the issuing rounds finish and the processor apply what they delivered (its work punctuation). */
  private void settle(WalletTxProcessor processor, MockProcessorContext<String, Object> context) throws Exception {
    for (int i = 0; i < 3; i++) {
      assertThat(org.tonpayouts.streams.PayoutTestKit.awaitIdle(h.wiring.io()::idle, Duration.ofSeconds(20))).isTrue();
      context.scheduledPunctuators().forEach(p -> p.getPunctuator().punctuate(context.currentSystemTimeMs()));
    }
  }

  private static List<Submission> submissions(MockProcessorContext<String, Object> context) {
    return context.forwarded().stream()
        .filter(f -> TopologyNames.SUBMISSIONS_SINK.equals(f.childName().orElse(null)))
        .map(f -> (Submission) f.record().value()).toList();
  }

  private static void stores(MockProcessorContext<String, Object> context) {
    KeyValueStore<String, WalletHead> heads = Stores.keyValueStoreBuilder(
        Stores.inMemoryKeyValueStore(TopologyNames.WALLET_HEADS_STORE), Serdes.String(),
        JsonSerde.of(WalletHead.class)).withLoggingDisabled().build();
    heads.init(context.getStateStoreContext(), heads);
    KeyValueStore<String, QueuedRequest> queue = Stores.keyValueStoreBuilder(
        Stores.inMemoryKeyValueStore(TopologyNames.WALLET_QUEUE_STORE), Serdes.String(),
        JsonSerde.of(QueuedRequest.class)).withLoggingDisabled().build();
    queue.init(context.getStateStoreContext(), queue);
    WindowStore<String, PayoutRequest> memory = Stores.windowStoreBuilder(
        Stores.inMemoryWindowStore(TopologyNames.REQUEST_MEMORY_STORE, Duration.ofHours(1), Duration.ofHours(1),
            false), Serdes.String(), JsonSerde.of(PayoutRequest.class)).withLoggingDisabled().build();
    memory.init(context.getStateStoreContext(), memory);
  }
}
