package org.tonpayouts.poller;

import java.time.Clock;
import java.util.Objects;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.tonpayouts.runtime.trust.VerdictKeys;
import org.tonpayouts.runtime.trust.VerdictSigner;
import org.tonpayouts.runtime.wakeup.StreamThreads;
import org.tonpayouts.schemas.JsonSerde;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.ton.api.TonApi;

/**
 * The chain poller's topology, the one the process runs and the tests drive:
 * {@code payout.submissions} → {@code watch-list} (store {@code watched-wallets}) →
 * {@code payout.confirmations}. The store is persistent and change-logged: a restarted poller
 * restores it and keeps watching every message still without a verdict.
 */
public final class ChainPollerTopology {
  public static final String SUBMISSIONS_SOURCE = "payout-submissions";
  public static final String WATCH_LIST_PROCESSOR = "watch-list";
  public static final String WATCHED_WALLETS_STORE = "watched-wallets";
  /** The watched wallets' remembered verdicts, one record each ({@link WatchedWallets}). */
  public static final String RESOLVED_TRANSFERS_STORE = "resolved-transfers";
  public static final String CONFIRMATIONS_SINK = "payout-confirmations";

  private ChainPollerTopology() {
  }

  /**
   * Builds the topology.
   *
   * @param api the TON HTTP API the watch list polls
   * @param clock decides expiry ({@code valid_until} + margin) and stamps {@code observedAt}
   * @param settings round pacing and bounds
   * @param metrics where API calls and verdicts are counted
   * @param threads the stream threads of the Kafka Streams instance it runs on (their wakers);
   *     {@link StreamThreads#none()} on a TopologyTestDriver
   * @param verdictKeys the keys every verdict is signed with (streams-app applies no other)
   */
  public static Topology build(TonApi api, Clock clock, PollerSettings settings, PollerMetrics metrics,
      StreamThreads threads, VerdictKeys verdictKeys) {
    return build(api, clock, settings, metrics, threads, verdictKeys, WatchListProcessor.RoundListener.NONE);
  }

  /** {@link #build} with a listener told how rounds progress (tests step a driver with it). */
  static Topology build(TonApi api, Clock clock, PollerSettings settings, PollerMetrics metrics,
      StreamThreads threads, VerdictKeys verdictKeys, WatchListProcessor.RoundListener listener) {
    Objects.requireNonNull(api, "api");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(metrics, "metrics");
    Objects.requireNonNull(threads, "threads");
    StoreBuilder<KeyValueStore<String, WatchedWallet>> store = Stores.keyValueStoreBuilder(
        Stores.persistentKeyValueStore(WATCHED_WALLETS_STORE), Serdes.String(), JsonSerde.of(WatchedWallet.class));
    StoreBuilder<KeyValueStore<String, ResolvedTransfer>> resolved = Stores.keyValueStoreBuilder(
        Stores.persistentKeyValueStore(RESOLVED_TRANSFERS_STORE), Serdes.String(), JsonSerde.of(ResolvedTransfer.class));

    // one masterchain watch and one block feed per process, shared by its tasks
    MasterchainWatch masterchain = new MasterchainWatch(api, settings.interval(), metrics);
    BlockFeed feed = new BlockFeed(api, masterchain, clock, settings, metrics);
    Topology topology = new Topology();
    topology.addSource(SUBMISSIONS_SOURCE,
        Topics.PAYOUT_SUBMISSIONS.keySerde().deserializer(),
        Topics.PAYOUT_SUBMISSIONS.valueSerde().deserializer(),
        Topics.PAYOUT_SUBMISSIONS.name());
    topology.addProcessor(WATCH_LIST_PROCESSOR,
        () -> new WatchListProcessor(api, feed, clock, settings, metrics, threads, listener), SUBMISSIONS_SOURCE);
    topology.addStateStore(store, WATCH_LIST_PROCESSOR);
    topology.addStateStore(resolved, WATCH_LIST_PROCESSOR);
    topology.addSink(CONFIRMATIONS_SINK, Topics.PAYOUT_CONFIRMATIONS.name(),
        Topics.PAYOUT_CONFIRMATIONS.keySerde().serializer(),
        new VerdictSigner(verdictKeys),
        WATCH_LIST_PROCESSOR);
    return topology;
  }
}
