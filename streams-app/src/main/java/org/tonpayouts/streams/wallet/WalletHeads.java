package org.tonpayouts.streams.wallet;

import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The wallets' heads ({@link org.tonpayouts.streams.names.TopologyNames#WALLET_HEADS_STORE}) as the processor uses them, the
 * heads of wallets with work kept deserialized. A transfer reads its wallet's head five or six
 * times (accepting, handing over, issued, confirmed, recorded) and reading it back from JSON each
 * time, with its ISO-8601 instants, was about a tenth of the stream thread at W=1000. Writes go
 * through to the store, whose changelog is what a restarted task resumes from.
 *
 * <p>Only the task's own processor writes the store, so the map never disagrees with it. A new
 * one is made whenever the processor is (re)initialised, so a task whose state was rolled back or
 * restored starts from the store again. An idle head leaves the map (it is read again when a
 * request comes), so memory follows the wallets with work, not every wallet ever paid.
 */
final class WalletHeads {
  private final KeyValueStore<String, WalletHead> store;
  private final Map<String, WalletHead> active = new HashMap<>();

  WalletHeads(KeyValueStore<String, WalletHead> store) {
    this.store = store;
  }

  /** The wallet's head, or null when it has none. */
  WalletHead get(String key) {
    WalletHead head = active.get(key);
    if (head == null) {
      head = store.get(key);
      remember(key, head);
    }
    return head;
  }

  void put(String key, WalletHead head) {
    store.put(key, head);
    remember(key, head);
  }

  /** Every head in the store (at init: the wallets to resume), remembering those with work. */
  void forEach(BiConsumer<String, WalletHead> action) {
    try (KeyValueIterator<String, WalletHead> all = store.all()) {
      while (all.hasNext()) {
        KeyValue<String, WalletHead> entry = all.next();
        remember(entry.key, entry.value);
        action.accept(entry.key, entry.value);
      }
    }
  }

  private void remember(String key, WalletHead head) {
    if (head != null && (head.hasWork() || head.current() != null)) {
      active.put(key, head);
    } else {
      active.remove(key);
    }
  }
}
