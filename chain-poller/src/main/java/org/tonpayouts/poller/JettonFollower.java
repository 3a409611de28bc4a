package org.tonpayouts.poller;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import org.tonpayouts.poller.JettonTrail.Cursor;
import org.tonpayouts.poller.JettonTrail.Stage;
import org.tonpayouts.poller.JettonTrailRound.Observation;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.ChainTransaction;
import org.tonpayouts.ton.api.TonApi;
import org.tonpayouts.ton.api.TransactionId;

/**
 * Reads, for one round, the jetton wallets' transactions a handed-over jetton transfer's trail
 * needs, without blocking: the current stage's account ({@link JettonTrailRound#account}), newest
 * first, down to the trail's floor ({@code getTransactions} bounded by lt on the server), at most
 * {@code maxPages} pages; a search cut short goes on next round from where it stopped (the trail's
 * {@link Cursor}, kept in the store). When a stage finds its transaction and the trail moves on,
 * the next stage is read in the same round (all three accounts usually change in one or two
 * blocks). Pure I/O: it never changes the watch list; {@link JettonTrailRound} concludes on the
 * stream thread from the observations returned, in order. Each page counts as a {@code
 * getTransactions} API call. A failed call ends the follow with what was read before it (nothing:
 * the future fails), to be read again next round.
 */
final class JettonFollower {
  private final TonApi api;
  private final PollerSettings settings;
  private final PollerMetrics metrics;

  /** Pages read, newest first, and whether they reached the floor. */
  private record Pages(List<ChainTransaction> newestFirst, boolean reached) {}

  JettonFollower(TonApi api, PollerSettings settings, PollerMetrics metrics) {
    this.api = Objects.requireNonNull(api, "api");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  /** Follows {@code t} (handed over) from where its trail stands: one observation per stage read, in order. */
  CompletableFuture<List<Observation>> follow(WatchedWallet wallet, WatchedTransfer t, Instant now) {
    return step(wallet, t, now, new ArrayList<>());
  }

  private CompletableFuture<List<Observation>> step(WatchedWallet wallet, WatchedTransfer t, Instant now,
      List<Observation> acc) {
    Stage stage = t.trail().stage();
    Cursor from = t.trail().cursor();
    TonAddress account;
    try {
      account = TonAddress.parse(JettonTrailRound.account(t));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    CompletableFuture<Pages> read = page(account, from.resumeFrom(), from.floorLt(),
        tx -> JettonTrailRound.wanted(wallet, t, tx), new ArrayList<>(), 1);
    return read.handle((pages, error) -> {
      if (error != null) {
        return acc.isEmpty() ? CompletableFuture.<List<Observation>>failedFuture(error)
            : CompletableFuture.completedFuture(List.copyOf(acc));
      }
      Observation o = new Observation(stage, from, pages.newestFirst(), pages.reached());
      acc.add(o);
      JettonTrailRound.Decision d = JettonTrailRound.decide(wallet, t, o, now);
      if (d.verdict() == null && d.kept().trail().stage() != stage) {
        return step(wallet, d.kept(), now, acc); // found: read the next account at once
      }
      return CompletableFuture.completedFuture(List.copyOf(acc));
    }).thenCompose(f -> f);
  }

  /**
   * Pages of {@code account}'s transactions from {@code from} (null: the newest) down to {@code
   * floorLt}, until the floor, the page budget, or a page holding the transaction sought.
   */
  private CompletableFuture<Pages> page(TonAddress account, TransactionId from, long floorLt,
      Predicate<ChainTransaction> sought, List<ChainTransaction> acc, int page) {
    metrics.apiCall("getTransactions");
    return api.getTransactions(account, settings.pageSize(), from, floorLt).thenCompose(answer -> {
      boolean found = false;
      for (ChainTransaction tx : answer) {
        // a page starts with `from` itself (the previous page's oldest): keep each transaction once
        if ((from == null || tx.id().lt() < from.lt()) && tx.id().lt() > floorLt) {
          acc.add(tx);
          found |= sought.test(tx);
        }
      }
      if (answer.size() < settings.pageSize() || acc.isEmpty()) {
        return CompletableFuture.completedFuture(new Pages(acc, true));
      }
      ChainTransaction oldest = acc.get(acc.size() - 1);
      if (oldest.id().lt() <= floorLt + 1) {
        return CompletableFuture.completedFuture(new Pages(acc, true));
      }
      if (found || page >= settings.maxPages()) {
        return CompletableFuture.completedFuture(new Pages(acc, false));
      }
      return page(account, oldest.id(), floorLt, sought, acc, page + 1);
    });
  }
}
