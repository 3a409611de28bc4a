package org.tonpayouts.streams.wallet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tonpayouts.streams.PayoutTestKit.TON;
import static org.tonpayouts.streams.PayoutTestKit.recipient;
import static org.tonpayouts.streams.PayoutTestKit.request;
import static org.tonpayouts.streams.PayoutTestKit.transfer;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.schemas.JsonSerde;
import org.tonpayouts.streams.names.TopologyNames;

/**
 * The processor keeps the heads of wallets with work, and each wallet's head request, deserialized
 * ({@link WalletHeads}, {@link WalletQueue}): what it wrote is what it reads, idle wallets and the
 * backlog are read from the store, and a new instance (the processor re-initialised after a
 * rollback or a restore) reads the store again.
 */
class WalletStateCacheTest {
  private static final long SUBWALLET = 698983191L;
  private static final String KEY = Long.toString(SUBWALLET);
  private static final Instant NOW = Instant.parse("2026-11-26T08:00:00Z");

  private KeyValueStore<String, WalletHead> headStore;
  private KeyValueStore<String, QueuedRequest> queueStore;

  @BeforeEach
  void openStores() {
    MockProcessorContext<String, Object> context = new MockProcessorContext<>();
    headStore = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(TopologyNames.WALLET_HEADS_STORE),
        Serdes.String(), JsonSerde.of(WalletHead.class)).withLoggingDisabled().build();
    headStore.init(context.getStateStoreContext(), headStore);
    queueStore = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(TopologyNames.WALLET_QUEUE_STORE),
        Serdes.String(), JsonSerde.of(QueuedRequest.class)).withLoggingDisabled().build();
    queueStore.init(context.getStateStoreContext(), queueStore);
  }

  @Test
  void headsWithWorkAreServedAsWrittenAndWrittenThrough() {
    WalletHeads heads = new WalletHeads(headStore);
    WalletHead busy = WalletHead.empty(SUBWALLET).enqueued().submitted(current(3));
    heads.put(KEY, busy);

    assertThat(headStore.get(KEY)).isEqualTo(busy); // written through: the changelog has it
    headStore.put(KEY, busy.submitted(current(4))); // nobody else writes the store: proof that it is not read
    assertThat(heads.get(KEY)).isSameAs(busy);
    assertThat(new WalletHeads(headStore).get(KEY).current().seqno()).isEqualTo(4); // a re-initialised processor reads it
  }

  @Test
  void idleHeadsAreReadFromTheStore() {
    WalletHeads heads = new WalletHeads(headStore);
    WalletHead idle = WalletHead.empty(SUBWALLET).enqueued().nextRequest(7L);
    heads.put(KEY, idle);
    assertThat(idle.hasWork()).isFalse();

    WalletHead changed = idle.enqueued();
    headStore.put(KEY, changed);
    assertThat(heads.get(KEY)).isEqualTo(changed);
    assertThat(heads.get("698983192")).isNull();
  }

  @Test
  void resumingVisitsEveryStoredHeadAndKeepsThoseWithWork() {
    WalletHead busy = WalletHead.empty(SUBWALLET).enqueued();
    headStore.put(KEY, busy);
    headStore.put("698983192", WalletHead.empty(698983192L));
    WalletHeads heads = new WalletHeads(headStore);
    List<String> visited = new ArrayList<>();

    heads.forEach((key, head) -> visited.add(key));

    assertThat(visited).containsExactlyInAnyOrder(KEY, "698983192");
    headStore.put(KEY, busy.enqueued());
    assertThat(heads.get(KEY)).isEqualTo(busy); // kept from the visit, not read again
  }

  @Test
  void theHeadRequestIsReadOnceAndTheBacklogStaysInTheStore() {
    WalletQueue queue = new WalletQueue(queueStore);
    QueuedRequest first = queued("first");
    QueuedRequest second = queued("second");
    queue.put(SUBWALLET, 0, first);
    queue.put(SUBWALLET, 1, second);
    WalletHead head = WalletHead.empty(SUBWALLET).enqueued().enqueued();

    assertThat(queue.head(head)).isEqualTo(first);
    queueStore.put(WalletQueue.key(SUBWALLET, 0), second); // not read again while it is the head
    assertThat(queue.head(head)).isEqualTo(first);

    queue.removeHead(head);
    assertThat(queueStore.get(WalletQueue.key(SUBWALLET, 0))).isNull();
    queueStore.put(WalletQueue.key(SUBWALLET, 1), queued("changed"));
    assertThat(queue.head(head.nextRequest(null)).request().requestId()).isEqualTo("changed"); // the next head comes from the store
    assertThat(new WalletQueue(queueStore).head(head)).isNull(); // a new instance reads the store: position 0 is gone
  }

  private static CurrentTransfer current(long seqno) {
    return new CurrentTransfer(seqno, List.of("ab".repeat(32)), 1, NOW.getEpochSecond() + 60, NOW, true,
        NOW.plusSeconds(90));
  }

  private static QueuedRequest queued(String requestId) {
    return new QueuedRequest(request(requestId, SUBWALLET, transfer("t", recipient(1), TON)), "payout.requests", 0,
        0);
  }
}
