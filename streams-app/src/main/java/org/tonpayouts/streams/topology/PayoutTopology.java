package org.tonpayouts.streams.topology;

import java.util.function.Supplier;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;
import org.tonpayouts.schemas.JsonSerde;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.streams.validation.RequestValidationProcessor;
import org.tonpayouts.streams.wallet.WalletState;
import org.tonpayouts.streams.wallet.WalletTxProcessor;

/**
 * The streams-app topology, top to bottom (DESIGN.md "Shape"):
 *
 * <pre>
 * payout.requests (bytes) ──▶ request-validator ──▶ wallet-tx ──▶ payout.submissions
 *                                   │                 ▲   │
 *                                   ▼                 │   └──────▶ payout.settlements
 *                            payout.rejected          │
 * payout.confirmations ───────────────────────────────┘
 * </pre>
 *
 * Every topic is keyed by subwallet id and {@code payout.requests} and {@code payout.confirmations}
 * must have the same number of partitions, so one task owns each wallet's queue and in-flight message.
 * The app, the driver tests and the broker tests all build the topology here.
 */
public final class PayoutTopology {
  public static final String REQUESTS_SOURCE = "requests-source";
  public static final String CONFIRMATIONS_SOURCE = "confirmations-source";

  private PayoutTopology() {}

  public static Topology build(
      Supplier<RequestValidationProcessor> validator, Supplier<WalletTxProcessor> walletTx) {
    Topology topology = new Topology();

    topology.addSource(REQUESTS_SOURCE, Serdes.String().deserializer(), Serdes.ByteArray().deserializer(),
        Topics.PAYOUT_REQUESTS.name());
    topology.addSource(CONFIRMATIONS_SOURCE, Topics.PAYOUT_CONFIRMATIONS.keySerde().deserializer(),
        Topics.PAYOUT_CONFIRMATIONS.valueSerde().deserializer(), Topics.PAYOUT_CONFIRMATIONS.name());

    topology.addProcessor(RequestValidationProcessor.NAME, validator::get, REQUESTS_SOURCE);
    topology.addSink(RequestValidationProcessor.REJECTED_SINK, Topics.PAYOUT_REJECTED.name(),
        Topics.PAYOUT_REJECTED.keySerde().serializer(), Topics.PAYOUT_REJECTED.valueSerde().serializer(),
        RequestValidationProcessor.NAME);

    topology.addProcessor(WalletTxProcessor.NAME, walletTx::get, RequestValidationProcessor.NAME, CONFIRMATIONS_SOURCE);
    topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(WalletTxProcessor.WALLET_STORE),
        Serdes.String(), JsonSerde.of(WalletState.class)), WalletTxProcessor.NAME);
    topology.addStateStore(Stores.keyValueStoreBuilder(
        Stores.persistentKeyValueStore(WalletTxProcessor.REQUEST_ID_STORE), Serdes.String(), Serdes.Long()),
        WalletTxProcessor.NAME);
    topology.addSink(WalletTxProcessor.SUBMISSIONS_SINK, Topics.PAYOUT_SUBMISSIONS.name(),
        Topics.PAYOUT_SUBMISSIONS.keySerde().serializer(), Topics.PAYOUT_SUBMISSIONS.valueSerde().serializer(),
        WalletTxProcessor.NAME);
    topology.addSink(WalletTxProcessor.SETTLEMENTS_SINK, Topics.PAYOUT_SETTLEMENTS.name(),
        Topics.PAYOUT_SETTLEMENTS.keySerde().serializer(), Topics.PAYOUT_SETTLEMENTS.valueSerde().serializer(),
        WalletTxProcessor.NAME);
    return topology;
  }
}
