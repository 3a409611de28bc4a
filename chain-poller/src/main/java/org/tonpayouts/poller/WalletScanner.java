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
import org.tonpayouts.ton.api.WalletInfo;

/**
 * Reads one watched wallet from the chain for one round, without blocking: one transaction scan
 * (newest first, paged back by lt+hash), then, only if a pending message has expired and is still
 * unmatched, one fresh seqno read. Pure I/O: it never changes the watch list; {@link WalletRound}
 * draws the conclusions on the stream thread.
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

  /** Scans {@code wallet} and reads its seqno when {@link WalletRound} will need it at {@code now}. */
  CompletableFuture<WalletObservation> observe(WatchedWallet wallet, Instant now) {
    TonAddress address = TonAddress.parse(wallet.walletAddress());
    Long stopLt = wallet.cursor() == null ? null : wallet.cursor().lt();
    Long windowStart = wallet.windowStart(settings.clockSkew()).orElse(null);
    return scan(address, stopLt, windowStart, null, new ArrayList<>(), 1)
        .thenCompose(observation -> WalletRound.needsSeqnoRead(wallet, observation, now, settings)
            ? readSeqno(wallet, address, observation)
            : CompletableFuture.completedFuture(observation));
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
        return CompletableFuture.completedFuture(observation(acc, true));
      }
      ChainTransaction oldest = acc.get(acc.size() - 1);
      boolean pastCursor = stopLt == null || oldest.id().lt() <= stopLt;
      boolean pastWindow = windowStart == null || oldest.utime() < windowStart;
      if (pastCursor && pastWindow) {
        return CompletableFuture.completedFuture(observation(acc, true));
      }
      if (page >= settings.maxPages()) {
        log.warn("scan stopped at page limit wallet={} pages={} transactions={} oldestLt={}",
            address.toRaw(), page, acc.size(), oldest.id().lt());
        return CompletableFuture.completedFuture(observation(acc, false));
      }
      return scan(address, stopLt, windowStart, oldest.id(), acc, page + 1);
    });
  }

  private static WalletObservation observation(List<ChainTransaction> newestFirst, boolean complete) {
    List<ChainTransaction> oldestFirst = new ArrayList<>(newestFirst);
    Collections.reverse(oldestFirst);
    return new WalletObservation(oldestFirst, complete, null);
  }

  /**
   * The seqno read of the safe-retry rule. A read that has not seen the newest transaction we
   * already scanned comes from a lagging node: it proves nothing and is dropped (the scan stands).
   */
  private CompletableFuture<WalletObservation> readSeqno(
      WatchedWallet wallet, TonAddress address, WalletObservation observation) {
    long newestSeenLt = newestLt(wallet, observation);
    metrics.apiCall("getWalletInformation");
    return api.getWalletInformation(address)
        .thenApply(info -> observation.withWalletSeqno(seqnoIfCurrent(wallet, info, newestSeenLt)))
        .exceptionally(e -> {
          log.warn("seqno read failed subwallet={} wallet={} error={}", wallet.subwalletId(), address.toRaw(),
              rootMessage(e));
          return observation;
        });
  }

  private Long seqnoIfCurrent(WatchedWallet wallet, WalletInfo info, long newestSeenLt) {
    long readLt = info.lastTransaction() == null ? 0 : info.lastTransaction().lt();
    if (readLt < newestSeenLt) {
      metrics.staleSeqnoRead();
      log.warn("stale seqno read ignored subwallet={} lastTxLt={} newestSeenLt={}",
          wallet.subwalletId(), readLt, newestSeenLt);
      return null;
    }
    if (info.seqno() != null) {
      return info.seqno();
    }
    if (info.isUninitialized()) {
      return 0L; // never deployed: its first message (seqno 0) has not applied
    }
    log.warn("seqno unknown subwallet={} state={} walletType={}", wallet.subwalletId(), info.accountState(),
        info.walletType());
    return null;
  }

  private static long newestLt(WatchedWallet wallet, WalletObservation observation) {
    long lt = wallet.cursor() == null ? 0 : wallet.cursor().lt();
    for (ChainTransaction tx : observation.transactions()) {
      lt = Math.max(lt, tx.id().lt());
    }
    return lt;
  }

  static String rootMessage(Throwable e) {
    Throwable t = e;
    while ((t instanceof java.util.concurrent.CompletionException
        || t instanceof java.util.concurrent.ExecutionException) && t.getCause() != null) {
      t = t.getCause();
    }
    return t.getClass().getSimpleName() + ": " + t.getMessage();
  }
}
