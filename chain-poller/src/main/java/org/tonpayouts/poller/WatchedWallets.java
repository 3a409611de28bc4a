package org.tonpayouts.poller;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.tonpayouts.runtime.store.SortableKeys;
import org.tonpayouts.runtime.store.StoreWrites;

/**
 * The watch list's stores as the watch list uses them: one {@link WatchedWallet} per wallet, kept
 * deserialized. The watch list reads a wallet's entry on every submission, every poll and every
 * conclusion: reading it back from JSON each time was a quarter of the poller's CPU under load.
 * Writes go through to the stores, whose changelogs are what a restarted poller resumes from.
 *
 * <p>A wallet's remembered verdicts ({@link WatchedWallet#resolved()}, kept for
 * {@code poller.resolved.retention.ms}) are stored one record each in {@code resolved-transfers}
 * under {@code <wallet key>/<resolved at>/<message hash>}, not inside the wallet's own record: a
 * busy wallet remembers one verdict per block for ten minutes (1,500 at 400 ms blocks), and writing
 * them all again on each of its transfers cost O(verdicts) per transfer and would pass Kafka's
 * 1 MB record limit. Now a transfer writes the wallet's small record and its one new verdict, and
 * its forgetting deletes that one record. A wallet record written before this layout may still
 * carry its verdicts inside: they are read with it and moved out on its next write.
 *
 * <p>Only the task's own processor writes its stores, so the map never disagrees with them. A new
 * one is made whenever the processor is (re)initialised, so a task whose state was rolled back or
 * restored starts from the stores again.
 */
final class WatchedWallets {
  private static final StringSerializer KEYS = new StringSerializer();

  private final KeyValueStore<String, WatchedWallet> wallets;
  private final KeyValueStore<String, ResolvedTransfer> resolved;
  private final Map<String, WatchedWallet> values = new HashMap<>();
  /**
   * Per wallet, its record as last read from or written to {@link #wallets}: not derivable from
   * {@link #values}, because a record of the old layout carries verdicts the value also holds and
   * must be rewritten without them.
   */
  private final Map<String, WatchedWallet> records = new HashMap<>();
  /** Per wallet, its remembered verdicts and the keys they have in {@link #resolved} (by identity: they never change). */
  private final Map<String, Map<ResolvedTransfer, String>> stored = new HashMap<>();

  WatchedWallets(KeyValueStore<String, WatchedWallet> wallets, KeyValueStore<String, ResolvedTransfer> resolved) {
    this.wallets = wallets;
    this.resolved = resolved;
  }

  /** The wallet's entry, or null. */
  WatchedWallet get(String key) {
    WatchedWallet value = values.get(key);
    if (value == null) {
      WatchedWallet record = wallets.get(key);
      if (record != null) {
        value = assemble(key, record);
      }
    }
    return value;
  }

  void put(String key, WatchedWallet value) {
    Map<ResolvedTransfer, String> before = storedKeys(key);
    Map<ResolvedTransfer, String> after = new IdentityHashMap<>();
    for (ResolvedTransfer r : value.resolved()) {
      String resolvedKey = before.get(r);
      if (resolvedKey == null) {
        resolvedKey = resolvedKey(key, r);
        resolved.put(resolvedKey, r);
      }
      after.put(r, resolvedKey);
    }
    if (after.size() < before.size() || !after.keySet().containsAll(before.keySet())) {
      Set<String> kept = new HashSet<>(after.values());
      before.values().stream().filter(k -> !kept.contains(k)).forEach(k -> StoreWrites.erase(resolved, k));
    }
    WatchedWallet record = value.with(value.pending(), value.cursor(), List.of(), value.bounceWatches(),
        value.creditedBounces());
    if (!record.equals(records.get(key))) {
      wallets.put(key, record);
      records.put(key, record);
    }
    stored.put(key, after);
    values.put(key, value);
  }

  void delete(String key) {
    storedKeys(key).values().forEach(k -> StoreWrites.erase(resolved, k));
    StoreWrites.erase(wallets, key);
    records.remove(key);
    stored.remove(key);
    values.remove(key);
  }

  /** Every entry, read from the stores (loading the watch list at start). */
  List<KeyValue<String, WatchedWallet>> all() {
    List<String> keys = new ArrayList<>();
    try (KeyValueIterator<String, WatchedWallet> it = wallets.all()) {
      it.forEachRemaining(kv -> keys.add(kv.key));
    }
    List<KeyValue<String, WatchedWallet>> all = new ArrayList<>();
    for (String key : keys) {
      all.add(KeyValue.pair(key, get(key)));
    }
    return all;
  }

  /** The wallet's record with its remembered verdicts, in the order they were resolved. */
  private WatchedWallet assemble(String key, WatchedWallet record) {
    List<ResolvedTransfer> verdicts = new ArrayList<>(record.resolved()); // a record of the old layout carries them
    Map<ResolvedTransfer, String> keys = new IdentityHashMap<>();
    try (KeyValueIterator<String, ResolvedTransfer> it = resolved.prefixScan(key + "/", KEYS)) {
      while (it.hasNext()) {
        KeyValue<String, ResolvedTransfer> kv = it.next();
        keys.put(kv.value, kv.key);
        verdicts.add(kv.value);
      }
    }
    WatchedWallet value = record.with(record.pending(), record.cursor(), verdicts, record.bounceWatches(),
        record.creditedBounces());
    records.put(key, record);
    stored.put(key, keys);
    values.put(key, value);
    return value;
  }

  private Map<ResolvedTransfer, String> storedKeys(String key) {
    if (!stored.containsKey(key)) {
      get(key);
    }
    return stored.getOrDefault(key, Map.of());
  }

  /** Sorts a wallet's verdicts by when they were resolved (epoch nanoseconds), then by hash. */
  static String resolvedKey(String walletKey, ResolvedTransfer r) {
    long nanos = r.resolvedAt().getEpochSecond() * 1_000_000_000L + r.resolvedAt().getNano();
    return walletKey + "/" + SortableKeys.padded(nanos) + "/" + r.verdict().messageHash();
  }
}
