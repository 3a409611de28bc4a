package org.tonpayouts.local.soak;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;
import org.tonpayouts.local.measure.AddedLatency;

/**
 * How fast the service recovered from each kind of infrastructure fault: for each fault, the time
 * from its end to the next settlement observed on a wallet it affected, and the longest stretch
 * without any settlement on those wallets from its start to that next settlement (how long the
 * fault held them up, if it did). A fault after which no affected wallet settled again (the load
 * was over) has no recovery time and is counted apart.
 *
 * @param kind one of {@link InfrastructureChaos#KINDS}
 * @param faults how many faults of the kind happened
 * @param recoveryMillis fault end to the next settlement on an affected wallet, one sample per fault that had one
 * @param longestGapMillis the longest stretch without a settlement on the affected wallets, per fault with a recovery
 */
record RecoveryTimes(String kind, int faults, AddedLatency recoveryMillis, AddedLatency longestGapMillis) {

  /** No settlement on an affected wallet after the fault's end. */
  int withoutSettlementAfter() {
    return faults - recoveryMillis.millis().size();
  }

  /**
   * One line per kind of {@link InfrastructureChaos#KINDS} that happened at least once.
   *
   * @param settledAtByWallet when settlements of each wallet were observed (epoch millis)
   */
  static List<RecoveryTimes> of(List<InfrastructureChaos.Episode> episodes,
      Map<Long, ? extends Collection<Long>> settledAtByWallet) {
    List<RecoveryTimes> out = new ArrayList<>();
    for (String kind : InfrastructureChaos.KINDS) {
      List<InfrastructureChaos.Episode> ofKind = episodes.stream().filter(e -> e.kind().equals(kind)).toList();
      if (ofKind.isEmpty()) {
        continue;
      }
      List<Long> recoveries = new ArrayList<>();
      List<Long> gaps = new ArrayList<>();
      for (InfrastructureChaos.Episode e : ofKind) {
        NavigableSet<Long> times = new TreeSet<>();
        settledAtByWallet.forEach((wallet, at) -> {
          if (e.affected().isEmpty() || e.affected().contains(wallet)) {
            times.addAll(at);
          }
        });
        Long next = times.ceiling(e.endMillis());
        if (next == null) {
          continue;
        }
        recoveries.add(next - e.endMillis());
        gaps.add(longestGap(times.subSet(e.startMillis(), true, next, true), e.startMillis()));
      }
      out.add(new RecoveryTimes(kind, ofKind.size(), AddedLatency.of(recoveries), AddedLatency.of(gaps)));
    }
    return out;
  }

  /** The longest stretch between {@code from} and the settlements after it (the last of them included). */
  private static long longestGap(NavigableSet<Long> settledAt, long from) {
    long longest = 0;
    long previous = from;
    for (long at : settledAt) {
      longest = Math.max(longest, at - previous);
      previous = at;
    }
    return longest;
  }
}
