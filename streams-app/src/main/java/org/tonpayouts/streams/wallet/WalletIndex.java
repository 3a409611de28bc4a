package org.tonpayouts.streams.wallet;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where each wallet of a task stands in {@link WalletTxProcessor}'s own scheduling, in memory only
 * (rebuilt from the wallet states when the task starts): ready to issue, handed over to the I/O
 * threads, deferred until a time, awaiting a verdict until its re-check time, being re-checked.
 */
final class WalletIndex {
  private final Set<String> ready = new LinkedHashSet<>();
  private final Set<String> handedOver = new HashSet<>();
  private final Map<String, Instant> deferredUntil = new HashMap<>();
  private final Map<String, Instant> awaiting = new HashMap<>();
  private final Set<String> rechecking = new HashSet<>();

  void track(String key, WalletHead head) {
    if (head.readyToIssue()) {
      ready.add(key);
    } else {
      ready.remove(key);
      deferredUntil.remove(key);
    }
    if (head.awaitingVerdict()) {
      awaiting.put(key, head.current().recheckAt());
    } else {
      awaiting.remove(key);
    }
  }

  /** Ready wallets not handed over and not deferred past {@code now}; they count as handed over once returned. */
  List<String> readyToHandOver(Instant now) {
    List<String> due = new ArrayList<>();
    for (String key : ready) {
      Instant until = deferredUntil.get(key);
      if (!handedOver.contains(key) && (until == null || !until.isAfter(now))) {
        due.add(key);
      }
    }
    return due;
  }

  void handedOver(String key) {
    handedOver.add(key);
    deferredUntil.remove(key);
  }

  void returned(String key) {
    handedOver.remove(key);
  }

  void untrackReady(String key) {
    ready.remove(key);
  }

  void defer(String key, Instant until) {
    deferredUntil.put(key, until);
  }

  boolean hasDeferred() {
    return !deferredUntil.isEmpty();
  }

  boolean hasAwaiting() {
    return !awaiting.isEmpty();
  }

  List<String> overdue(Instant now) {
    return awaiting.entrySet().stream().filter(e -> !e.getValue().isAfter(now) && !rechecking.contains(e.getKey()))
        .map(Map.Entry::getKey).toList();
  }

  boolean startRecheck(String key) {
    return rechecking.add(key);
  }

  void endRecheck(String key) {
    rechecking.remove(key);
  }
}
