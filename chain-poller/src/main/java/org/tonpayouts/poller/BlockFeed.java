package org.tonpayouts.poller;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.ops.OutageLog;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.BlockId;
import org.tonpayouts.ton.api.BlockTransactions;
import org.tonpayouts.ton.api.ChainTransaction;
import org.tonpayouts.ton.api.Failures;
import org.tonpayouts.ton.api.MasterchainInfo;
import org.tonpayouts.ton.api.NotFoundException;
import org.tonpayouts.ton.api.TonApi;

/**
 * The chain read block by block, once for the whole process: every new shard block's transactions
 * ({@code shards}, then {@code getBlockTransactionsExt} pages), kept for a while and handed to
 * every watched wallet, so a round costs a few calls per block whatever the number of wallets
 * instead of one {@code getTransactions} per wallet.
 *
 * <p>The feed vouches for a wallet only where it cannot have missed anything: it walks each
 * shard's blocks by seqno from the tops it first saw, so every block produced after it started
 * (its {@link #coveredSince}) passes through it, and it keeps the blocks read in the last
 * {@code retention}. A transfer first submitted after that moment (less {@code
 * poller.feed.clock.margin.ms}, how far streams-app's clock may be from ours) has every
 * transaction that could carry its messages in the kept blocks; so has a confirmed
 * payout watched for a bounce when it was confirmed after it. Anything else (a transfer from
 * before a restart or a gap, a wallet whose state must be read for an expiry) is scanned per
 * wallet as before. A gap (an error that persists, a shard split or merge, falling too far
 * behind) restarts the feed from the current tops: coverage starts again, nothing is assumed.
 *
 * <p>Thread-safe: stream tasks of the process share one feed; one step runs at a time.
 */
final class BlockFeed {
  private static final Logger log = LoggerFactory.getLogger(BlockFeed.class);
  /**
   * Transactions asked per page: the servers read the liteserver 256 at a time within one request
   * and accept far more per request, and each request costs one unit of the rate limit, so a busy
   * block still takes one or two requests (docs/toncenter-blocks.md).
   */
  static final int PAGE_SIZE = 1024;
  /** Shard blocks one step may read before the feed restarts from the tops instead of catching up. */
  static final int MAX_BLOCKS_BEHIND = 64;
  /** How long reads may keep failing before the feed stops vouching for wallets (they get scanned). */
  private static final long UNHEALTHY_AFTER_MS = 3_000;
  /** How long the feed stands down when the provider does not serve a method it needs. */
  static final Duration STAND_DOWN = Duration.ofMinutes(10);
  /** The methods only the feed calls: a 404 to one of them means the provider lacks it. */
  private static final Set<String> FEED_METHODS = Set.of("shards", "getBlockTransactionsExt");
  /** How long reads may keep failing before the feed gives up catching up and restarts from the tops. */
  private static final long RESTART_AFTER_MS = 30_000;

  private final TonApi api;
  private final MasterchainWatch masterchain;
  private final Clock clock;
  private final PollerSettings settings;
  private final PollerMetrics metrics;
  /** Failing block reads: one line when they start and stop failing, one a minute between (not one per block). */
  private final OutageLog blockReads;

  /** Newest shard block read, per shard; null until started (or after a gap). */
  private Map<ShardKey, Long> positions;
  /** When blocks started passing through without a gap (our clock); null while not started. */
  private Instant continuousSince;
  private final Deque<FeedBlock> kept = new ArrayDeque<>();
  /** The kept blocks' transactions by account (raw address), oldest first. */
  private final Map<String, Deque<ChainTransaction>> recent = new HashMap<>();
  private long lastMasterchainSeqno = -1;
  private long nextIndex = 1;
  private CompletableFuture<Progress> inFlight;
  private long failingSinceMs = -1;
  /** Until when the feed is off because the provider lacks one of its methods; null while it runs. */
  private Instant standingDownUntil;

  /** What a step left: the masterchain block it read up to, and the newest block index kept. */
  record Progress(MasterchainInfo masterchain, long newestIndex) {}

  /** A shard of a workchain. */
  private record ShardKey(int workchain, long shard) {
    static ShardKey of(BlockId id) {
      return new ShardKey(id.workchain(), id.shard());
    }
  }

  /** One shard block's transactions, by account (raw address), each list oldest first. */
  record FeedBlock(long index, BlockId id, Instant readAt, Map<String, List<ChainTransaction>> byAccount) {}

  BlockFeed(TonApi api, MasterchainWatch masterchain, Clock clock, PollerSettings settings, PollerMetrics metrics) {
    this.api = Objects.requireNonNull(api, "api");
    this.masterchain = Objects.requireNonNull(masterchain, "masterchain");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.blockReads = new OutageLog(log, "block feed reads", clock);
  }

  /** On, and not standing down: the wallets it covers need no scan of their own. */
  synchronized boolean enabled() {
    return !settings.feedRetention().isZero() && (standingDownUntil == null
        || !clock.instant().isBefore(standingDownUntil));
  }

