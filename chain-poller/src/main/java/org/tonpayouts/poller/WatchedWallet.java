package org.tonpayouts.poller;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.tonpayouts.schemas.Submission;
import org.tonpayouts.ton.api.TransactionId;

/**
 * One subwallet on the poller's watch list: the transfers still waiting for a verdict, confirmed
 * bounceable payouts still watched for a bounce, recent verdicts, and how far its transactions
 * have been examined. The value of the {@code watched-wallets} store, keyed by subwallet id; its
 * changelog is what lets a restarted poller resume watching.
 *
 * @param subwalletId the subwallet
 * @param walletAddress its address, raw form
 * @param pending transfers without a verdict yet, in arrival order
 * @param cursor newest transaction already examined; null before the first transaction was seen
 * @param resolved recent verdicts (kept for {@code poller.resolved.retention.ms})
 * @param bounceWatches confirmed bounceable payouts watched for a bounce
 * @param creditedBounces bounces already credited to a payout of this wallet, never credited again
 */
public record WatchedWallet(
    long subwalletId,
    String walletAddress,
    List<WatchedTransfer> pending,
    TransactionId cursor,
    List<ResolvedTransfer> resolved,
    List<BounceWatch> bounceWatches,
    List<CreditedBounce> creditedBounces) {

  public WatchedWallet {
    Objects.requireNonNull(walletAddress, "walletAddress");
    pending = pending == null ? List.of() : List.copyOf(pending);
    resolved = resolved == null ? List.of() : List.copyOf(resolved);
    bounceWatches = bounceWatches == null ? List.of() : List.copyOf(bounceWatches);
    creditedBounces = creditedBounces == null ? List.of() : List.copyOf(creditedBounces);
  }

  /** A wallet without credited bounces. */
  public WatchedWallet(long subwalletId, String walletAddress, List<WatchedTransfer> pending, TransactionId cursor,
      List<ResolvedTransfer> resolved, List<BounceWatch> bounceWatches) {
    this(subwalletId, walletAddress, pending, cursor, resolved, bounceWatches, List.of());
  }

  /** A wallet seen for the first time, with nothing to watch yet. */
  public static WatchedWallet empty(long subwalletId, String walletAddress) {
    return new WatchedWallet(subwalletId, walletAddress, List.of(), null, List.of(), List.of(), List.of());
  }


  /** The remembered verdict of the transfer {@code hash} belongs to, if any. */
  public Optional<ResolvedTransfer> resolvedFor(String hash) {
    return resolved.stream().filter(r -> r.knows(hash)).findFirst();
  }

  /** The pending transfer {@code submission} is about, if any. */
  Optional<WatchedTransfer> pendingFor(Submission s) {
    return pending.stream()
        .filter(t -> t.requestId().equals(s.requestId()) && t.transferId().equals(s.transferId())).findFirst();
  }

  /**
   * This wallet watching {@code submission}'s transfer: added, or merged into the pending entry
   * of the same transfer (a new attempt or a re-check). A re-check also drops the remembered
   * verdict, which is derived again.
   */
  public WatchedWallet watch(Submission s) {
    List<WatchedTransfer> next = new ArrayList<>();
    boolean merged = false;
    for (WatchedTransfer t : pending) {
      if (t.requestId().equals(s.requestId()) && t.transferId().equals(s.transferId())) {
        next.add(t.merge(s));
        merged = true;
      } else {
        next.add(t);
      }
    }
    if (!merged) {
      next.add(WatchedTransfer.of(s));
    }
    List<ResolvedTransfer> kept = s.recheck()
        ? resolved.stream().filter(r -> !(r.verdict().requestId().equals(s.requestId())
            && r.transferId().equals(s.transferId()))).toList()
        : resolved;
    return new WatchedWallet(subwalletId, walletAddress, next, cursor, kept, bounceWatches, creditedBounces);
  }

  /** True while the wallet must be polled: transfers pending or payouts watched for a bounce. */
  public boolean needsPolling() {
    return !pending.isEmpty() || !bounceWatches.isEmpty();
  }

  /**
   * Unix second a scan must reach back to: the earliest window of a transfer that needs one, or of
   * every transfer when no transaction has been examined yet; empty when the cursor suffices.
   */
  public Optional<Long> windowStart(Duration clockSkew) {
    return pending.stream()
        .filter(t -> !t.handedOver())
        .filter(t -> cursor == null || !t.windowScanned())
        .map(t -> t.windowStart(clockSkew))
        .min(Long::compare);
  }

  /**
   * True when a round must read the wallet's own transactions: a transfer not yet handed over, or a
   * payout watched for a bounce. Handed-over jetton transfers are followed on the jetton wallets.
   */
  boolean needsWalletReads() {
    return !bounceWatches.isEmpty() || pending.stream().anyMatch(t -> !t.handedOver());
  }

  /** The jetton transfers the wallet handed over, followed on the jetton wallets. */
  List<WatchedTransfer> handedOver() {
    return pending.stream().filter(WatchedTransfer::handedOver).toList();
  }

  /** The jetton transfers handed over here that were not yet in {@code before} (this wallet earlier). */
  List<WatchedTransfer> handedOverSince(WatchedWallet before) {
    Set<List<String>> already = new HashSet<>();
    before.handedOver().forEach(t -> already.add(WalletRound.key(t)));
    return handedOver().stream().filter(t -> !already.contains(WalletRound.key(t))).toList();
  }

  /** True when this round must read the wallet's state before scanning. */
  boolean needsStateRead(Instant now, Duration clockSkew) {
    return pending.stream().anyMatch(t -> t.needsStateRead(now, clockSkew));
  }

  /** The newest time a remembered verdict or credited bounce still matters; empty when none is remembered. */
  public Optional<Instant> rememberedUntil(Duration retention) {
    return Stream.of(resolved.stream().map(r -> r.resolvedAt().plus(retention)),
            bounceWatches.stream().map(BounceWatch::until), creditedBounces.stream().map(CreditedBounce::until))
        .flatMap(s -> s).max(Instant::compareTo);
  }

  WatchedWallet with(List<WatchedTransfer> nextPending, TransactionId nextCursor, List<ResolvedTransfer> nextResolved,
      List<BounceWatch> nextBounceWatches, List<CreditedBounce> nextCredited) {
    return new WatchedWallet(subwalletId, walletAddress, nextPending, nextCursor, nextResolved, nextBounceWatches,
        nextCredited);
  }

  /**
   * This wallet without verdicts older than {@code retention}, and without bounce watches and
   * credited bounces past their end at {@code now}.
   */
  WatchedWallet forgetBefore(Instant now, Duration retention) {
    List<ResolvedTransfer> kept = resolved.stream().filter(r -> r.resolvedAt().plus(retention).isAfter(now)).toList();
    List<BounceWatch> watching = bounceWatches.stream().filter(b -> b.until().isAfter(now)).toList();
    List<CreditedBounce> credited = creditedBounces.stream().filter(b -> b.until().isAfter(now)).toList();
    return kept.size() == resolved.size() && watching.size() == bounceWatches.size()
        && credited.size() == creditedBounces.size()
        ? this : with(pending, cursor, kept, watching, credited);
  }

  /** True when the entry carries nothing worth keeping. */
  boolean isIdle() {
    return pending.isEmpty() && resolved.isEmpty() && bounceWatches.isEmpty() && creditedBounces.isEmpty();
  }
}
