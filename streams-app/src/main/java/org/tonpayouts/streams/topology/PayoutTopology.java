package org.tonpayouts.streams.topology;

import java.time.Duration;
import java.util.function.Supplier;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;
import org.tonpayouts.runtime.trust.VerdictKeys;
import org.tonpayouts.runtime.trust.VerdictVerifier;
import org.tonpayouts.schemas.JsonSerde;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.streams.names.TopologyNames;
import org.tonpayouts.streams.validation.RequestValidationProcessor;
import org.tonpayouts.streams.wallet.QueuedRequest;
import org.tonpayouts.streams.wallet.WalletHead;
import org.tonpayouts.streams.wallet.WalletTxProcessor;

/**
 * The streams-app topology, top to bottom (DESIGN.md "Shape"):
 *
 * <pre>
 * payout.requests (bytes) ──▶ request-validator ──▶ wallet-tx ──▶ payout.submissions
 *                                   │                 ▲   │ │
 *                                   ▼                 │   │ └────▶ payout.settlements
 *                            payout.rejected ◀────────┼───┘ (backlog full, requestId conflicts)
 * payout.confirmations ───────────────────────────────┘
 * </pre>
 *
 * wallet-tx keeps, per wallet, a small head ({@code wallet-heads}), its queued requests one per
 * key ({@code wallet-queue}) and the requestIds it accepted within the dedup retention
 * ({@code accepted-request-ids}, a window store whose old segments Kafka Streams drops).
 *
 * Every topic is keyed by subwallet id and {@code payout.requests} and {@code payout.confirmations}
 * must have the same number of partitions, so one task owns each wallet's queue and in-flight message.
 * The app, the driver tests and the broker tests all build the topology here.
 */
public final class PayoutTopology {
  private PayoutTopology() {}

  /**
   * @param verdictKeys the keys a record of {@code payout.confirmations} must be signed with to be read as a verdict
   */
  public static Topology build(Supplier<RequestValidationProcessor> validator, Supplier<WalletTxProcessor> walletTx,
      Duration dedupRetention, VerdictKeys verdictKeys) {
    Topology topology = new Topology();

    topology.addSource(TopologyNames.REQUESTS_SOURCE, Serdes.String().deserializer(), Serdes.ByteArray().deserializer(),
        Topics.PAYOUT_REQUESTS.name());
    // verdicts before requests: a request backlog must not hold up the loops already running
    // (earliest is Kafka Streams' default reset; this overload only asks for it to be spelled out)
    topology.addSource(AutoOffsetReset.earliest(), TopologyNames.CONFIRMATIONS_SOURCE, new VerdictsFirst(),
        Topics.PAYOUT_CONFIRMATIONS.keySerde().deserializer(),
        new VerdictVerifier(verdictKeys), Topics.PAYOUT_CONFIRMATIONS.name());

    topology.addProcessor(TopologyNames.REQUEST_VALIDATOR, validator::get, TopologyNames.REQUESTS_SOURCE);
    topology.addProcessor(TopologyNames.WALLET_TX, walletTx::get, TopologyNames.REQUEST_VALIDATOR, TopologyNames.CONFIRMATIONS_SOURCE);
    topology.addSink(TopologyNames.REJECTED_SINK, Topics.PAYOUT_REJECTED.name(),
        Topics.PAYOUT_REJECTED.keySerde().serializer(), Topics.PAYOUT_REJECTED.valueSerde().serializer(),
        TopologyNames.REQUEST_VALIDATOR, TopologyNames.WALLET_TX);

    topology.addStateStore(Stores.keyValueStoreBuilder(
        Stores.persistentKeyValueStore(TopologyNames.WALLET_HEADS_STORE), Serdes.String(),
        JsonSerde.of(WalletHead.class)).withCachingEnabled(), TopologyNames.WALLET_TX);
    topology.addStateStore(Stores.keyValueStoreBuilder(
        Stores.persistentKeyValueStore(TopologyNames.WALLET_QUEUE_STORE), Serdes.String(),
        JsonSerde.of(QueuedRequest.class)), TopologyNames.WALLET_TX);
    topology.addStateStore(Stores.windowStoreBuilder(
        Stores.persistentWindowStore(TopologyNames.REQUEST_MEMORY_STORE, dedupRetention, dedupRetention, false),
        Serdes.String(), JsonSerde.of(PayoutRequest.class)), TopologyNames.WALLET_TX);
    topology.addSink(TopologyNames.SUBMISSIONS_SINK, Topics.PAYOUT_SUBMISSIONS.name(),
        Topics.PAYOUT_SUBMISSIONS.keySerde().serializer(), Topics.PAYOUT_SUBMISSIONS.valueSerde().serializer(),
        TopologyNames.WALLET_TX);
    topology.addSink(TopologyNames.SETTLEMENTS_SINK, Topics.PAYOUT_SETTLEMENTS.name(),
        Topics.PAYOUT_SETTLEMENTS.keySerde().serializer(), Topics.PAYOUT_SETTLEMENTS.valueSerde().serializer(),
        TopologyNames.WALLET_TX);
    return topology;
  }
}