  /**
   * Reads the masterchain (shared with every task, paced by {@link MasterchainWatch}) and, when it
   * advanced, every new shard block up to it. Completes with the masterchain answer once the
   * blocks are kept; a step already running is shared. Never fails because of the block reads: a
   * failed read leaves the feed where it was (retried next step) and wallets are scanned meanwhile.
   */
  synchronized CompletableFuture<Progress> advance(long nowMs) {
    if (inFlight != null && !inFlight.isDone()) {
      return inFlight;
    }
    CompletableFuture<Progress> step = masterchain.read(nowMs).thenCompose(info -> enabled()
        ? readUpTo(info).handle((ignored, error) -> afterStep(info, error))
        : CompletableFuture.completedFuture(new Progress(info, newestIndex())));
    inFlight = step;
    return step;
  }

  private synchronized Progress afterStep(MasterchainInfo info, Throwable error) {
    long now = clock.millis();
    if (error == null) {
      failingSinceMs = -1;
      blockReads.succeeded();
    } else if (Failures.cause(error) instanceof NotFoundException missing && FEED_METHODS.contains(missing.method())) {
      standDown(missing);
    } else {
      if (failingSinceMs < 0) {
        failingSinceMs = now;
      }
      blockReads.failed("masterchain=" + info.seqno() + " error=" + WalletScanner.rootMessage(error));
    }
    forgetOld(clock.instant());
    return new Progress(info, newestIndex());
  }

  /**
   * The provider answers 404 to a method the feed needs: it does not serve it (not every
   * toncenter-compatible provider has {@code getBlockTransactionsExt}), and asking again every
   * block only costs a request and a failure each time. The feed stops for {@link #STAND_DOWN}
   * (wallets are scanned one by one, as with the feed off), then tries again from the tops.
   */
  private void standDown(NotFoundException missing) {
    boolean first = standingDownUntil == null;
    standingDownUntil = clock.instant().plus(STAND_DOWN);
    positions = null;
    continuousSince = null;
    failingSinceMs = -1;
    String line = "block feed standing down until {}: the TON API answers 404 to {} (a provider that does not serve"
        + " it); every watched wallet is scanned on its own meanwhile, and the feed tries again then";
    if (first) {
      log.warn(line, standingDownUntil, missing.method());
    } else {
      log.info(line, standingDownUntil, missing.method());
    }
    metrics.feedStoodDown();
  }

  /** Reads the shard blocks new since the last step, up to masterchain block {@code info}. */
  private CompletableFuture<Void> readUpTo(MasterchainInfo info) {
    synchronized (this) {
      if (positions != null && failingSinceMs >= 0 && clock.millis() - failingSinceMs > RESTART_AFTER_MS) {
        positions = null; // stuck on a block that cannot be read: start again from the tops
      }
      if (positions != null && info.seqno() <= lastMasterchainSeqno) {
        return CompletableFuture.completedFuture(null);
      }
    }
    metrics.apiCall("shards");
    return api.getShards(info.seqno()).thenCompose(tops -> {
      synchronized (this) {
        if (positions == null || gapTo(tops)) {
          restartAt(info, tops);
          return CompletableFuture.completedFuture(null);
        }
      }
      return readBlocks(info, tops);
    });
  }

  /** True when the shards changed (a split or merge) or are too far ahead to catch up on. */
  private boolean gapTo(List<BlockId> tops) {
    if (tops.size() != positions.size()) {
      return true;
    }
    for (BlockId top : tops) {
      Long at = positions.get(ShardKey.of(top));
      if (at == null || top.seqno() < at || top.seqno() - at > MAX_BLOCKS_BEHIND) {
        return true;
      }
    }
    return false;
  }

  private void restartAt(MasterchainInfo info, List<BlockId> tops) {
    boolean first = positions == null;
    positions = new HashMap<>();
    tops.forEach(top -> positions.put(ShardKey.of(top), top.seqno()));
    kept.clear();
    recent.clear();
    failingSinceMs = -1;
    lastMasterchainSeqno = info.seqno();
    // every block produced after this answer came back has a higher seqno than these tops
    continuousSince = clock.instant();
    log.info("block feed {} masterchain={} shards={} coveredSince={}", first ? "started" : "restarted after a gap",
        info.seqno(), tops.size(), continuousSince);
  }

  /** Every shard block after the kept positions up to {@code tops}, in seqno order per shard. */
  private CompletableFuture<Void> readBlocks(MasterchainInfo info, List<BlockId> tops) {
    CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
    for (BlockId top : tops) {
      long from;
      synchronized (this) {
        from = positions.get(ShardKey.of(top)) + 1;
      }
      for (long seqno = from; seqno <= top.seqno(); seqno++) {
        BlockId id = seqno == top.seqno() ? top : BlockId.bySeqno(top.workchain(), top.shard(), seqno);
        chain = chain.thenCompose(ignored -> readBlock(id, null, new ArrayList<>()).thenAccept(this::keep));
      }
    }
    return chain.thenRun(() -> {
      synchronized (this) {
        lastMasterchainSeqno = Math.max(lastMasterchainSeqno, info.seqno());
      }
    });
  }

