package org.tonpayouts.streams.wallet;

import org.apache.kafka.streams.state.KeyValueStore;
import org.tonpayouts.runtime.store.SortableKeys;

/**
 * The wallets' queued requests, one store record per request, keyed by subwallet and queue
 * position ({@code <subwalletId>/<position, 19 digits>}): an enqueue writes one small record, and
 * a wallet's backlog never makes a store value grow (a value near 1 MB would stop the task).
 */
final class WalletQueue {
  private final KeyValueStore<String, QueuedRequest> store;

  WalletQueue(KeyValueStore<String, QueuedRequest> store) {
    this.store = store;
  }

  static String key(long subwalletId, long position) {
    return subwalletId + "/" + SortableKeys.padded(position);
  }

  void put(long subwalletId, long position, QueuedRequest request) {
    store.put(key(subwalletId, position), request);
  }

  /** The request at the wallet's head, or null when the store lost it (never expected). */
  QueuedRequest head(WalletHead head) {
    return store.get(key(head.subwalletId(), head.headSeq()));
  }

  void removeHead(WalletHead head) {
    store.delete(key(head.subwalletId(), head.headSeq()));
  }
}
