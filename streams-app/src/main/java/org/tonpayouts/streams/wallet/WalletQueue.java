package org.tonpayouts.streams.wallet;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.streams.state.KeyValueStore;
import org.tonpayouts.runtime.store.SortableKeys;
import org.tonpayouts.runtime.store.StoreWrites;

/**
 * The wallets' queued requests, one store record per request, keyed by subwallet and queue
 * position ({@code <subwalletId>/<position, 19 digits>}): an enqueue writes one small record, and
 * a wallet's backlog never makes a store value grow (a value near 1 MB would stop the task).
 *
 * <p>The request at each wallet's head is kept deserialized once read: a transfer reads it three
 * or four times (handing over, recorded, confirmed, removed), and reading it back from JSON each
 * time was several per cent of the stream thread. Only the head: the backlog stays in the store.
 * Only the task's own processor writes the store, and a new queue is made whenever the processor
 * is (re)initialised, so the map never disagrees with the store.
 */
final class WalletQueue {
  private final KeyValueStore<String, QueuedRequest> store;
  /** Per subwallet, the request at its head as last read, with its position. */
  private final Map<Long, Head> heads = new HashMap<>();

  private record Head(long position, QueuedRequest request) {}

  WalletQueue(KeyValueStore<String, QueuedRequest> store) {
    this.store = store;
  }

  static String key(long subwalletId, long position) {
    return subwalletId + "/" + SortableKeys.padded(position);
  }

  void put(long subwalletId, long position, QueuedRequest request) {
    store.put(key(subwalletId, position), request);
    Head cached = heads.get(subwalletId);
    if (cached != null && cached.position() == position) {
      heads.put(subwalletId, new Head(position, request)); // never expected: positions only grow
    }
  }

  /** The request at the wallet's head, or null when the store lost it (never expected). */
  QueuedRequest head(WalletHead head) {
    Head cached = heads.get(head.subwalletId());
    if (cached != null && cached.position() == head.headSeq()) {
      return cached.request();
    }
    QueuedRequest request = store.get(key(head.subwalletId(), head.headSeq()));
    if (request != null) {
      heads.put(head.subwalletId(), new Head(head.headSeq(), request));
    }
    return request;
  }

  void removeHead(WalletHead head) {
    StoreWrites.erase(store, key(head.subwalletId(), head.headSeq()));
    heads.remove(head.subwalletId());
  }
}
