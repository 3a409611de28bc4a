package org.tonpayouts.poller;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.ops.OutageLog;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.ChainMessage;
import org.tonpayouts.ton.api.ChainTransaction;
import org.tonpayouts.ton.api.TonApi;
import org.tonpayouts.ton.api.TransactionId;
import org.tonpayouts.ton.api.WalletSnapshot;

/**
 * Reads one watched wallet from the chain for one round, without blocking: when a pending
 * transfer needs it, the wallet's state first (seqno, last transaction and the node's own time,
 * from one answer), then its transactions, newest first, paged back by lt+hash down to where the
 * round needs them (the cursor, and the window of a transfer that needs one). Pure I/O: it never
 * changes the watch list; {@link WalletRound} draws the conclusions on the stream thread.
 *
 * <p>A scan reads at most {@code maxPages} pages a round. One that needs more (anyone can flood a
 * wallet with inbound transfers, and a restarted poller may find hundreds of them above a
 * transfer's own) goes on next round from where it stopped, never again from the newest: it first
 * reads what arrived above where it began, then pages on down. It keeps what a verdict can rest on
 * from the pages already read (the wallet's own transactions, bounces), so the round that reaches
 * the bottom sees every such transaction from the newest down, as one complete observation. The
 * progress lives in memory: a restarted poller starts its scans again.
 */
final class WalletScanner {
  private static final Logger log = LoggerFactory.getLogger(WalletScanner.class);

  private final TonApi api;
  private final PollerSettings settings;
  private final PollerMetrics metrics;
  /** A node that stays away fails every wallet's read every round: one line when it starts and stops, one a minute between. */
  private final OutageLog stateReads;
  /** Scans cut short by their page budget, by wallet address (raw), to go on with next round. */
  private final Map<String, ScanProgress> progress = new ConcurrentHashMap<>();

  /**
   * A scan that stopped at its page budget.
   *
   * @param top the newest transaction when it began: everything from here down to {@code resumeFrom} was read
   * @param resumeFrom the oldest transaction read: the next page starts here
   * @param kept what a verdict can rest on among the transactions read ({@link #keptOf}), newest first
   */
  private record ScanProgress(TransactionId top, TransactionId resumeFrom, List<ChainTransaction> kept) {}

  /** The pages one call read, newest first, and whether they reached where they had to. */
  private record Pages(List<ChainTransaction> newestFirst, boolean reached, int used) {
    TransactionId oldest() {
      return newestFirst.isEmpty() ? null : newestFirst.get(newestFirst.size() - 1).id();
    }

    TransactionId newest() {
      return newestFirst.isEmpty() ? null : newestFirst.get(0).id();
    }
  }

  /** Where a scan must reach down to: the cursor (lt) and a window start (unix seconds), each null when not needed. */
  private record Target(Long stopLt, Long windowStart) {
    boolean reachedBy(ChainTransaction oldest) {
      boolean pastCursor = stopLt == null || oldest.id().lt() <= stopLt;
      boolean pastWindow = windowStart == null || oldest.utime() < windowStart;
      return pastCursor && pastWindow;
    }

    /** Without a window the cursor bounds the answer on the server; with one we page past the cursor. */
    Long serverBound() {
      return windowStart == null ? stopLt : null;
    }
  }

  WalletScanner(TonApi api, PollerSettings settings, PollerMetrics metrics, Clock clock) {
    this.stateReads = new OutageLog(log, "wallet state reads", clock);
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
    Target target = new Target(wallet.cursor() == null ? null : wallet.cursor().lt(),
        wallet.windowStart(settings.clockSkew()).orElse(null));
    return state.thenCompose(snapshot -> scan(address, target).thenApply(scan -> scan.withSnapshot(snapshot)));
  }

  /** Forgets every scan in progress (the processor restarts; its next rounds scan afresh). */
  void forgetProgress() {
    progress.clear();
  }

  /** Forgets the scan in progress of a wallet no longer watched. */
  void forgetProgress(String walletAddress) {
    progress.remove(TonAddress.parse(walletAddress).toRaw());
  }

  /** The wallet's synced state; a failed read is logged and leaves the round without one. */
  private CompletableFuture<WalletSnapshot> readState(WatchedWallet wallet, TonAddress address) {
    metrics.apiCall("getAddressInformation");
    String key = "subwallet=" + wallet.subwalletId() + " wallet=" + address.toRaw();
    return api.getWalletSnapshot(address).handle((snapshot, e) -> {
      if (e != null) {
        stateReads.failed(key, rootMessage(e));
        return null;
      }
      stateReads.succeeded(key);
      return snapshot;
    });
  }

  private CompletableFuture<WalletObservation> scan(TonAddress address, Target target) {
    String key = address.toRaw();
    ScanProgress resumed = progress.remove(key);
    int budget = settings.maxPages();
    if (resumed == null) {
      return pages(address, null, target.serverBound(), target, budget)
          .thenApply(read -> conclude(address, read, null, List.of()));
    }
    // first what arrived above where the scan began, then on down from where it stopped
    Target above = new Target(null, null);
    return pages(address, null, resumed.top().lt(), above, budget).thenCompose(fresh -> {
      if (!fresh.reached()) {
        log.warn("scan restarted wallet={}: more than {} pages of transactions arrived since it began",
            address.toRaw(), budget);
        return CompletableFuture.completedFuture(conclude(address, fresh, null, List.of()));
      }
      List<ChainTransaction> kept = new ArrayList<>(keptOf(fresh.newestFirst()));
      kept.addAll(resumed.kept());
      TransactionId top = fresh.newest() != null ? fresh.newest() : resumed.top();
      ScanProgress sofar = new ScanProgress(top, resumed.resumeFrom(), kept);
      int left = budget - fresh.used();
      if (left <= 0) {
        return CompletableFuture.completedFuture(stopped(address, sofar, fresh.newestFirst()));
      }
      return pages(address, resumed.resumeFrom(), target.serverBound(), target, left)
          .thenApply(below -> conclude(address, below, sofar, fresh.newestFirst()));
    });
  }

