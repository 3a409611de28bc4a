package org.tonpayouts.streams.wallet;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tonpayouts.runtime.wakeup.TransactionCommits;

/**
 * Where each wallet of a task stands in {@link WalletTxProcessor}'s own scheduling, in memory only
 * (rebuilt from the wallet states when the task starts): ready to issue, handed over to the I/O
 * threads, deferred until a time, held until what it forwarded is committed, awaiting a verdict
 * until its re-check time, being re-checked.
 */
final class WalletIndex {
  private final Set<String> ready = new LinkedHashSet<>();
  private final Set<String> handedOver = new HashSet<>();
  private final Map<String, Instant> deferredUntil = new HashMap<>();
  private final Map<String, TransactionCommits.Wait> heldForCommit = new HashMap<>();
  private final Map<String, Instant> awaiting = new HashMap<>();
  private final Set<String> rechecking = new HashSet<>();

  void track(String key, WalletHead head) {
    if (head.readyToIssue()) {
      ready.add(key);
    } else {
      ready.remove(key);
      deferredUntil.remove(key);
      heldForCommit.remove(key);
    }
    if (head.awaitingVerdict()) {
      awaiting.put(key, head.current().recheckAt());
    } else {
      awaiting.remove(key);
    }
  }

  /**
   * Ready wallets not handed over, not deferred past {@code now} and not held for a commit any
   * more; they count as handed over once returned.
   */
  List<String> readyToHandOver(Instant now) {
    List<String> due = new ArrayList<>();
    for (String key : ready) {
      Instant until = deferredUntil.get(key);
      if (handedOver.contains(key) || (until != null && until.isAfter(now))) {
        continue;
      }
      TransactionCommits.Wait hold = heldForCommit.get(key);
      if (hold != null) {
        if (!hold.over(now)) {
          continue;
        }
        heldForCommit.remove(key);
      }
      due.add(key);
    }
    return due;
  }

  void handedOver(String key) {
    handedOver.add(key);
    deferredUntil.remove(key);
    heldForCommit.remove(key);
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

  /**
   * Holds a ready wallet back until {@code hold} is over: what it forwarded is committed, or the
   * wait's limit passed. A wallet with nothing to issue has nothing to hold back.
   */
  void holdForCommit(String key, TransactionCommits.Wait hold) {
    if (ready.contains(key)) {
      heldForCommit.put(key, hold);
    }
  }

  /** Whether a wallet waits for a time or a commit (someone must look again soon). */
  boolean hasDeferred() {
    return !deferredUntil.isEmpty() || !heldForCommit.isEmpty();
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
