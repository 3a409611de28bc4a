package org.tonpayouts.poller;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.tonpayouts.schemas.JsonSerde;

/** The watch list's two stores, in memory and registered on a test's context, as the topology declares them. */
record WatchListStores(KeyValueStore<String, WatchedWallet> wallets, KeyValueStore<String, ResolvedTransfer> resolved) {

  static WatchListStores openOn(StateStoreContext context) {
    return new WatchListStores(
        inMemory(context, ChainPollerTopology.WATCHED_WALLETS_STORE, WatchedWallet.class),
        inMemory(context, ChainPollerTopology.RESOLVED_TRANSFERS_STORE, ResolvedTransfer.class));
  }

  private static <V> KeyValueStore<String, V> inMemory(StateStoreContext context, String name, Class<V> type) {
    KeyValueStore<String, V> store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), Serdes.String(),
        JsonSerde.of(type)).withLoggingDisabled().build();
    store.init(context, store);
    return store;
  }
}