  /**
   * The round's observation after reading {@code below} (the pages that page down toward the
   * target), with {@code sofar} the scan's earlier rounds (null: it began this round) and {@code
   * fresh} what this round read above them.
   */
  private WalletObservation conclude(TonAddress address, Pages below, ScanProgress sofar,
      List<ChainTransaction> fresh) {
    List<ChainTransaction> seen = new ArrayList<>(fresh);
    if (sofar != null) {
      seen.addAll(sofar.kept());
    }
    seen.addAll(below.newestFirst());
    if (below.reached()) {
      return new WalletObservation(oldestFirst(seen), true, null);
    }
    TransactionId top = sofar != null ? sofar.top() : below.newest();
    TransactionId resumeFrom = below.oldest() != null ? below.oldest() : sofar == null ? null : sofar.resumeFrom();
    if (top == null || resumeFrom == null) {
      return new WalletObservation(oldestFirst(seen), false, null);
    }
    List<ChainTransaction> kept = new ArrayList<>(sofar == null ? keptOf(below.newestFirst()) : sofar.kept());
    if (sofar != null) {
      kept.addAll(relevant(below.newestFirst()));
    }
    return stopped(address, new ScanProgress(top, resumeFrom, kept), seen);
  }

  /** Keeps the scan for next round; this round's observation is what it has seen, down to where it stopped. */
  private WalletObservation stopped(TonAddress address, ScanProgress sofar, List<ChainTransaction> seenThisRound) {
    progress.put(address.toRaw(), sofar);
    List<ChainTransaction> seen = new ArrayList<>(seenThisRound);
    seen.addAll(sofar.kept());
    log.warn("scan stopped at page limit, going on next round wallet={} pages={} oldestLt={} kept={}",
        address.toRaw(), settings.maxPages(), sofar.resumeFrom().lt(), sofar.kept().size());
    return new WalletObservation(oldestFirst(seen), false, null, sofar.resumeFrom().lt());
  }

  /**
   * Up to {@code budget} pages, newest first, from {@code from} (null: the newest) down to {@code
   * target} or to {@code toLt} on the server side, or until the history ends.
   */
  private CompletableFuture<Pages> pages(TonAddress address, TransactionId from, Long toLt, Target target,
      int budget) {
    return page(address, from, toLt, target, budget, new ArrayList<>(), 1);
  }

  private CompletableFuture<Pages> page(TonAddress address, TransactionId from, Long toLt, Target target, int budget,
      List<ChainTransaction> acc, int page) {
    metrics.apiCall("getTransactions");
    return api.getTransactions(address, settings.pageSize(), from, toLt).thenCompose(answer -> {
      for (ChainTransaction tx : answer) {
        // the page starts with `from` itself (the previous page's oldest): keep each transaction once
        if (from == null || tx.id().lt() < from.lt()) {
          acc.add(tx);
        }
      }
      if (answer.size() < settings.pageSize() || acc.isEmpty()) {
        return CompletableFuture.completedFuture(new Pages(acc, true, page));
      }
      ChainTransaction oldest = acc.get(acc.size() - 1);
      if (target.reachedBy(oldest)) {
        return CompletableFuture.completedFuture(new Pages(acc, true, page));
      }
      if (page >= budget) {
        return CompletableFuture.completedFuture(new Pages(acc, false, page));
      }
      return page(address, oldest.id(), toLt, target, budget, acc, page + 1);
    });
  }

  /**
   * The transactions a verdict can rest on: the wallet's own (an inbound external message, or
   * anything it sent) and inbound bounces. Plain inbound transfers are not: a flood of them is
   * read through, not kept.
   */
  private static List<ChainTransaction> relevant(List<ChainTransaction> transactions) {
    return transactions.stream().filter(tx -> {
      ChainMessage in = tx.inMsg();
      return in == null || in.isExternalIn() || in.isBounce() || !tx.outMsgs().isEmpty();
    }).toList();
  }

  /**
   * What a scan keeps of the pages it read first from the newest: the {@link #relevant} ones, and
   * the newest one, which tells later rounds how far up the scan saw.
   */
  private static List<ChainTransaction> keptOf(List<ChainTransaction> newestFirst) {
    List<ChainTransaction> kept = new ArrayList<>(relevant(newestFirst));
    if (!newestFirst.isEmpty() && (kept.isEmpty() || kept.get(0) != newestFirst.get(0))) {
      kept.add(0, newestFirst.get(0));
    }
    return kept;
  }

  /** Each transaction once, oldest first. */
  private static List<ChainTransaction> oldestFirst(List<ChainTransaction> transactions) {
    Map<Long, ChainTransaction> byLt = new TreeMap<>(Comparator.naturalOrder());
    transactions.forEach(tx -> byLt.putIfAbsent(tx.id().lt(), tx));
    return List.copyOf(byLt.values());
  }

  static String rootMessage(Throwable e) {
    Throwable t = org.tonpayouts.ton.api.Failures.cause(e);
    return t.getClass().getSimpleName() + ": " + t.getMessage();
  }
}