  private CompletableFuture<FeedBlock> readBlock(BlockId id, BlockTransactions.After after, List<ChainTransaction> acc) {
    metrics.apiCall("getBlockTransactionsExt");
    return api.getBlockTransactions(id, after, PAGE_SIZE).thenCompose(page -> {
      acc.addAll(page.transactions());
      Optional<BlockTransactions.After> next = page.next();
      if (page.incomplete() && next.isPresent()) {
        return readBlock(id, next.get(), acc);
      }
      return CompletableFuture.completedFuture(block(id, acc));
    });
  }

  private FeedBlock block(BlockId id, List<ChainTransaction> transactions) {
    Map<String, List<ChainTransaction>> byAccount = new HashMap<>();
    for (ChainTransaction tx : transactions) {
      byAccount.computeIfAbsent(tx.account().toRaw(), a -> new ArrayList<>()).add(tx.forMatching());
    }
    byAccount.values().forEach(list -> list.sort((a, b) -> Long.compare(a.id().lt(), b.id().lt())));
    return new FeedBlock(0, id, clock.instant(), byAccount);
  }

  private synchronized void keep(FeedBlock block) {
    ShardKey shard = ShardKey.of(block.id());
    Long at = positions == null ? null : positions.get(shard);
    if (at == null || block.id().seqno() != at + 1) {
      return; // the feed restarted meanwhile, or this block was kept already
    }
    positions.put(shard, block.id().seqno());
    kept.addLast(new FeedBlock(nextIndex++, block.id(), block.readAt(), block.byAccount()));
    block.byAccount().forEach((account, txs) -> recent.computeIfAbsent(account, a -> new ArrayDeque<>()).addAll(txs));
  }

  /**
   * Drops blocks read longer than the retention ago. Coverage moves with them: a transaction of a
   * message sent after a dropped block was read is in a later block, which is kept.
   */
  private void forgetOld(Instant now) {
    Instant cutoff = now.minus(settings.feedRetention());
    while (!kept.isEmpty() && kept.peekFirst().readAt().isBefore(cutoff)) {
      FeedBlock dropped = kept.removeFirst();
      dropped.byAccount().forEach((account, txs) -> {
        Deque<ChainTransaction> list = recent.get(account);
        for (int i = 0; i < txs.size() && list != null && !list.isEmpty(); i++) {
          list.removeFirst();
        }
        if (list != null && list.isEmpty()) {
          recent.remove(account);
        }
      });
      if (continuousSince != null && dropped.readAt().isAfter(continuousSince)) {
        continuousSince = dropped.readAt();
      }
    }
  }

  synchronized long newestIndex() {
    return kept.isEmpty() ? nextIndex - 1 : kept.peekLast().index();
  }

  /**
   * The wallet's transactions from the kept blocks, when they are all a round needs; empty when
   * the wallet must be scanned: the feed is off, not started, failing, or started after one of the
   * wallet's transfers or bounce watches began, or a transfer needs the wallet's state read.
   * Marked incomplete: a feed observation finds messages but never proves one absent.
   */
  synchronized Optional<WalletObservation> observe(WatchedWallet wallet, Instant now) {
    if (!enabled() || continuousSince == null || failingSinceMs >= 0 && clock.millis() - failingSinceMs
        > UNHEALTHY_AFTER_MS || wallet.needsStateRead(now, settings.clockSkew())) {
      return Optional.empty();
    }
    long coveredFrom = continuousSince.getEpochSecond() + 1; // whole seconds, rounded up
    for (WatchedTransfer t : wallet.pending()) {
      // firstSubmittedAt is taken on streams-app's clock before the first send: only that clock's
      // difference from ours separates it from the feed's start (the node's time plays no part here)
      // a handed-over jetton transfer needs nothing more of the wallet's transactions
      if (!t.handedOver() && t.windowStart(settings.feedClockMargin()) < coveredFrom) {
        return Optional.empty();
      }
    }
    for (BounceWatch b : wallet.bounceWatches()) {
      if (b.confirmedUtime() == null || b.confirmedUtime() - settings.clockSkew().toSeconds() < coveredFrom) {
        return Optional.empty();
      }
    }
    String account = TonAddress.parse(wallet.walletAddress()).toRaw();
    List<ChainTransaction> transactions = new ArrayList<>(recent.getOrDefault(account, new ArrayDeque<>()));
    return Optional.of(new WalletObservation(transactions, false, null));
  }

  /** When the blocks kept now start to cover everything (null: not started). */
  synchronized Instant coveredSince() {
    return continuousSince;
  }
}
