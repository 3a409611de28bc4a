package org.tonpayouts.local;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.devnet.chain.DevnetTransaction;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.ton.address.TonAddress;

/**
 * Latency the pipeline adds beyond the chain's: for each settled transfer, the time the launcher
 * received its settlement minus the time the block holding its transaction became visible on
 * devnet ({@link BlockClock}). It covers the poller noticing the block, the confirmation's trip
 * through Kafka, streams-app settling it (ledger update) and the settlement's commit and delivery.
 *
 * @param millis sorted latencies of the measured transfers
 * @param unmeasured settled transfers whose block time is unknown
 */
public record AddedLatency(List<Long> millis, int unmeasured) {
  public static AddedLatency measure(List<ObservedSettlement> settlements, WalletSet wallets, Devnet devnet,
      BlockClock blocks) {
    Map<Long, Map<Long, Long>> blockByLtByWallet = new HashMap<>();
    List<Long> latencies = new ArrayList<>();
    int unmeasured = 0;
    for (ObservedSettlement observed : settlements) {
      Settlement s = observed.settlement();
      if (s.status() != SettlementStatus.SETTLED || s.lt() == null) {
        continue;
      }
      Map<Long, Long> blockByLt = blockByLtByWallet.computeIfAbsent(s.subwalletId(), id -> {
        Map<Long, Long> m = new HashMap<>();
        for (DevnetTransaction tx : devnet.transactions(wallets.address(id))) {
          m.put(tx.lt(), tx.blockSeqno());
        }
        return m;
      });
      Long block = blockByLt.get(s.lt());
      OptionalLong blockMillis = block == null ? OptionalLong.empty() : blocks.millis(block);
      if (blockMillis.isEmpty()) {
        unmeasured++;
        continue;
      }
      latencies.add(observed.observedAtMillis() - blockMillis.getAsLong());
    }
    Collections.sort(latencies);
    return new AddedLatency(List.copyOf(latencies), unmeasured);
  }

  /** A message a client saw applied: which wallet, its hash (lowercase hex) and when it was seen. */
  public record SeenMessage(TonAddress wallet, String messageHash, long seenAtMillis) {}

  /**
   * The same measure for a client that watches its own messages (the benchmark's peer): the moment
   * it saw each message applied minus the moment the block holding it became visible.
   */
  public static AddedLatency ofMessages(List<SeenMessage> seen, Devnet devnet, BlockClock blocks) {
    Map<TonAddress, Map<String, Long>> blockByHashByWallet = new HashMap<>();
    List<Long> latencies = new ArrayList<>();
    int unmeasured = 0;
    for (SeenMessage m : seen) {
      Map<String, Long> blockByHash = blockByHashByWallet.computeIfAbsent(m.wallet(), w -> {
        Map<String, Long> byHash = new HashMap<>();
        for (DevnetTransaction tx : devnet.transactions(w)) {
          byHash.put(tx.inMsg().hash(), tx.blockSeqno());
        }
        return byHash;
      });
      Long block = blockByHash.get(m.messageHash());
      OptionalLong blockMillis = block == null ? OptionalLong.empty() : blocks.millis(block);
      if (blockMillis.isEmpty()) {
        unmeasured++;
        continue;
      }
      latencies.add(m.seenAtMillis() - blockMillis.getAsLong());
    }
    Collections.sort(latencies);
    return new AddedLatency(List.copyOf(latencies), unmeasured);
  }

  /** Sorted millisecond samples with nothing unmeasured (e.g. the peer's full cycle times). */
  public static AddedLatency of(List<Long> millis) {
    List<Long> sorted = new ArrayList<>(millis);
    Collections.sort(sorted);
    return new AddedLatency(List.copyOf(sorted), 0);
  }

  /** Nearest-rank percentile ({@code p} in 0..100); 0 without samples. */
  public long percentile(double p) {
    if (millis.isEmpty()) {
      return 0;
    }
    int rank = (int) Math.ceil(p / 100.0 * millis.size());
    return millis.get(Math.min(millis.size() - 1, Math.max(0, rank - 1)));
  }

  public long max() {
    return millis.isEmpty() ? 0 : millis.get(millis.size() - 1);
  }
}
