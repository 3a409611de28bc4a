package org.tonpayouts.streams.wallet;

import java.time.Clock;
import java.time.Duration;
import org.tonpayouts.runtime.wakeup.StreamThreads;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.metrics.PayoutMetrics;
import org.tonpayouts.ton.wallet.Subwallets;

/**
 * What the wallet-tx processor needs from outside Kafka, and its settings.
 *
 * @param io the instance's I/O threads: issuing rounds, verdict batches, re-checks, re-sends
 * @param ledger the ledger, written before every event
 * @param subwallets subwallet addresses
 * @param clock our clock: round pacing, the watchdog, timestamps (never expiry: that is the node's)
 * @param metrics the meters
 * @param settings the processor's settings
 * @param owner this process as it signs its partition claims (host, pid and a random part)
 * @param threads the instance's stream threads: their wakers and their commits
 */
public record WalletTxDependencies(
    WalletIo io, Ledger ledger, Subwallets subwallets, Clock clock, PayoutMetrics metrics, Settings settings,
    String owner, StreamThreads threads) {

  /** A label unique to this process, for the partition claims it takes. */
  public static String processOwner() {
    String host;
    try {
      host = java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.io.IOException e) {
      host = "unknown-host";
    }
    return host + "/" + ProcessHandle.current().pid() + "/" + java.util.UUID.randomUUID().toString().substring(0, 8);
  }

  /**
   * @param clockSkew margin past valid_until before a missing verdict is overdue
   * @param verdictTimeout how long past valid_until + skew a verdict may take before the watchdog re-checks
   * @param backlogMax requests one wallet may have queued
   * @param dedupRetention how long accepted requestIds are remembered at intake
   */
  public record Settings(Duration clockSkew, Duration verdictTimeout, int backlogMax,
      Duration dedupRetention) {}
}
