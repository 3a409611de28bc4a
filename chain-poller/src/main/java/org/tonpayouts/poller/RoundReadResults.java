package org.tonpayouts.poller;

import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.tonpayouts.poller.JettonTrailRound.Observation;
import org.tonpayouts.runtime.ops.OutageLog;

/**
 * What a wallet's round reads ({@link WalletRoundReads.Reads}) brought back, for the stream thread
 * to conclude on. A read that failed or missed the round's deadline is counted, logged as part of
 * an outage (a line when it starts and ends, a summary a minute between, never one per round) and
 * left out: the next round reads it again.
 */
final class RoundReadResults {
  private final OutageLog walletPolls;
  private final OutageLog jettonFollows;
  private final PollerMetrics metrics;

  /** Logs on {@code log}, the logger of the class that runs the rounds. */
  RoundReadResults(Logger log, Clock clock, PollerMetrics metrics) {
    this.walletPolls = new OutageLog(log, "wallet polls", clock);
    this.jettonFollows = new OutageLog(log, "jetton follows", clock);
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  /** The wallet's own transactions; null when the round did not read them or the read failed. */
  WalletObservation observation(WatchedWallet wallet, WalletRoundReads.Reads reads) {
    if (reads.observation() == null) {
      return null;
    }
    String subwallet = "subwallet=" + wallet.subwalletId();
    try {
      WalletObservation observation = reads.observation().getNow(null);
      if (observation != null) {
        walletPolls.succeeded(subwallet);
      }
      return observation;
    } catch (RuntimeException e) {
      metrics.walletPollFailed();
      walletPolls.failed(subwallet, WalletScanner.rootMessage(e));
      return null;
    }
  }

  /** The jetton follows that came back, by transfer key. */
  Map<List<String>, List<Observation>> follows(WatchedWallet wallet, WalletRoundReads.Reads reads) {
    Map<List<String>, List<Observation>> back = new HashMap<>();
    reads.follows().forEach((transfer, call) -> {
      String what = "subwallet=" + wallet.subwalletId() + " request=" + transfer.get(0) + " transfer=" + transfer.get(1);
      try {
        List<Observation> observations = call.getNow(null);
        if (observations != null) {
          jettonFollows.succeeded(what);
          back.put(transfer, observations);
        }
      } catch (RuntimeException e) {
        metrics.walletPollFailed();
        jettonFollows.failed(what, WalletScanner.rootMessage(e));
      }
    });
    return back;
  }
}
