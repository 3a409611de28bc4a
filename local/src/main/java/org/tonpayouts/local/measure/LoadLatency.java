package org.tonpayouts.local.measure;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.LongFunction;
import org.tonpayouts.ton.address.TonAddress;

/**
 * Latency a payer adds beyond the chain's, per transfer of a load, in two measures:
 *
 * <ul>
 *   <li><b>added</b>: when its outcome was seen minus when the chain could have confirmed it at
 *       the earliest. A wallet applies one message per block, so transfer k of a wallet could be in
 *       the block right after the one holding transfer k-1; the first transfer of each wallet in the
 *       load is measured from its own block. A payer that closes the loop inside one block adds only
 *       the return path; a missed block adds a block interval; a dropped or rate-limited send adds
 *       everything until the transfer lands. This is the figure the targets use.
 *   <li><b>settle path</b>: when its outcome was seen minus when the block holding it became
 *       visible: the return path alone (poller noticing the block, the confirmation's trip through
 *       Kafka, streams-app settling it, the settlement's commit and delivery).
 * </ul>
 *
 * <p>Block times come from {@link BlockClock} (milliseconds, as each block became visible).
 */
public record LoadLatency(AddedLatency added, AddedLatency settlePath) {
  /**
   * One transfer of the load.
   *
   * @param block the block holding its transaction; empty when unknown (then it is not measured).
   *     For a jetton transfer: the block holding the receiver jetton wallet's acceptance
   * @param hops blocks the chain itself took from the wallet's transaction to {@code block}: 0 for a
   *     TON transfer; for a jetton transfer the hops through the two jetton wallets, so the earliest
   *     the chain could have delivered it is that many blocks after the wallet's earliest block
   */
  public record Landing(TonAddress wallet, OptionalLong block, long seenAtMillis, long hops) {
    /** A TON transfer: its outcome is the wallet's own transaction. */
    public Landing(TonAddress wallet, OptionalLong block, long seenAtMillis) {
      this(wallet, block, seenAtMillis, 0);
    }
  }

  /** @param blockMillis when a block became visible, if known */
  public static LoadLatency measure(List<Landing> landings, LongFunction<OptionalLong> blockMillis) {
    Map<TonAddress, List<Landing>> byWallet = new HashMap<>();
    int unknownBlock = 0;
    for (Landing l : landings) {
      if (l.block().isEmpty()) {
        unknownBlock++;
      } else {
        byWallet.computeIfAbsent(l.wallet(), w -> new ArrayList<>()).add(l);
      }
    }
    List<Long> added = new ArrayList<>();
    List<Long> settlePath = new ArrayList<>();
    int unmeasured = unknownBlock;
    for (List<Landing> wallet : byWallet.values()) {
      wallet.sort(Comparator.comparingLong(l -> l.block().getAsLong()));
      long previous = -1;
      for (Landing l : wallet) {
        long block = l.block().getAsLong();
        OptionalLong own = blockMillis.apply(block);
        OptionalLong earliest = previous < 0 ? own : blockMillis.apply(previous + 1 + l.hops());
        previous = block;
        if (own.isEmpty() || earliest.isEmpty()) {
          unmeasured++;
          continue;
        }
        settlePath.add(l.seenAtMillis() - own.getAsLong());
        added.add(l.seenAtMillis() - earliest.getAsLong());
      }
    }
    return new LoadLatency(AddedLatency.of(added, unmeasured), AddedLatency.of(settlePath, unmeasured));
  }

  public static LoadLatency measure(List<Landing> landings, BlockClock clock) {
    return measure(landings, clock::millis);
  }
}
