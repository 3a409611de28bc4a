package org.tonpayouts.poller;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The {@code watched-wallets} store as the watch list uses it, with its values kept deserialized.
 * The watch list reads a wallet's entry on every submission, every poll and every conclusion, and
 * an entry carries the wallet's recent verdicts: reading it back from JSON each time was a quarter
 * of the poller's CPU under load. Writes go through to the store, whose changelog is what a
 * restarted poller resumes from.
 *
 * <p>Only the task's own processor writes its store, so the map never disagrees with it. A new one
 * is made whenever the processor is (re)initialised, so a task whose state was rolled back or
 * restored starts from the store again.
 */
final class WatchedWallets {
  private final KeyValueStore<String, WatchedWallet> store;
  private final Map<String, WatchedWallet> values = new HashMap<>();

  WatchedWallets(KeyValueStore<String, WatchedWallet> store) {
    this.store = store;
  }

  /** The wallet's entry, or null. */
  WatchedWallet get(String key) {
    WatchedWallet value = values.get(key);
    if (value == null) {
      value = store.get(key);
      if (value != null) {
        values.put(key, value);
      }
    }
    return value;
  }

  void put(String key, WatchedWallet value) {
    store.put(key, value);
    values.put(key, value);
  }

  void delete(String key) {
    store.delete(key);
    values.remove(key);
  }

  /** Every entry, from the store itself (loading the watch list at start). */
  KeyValueIterator<String, WatchedWallet> all() {
    return store.all();
  }
}
