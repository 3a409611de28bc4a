package org.tonpayouts.poller;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.ChainTransaction;
import org.tonpayouts.ton.api.TonApi;
import org.tonpayouts.ton.api.TransactionId;
import org.tonpayouts.ton.api.WalletSnapshot;

/**
 * Reads one watched wallet from the chain for one round, without blocking: when a pending
 * transfer needs it, the wallet's state first (seqno, last transaction and the node's own time,
 * from one answer), then one transaction scan (newest first, paged back by lt+hash). Pure I/O: it
 * never changes the watch list; {@link WalletRound} draws the conclusions on the stream thread.
 */
final class WalletScanner {
  private static final Logger log = LoggerFactory.getLogger(WalletScanner.class);

  private final TonApi api;
  private final PollerSettings settings;
  private final PollerMetrics metrics;

  WalletScanner(TonApi api, PollerSettings settings, PollerMetrics metrics) {
    this.api = Objects.requireNonNull(api, "api");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  /** Reads {@code wallet}'s state when {@link WalletRound} will need it at {@code now}, then scans it. */
  CompletableFuture<WalletObservation> observe(WatchedWallet wallet, Instant now) {
    TonAddress address = TonAddress.parse(wallet.walletAddress());
    CompletableFuture<WalletSnapshot> state = wallet.needsStateRead(now, settings.clockSkew())
        ? readState(wallet, address)
        : CompletableFuture.completedFuture(null);
    Long stopLt = wallet.cursor() == null ? null : wallet.cursor().lt();
    Long windowStart = wallet.windowStart(settings.clockSkew()).orElse(null);
    return state.thenCompose(snapshot -> scan(address, stopLt, windowStart, null, new ArrayList<>(), 1)
        .thenApply(scan -> new WalletObservation(scan.transactions(), scan.complete(), snapshot)));
  }

  /** The wallet's synced state; a failed read is logged and leaves the round without one. */
  private CompletableFuture<WalletSnapshot> readState(WatchedWallet wallet, TonAddress address) {
    metrics.apiCall("getAddressInformation");
    return api.getWalletSnapshot(address).exceptionally(e -> {
      log.warn("wallet state read failed subwallet={} wallet={} error={}", wallet.subwalletId(), address.toRaw(),
          rootMessage(e));
      return null;
    });
  }

  /**
   * One page per call, newest first, until the cursor ({@code stopLt}) and the window start
   * ({@code windowStart}, unix seconds) are both behind us or the history ends.
   */
  private CompletableFuture<WalletObservation> scan(
      TonAddress address, Long stopLt, Long windowStart, TransactionId from, List<ChainTransaction> acc, int page) {
    // Without a window the cursor bounds the answer on the server; with one we page past the cursor.
    Long toLt = windowStart == null ? stopLt : null;
    metrics.apiCall("getTransactions");
    return api.getTransactions(address, settings.pageSize(), from, toLt).thenCompose(answer -> {
      for (ChainTransaction tx : answer) {
        // the page starts with `from` itself (the previous page's oldest): keep each transaction once
        if (from == null || tx.id().lt() < from.lt()) {
          acc.add(tx);
        }
      }
      if (answer.size() < settings.pageSize() || acc.isEmpty()) {
        return CompletableFuture.completedFuture(scanned(acc, true));
      }
      ChainTransaction oldest = acc.get(acc.size() - 1);
      boolean pastCursor = stopLt == null || oldest.id().lt() <= stopLt;
      boolean pastWindow = windowStart == null || oldest.utime() < windowStart;
      if (pastCursor && pastWindow) {
        return CompletableFuture.completedFuture(scanned(acc, true));
      }
      if (page >= settings.maxPages()) {
        log.warn("scan stopped at page limit wallet={} pages={} transactions={} oldestLt={}",
            address.toRaw(), page, acc.size(), oldest.id().lt());
        return CompletableFuture.completedFuture(scanned(acc, false));
      }
      return scan(address, stopLt, windowStart, oldest.id(), acc, page + 1);
    });
  }

  private static WalletObservation scanned(List<ChainTransaction> newestFirst, boolean complete) {
    List<ChainTransaction> oldestFirst = new ArrayList<>(newestFirst);
    Collections.reverse(oldestFirst);
    return new WalletObservation(oldestFirst, complete, null);
  }

  static String rootMessage(Throwable e) {
    Throwable t = org.tonpayouts.ton.api.Failures.cause(e);
    return t.getClass().getSimpleName() + ": " + t.getMessage();
  }
}
