package org.tonpayouts.poller;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.tonpayouts.poller.JettonTrailRound.Observation;

/**
 * One wallet's calls in a round, started at once; the future completes when all of them are back,
 * and never fails (each read's own future tells how it went). The wallet's own transactions when
 * the round needs them (from the {@link BlockFeed} when it covers everything, else a scan of its
 * own), and a {@link JettonFollower} follow of every jetton transfer it handed over, including the
 * ones those very transactions hand over: these are followed as soon as the wallet's transactions
 * are back, in the round that sees the hand-over rather than the next one (a whole block later).
 * The jetton wallets' transactions are often in the wallet's own block (on devnet always); when
 * they are not there yet, the follow finds nothing above the trail's floor (one page of our jetton
 * wallet) and the next round goes on from the trail as stored, as it always did.
 *
 * <p>Which transfers the wallet's transactions hand over is worked out here, off the stream
 * thread, by the same pure {@link WalletRound} the stream thread concludes with, only to know what
 * to read: nothing is decided here. The stream thread concludes on the wallet as it is by then,
 * and {@link JettonTrailRound} takes a follow only for a trail at the stage and cursor it was read
 * from, so a follow read for a hand-over the stream thread does not arrive at is dropped.
 *
 * <p>All of a wallet's calls end within {@code roundTimeout} of the round's start: a follow started
 * once the wallet's transactions are back gets what is left of it, and none is started when
 * nothing is left (the next round follows it).
 */
final class WalletRoundReads {
  private final BlockFeed feed;
  private final WalletScanner scanner;
  private final JettonFollower follower;
  private final PollerSettings settings;
  private final PollerMetrics metrics;

  /**
   * One wallet's reads, all back.
   *
   * @param observation the wallet's own transactions; null when the round did not need them
   * @param follows the jetton follows, by transfer key
   */
  record Reads(CompletableFuture<WalletObservation> observation,
               Map<List<String>, CompletableFuture<List<Observation>>> follows) {}

  WalletRoundReads(BlockFeed feed, WalletScanner scanner, JettonFollower follower, PollerSettings settings,
      PollerMetrics metrics) {
    this.feed = Objects.requireNonNull(feed, "feed");
    this.scanner = Objects.requireNonNull(scanner, "scanner");
    this.follower = Objects.requireNonNull(follower, "follower");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  /** A polled round's reads of {@code wallet}: its transactions when needed, and its jetton transfers' follows. */
  CompletableFuture<Reads> start(WatchedWallet wallet, Instant now) {
    long deadline = deadline();
    Map<List<String>, CompletableFuture<List<Observation>>> follows = follow(wallet, wallet.handedOver(), now,
        deadline);
    if (!wallet.needsWalletReads()) {
      return allBack(null, follows);
    }
    CompletableFuture<WalletObservation> observation = observe(wallet, now)
        .orTimeout(settings.roundTimeout().toMillis(), TimeUnit.MILLISECONDS);
    return observation
        .thenApply(seen -> follow(wallet, handedOverBy(wallet, seen, now), now, deadline))
        .exceptionally(error -> Map.of()) // no transactions, no new hand-over: the observation reports the error
        .thenCompose(more -> {
          Map<List<String>, CompletableFuture<List<Observation>>> all = new HashMap<>(follows);
          all.putAll(more);
          return allBack(observation, all);
        });
  }

  /** Follows of {@code transfers} (handed over by {@code wallet}) alone: a round between blocks saw the hand-over. */
  CompletableFuture<Reads> follow(WatchedWallet wallet, List<WatchedTransfer> transfers, Instant now) {
    return allBack(null, follow(wallet, transfers, now, deadline()));
  }

  private long deadline() {
    return System.nanoTime() + settings.roundTimeout().toNanos();
  }

  private Map<List<String>, CompletableFuture<List<Observation>>> follow(WatchedWallet wallet,
      List<WatchedTransfer> transfers, Instant now, long deadline) {
    long left = deadline - System.nanoTime();
    Map<List<String>, CompletableFuture<List<Observation>>> follows = new HashMap<>();
    if (left <= 0) {
      return follows; // the round's time is up: the next round follows them from their stored trails
    }
    for (WatchedTransfer t : transfers) {
      follows.put(WalletRound.key(t), follower.follow(wallet, t, now).orTimeout(left, TimeUnit.NANOSECONDS));
    }
    return follows;
  }

  /**
   * The jetton transfers {@code seen} hands over: what the stream thread will conclude from it on
   * this wallet, worked out early to know what to read (not to decide: that stays with the stream thread).
   */
  private List<WatchedTransfer> handedOverBy(WatchedWallet wallet, WalletObservation seen, Instant now) {
    if (wallet.pending().stream().noneMatch(t -> t.jetton() != null && !t.handedOver())) {
      return List.of(); // no jetton transfer left to hand over (a TON wallet): no second look at the round
    }
    WatchedWallet after = WalletRound.apply(wallet, seen, now, settings).wallet();
    return after == null ? List.of() : after.handedOverSince(wallet);
  }

  /** The wallet's observation: from the block feed when it covers everything the round needs, else a scan of its own. */
  private CompletableFuture<WalletObservation> observe(WatchedWallet wallet, Instant now) {
    try {
      Optional<WalletObservation> fromFeed = feed.observe(wallet, now);
      metrics.walletObserved(fromFeed.isPresent() ? "feed" : "scan");
      return fromFeed.map(CompletableFuture::completedFuture).orElseGet(() -> scanner.observe(wallet, now));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e); // e.g. an address that does not parse
    }
  }

  private static CompletableFuture<Reads> allBack(CompletableFuture<WalletObservation> observation,
      Map<List<String>, CompletableFuture<List<Observation>>> follows) {
    List<CompletableFuture<?>> calls = new ArrayList<>(follows.values());
    if (observation != null) {
      calls.add(observation);
    }
    return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
        .handle((ignored, error) -> new Reads(observation, Map.copyOf(follows)));
  }
}
