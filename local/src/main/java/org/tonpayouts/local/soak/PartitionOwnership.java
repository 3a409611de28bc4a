package org.tonpayouts.local.soak;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.utils.Utils;
import org.tonpayouts.local.stack.ChildProcess;
import org.tonpayouts.local.stack.StackRun;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.schemas.Topics;

/**
 * Which streams-app process holds which payout.requests partition (by the ledger's fencing
 * epochs, whose owner names the process by its pid), and which wallets those partitions carry:
 * what the chaos aims a zombie pause at, and which wallets a fault on one process affects.
 */
final class PartitionOwnership {
  private static final String STREAMS_APPLICATION = PayoutsConfig.CONFIG.defaultValues()
      .get(PayoutsConfig.STREAMS_APPLICATION_ID_CONFIG).toString();

  private final StackRun run;
  private final SoakLedger ledger;

  PartitionOwnership(StackRun run, SoakLedger ledger) {
    this.run = run;
    this.ledger = ledger;
  }

  /** The mark a process's owner strings carry: its pid between slashes. */
  static String mark(ChildProcess child) {
    return "/" + child.pid() + "/";
  }

  /** The streams-app partitions whose current owner (by the ledger) is the process marked {@code mark}, with their epoch. */
  Map<Integer, Long> held(String mark) {
    Map<Integer, Long> held = new LinkedHashMap<>();
    ledger.owners().stream().filter(o -> o.applicationId().equals(STREAMS_APPLICATION) && o.owner().contains(mark))
        .forEach(o -> held.put(o.partition(), o.epoch()));
    return held;
  }

  /** The paying wallets whose requests go to {@code partitions} of payout.requests (Kafka's default partitioner). */
  Set<Long> walletsOf(Set<Integer> partitions) {
    int count = run.options().partitions();
    Set<Long> wallets = new HashSet<>();
    for (long id : run.wallets().subwalletIds()) {
      byte[] key = Topics.walletKey(id).getBytes(StandardCharsets.UTF_8);
      if (partitions.contains(Utils.toPositive(Utils.murmur2(key)) % count)) {
        wallets.add(id);
      }
    }
    return wallets;
  }

  /** The wallets of the partitions streams-app process {@code child} holds now. */
  Set<Long> walletsHeldBy(ChildProcess child) {
    return walletsOf(held(mark(child)).keySet());
  }
}
