package org.tonpayouts.poller;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.tonpayouts.schemas.Submission;
import org.tonpayouts.ton.api.TransactionId;

/**
 * One subwallet on the poller's watch list: the messages still waiting for a verdict and how far
 * its transactions have been examined. The value of the {@code watched-wallets} store, keyed by
 * subwallet id; its changelog is what lets a restarted poller resume watching.
 *
 * @param subwalletId the subwallet
 * @param walletAddress its address, raw form
 * @param pending messages without a verdict yet, in arrival order
 * @param cursor newest transaction already examined; null before the first transaction was seen
 * @param resolved recent verdicts (kept for {@code poller.resolved.retention.ms}) so a re-emitted
 *     submission of a concluded message is recognised
 */
public record WatchedWallet(
    long subwalletId,
    String walletAddress,
    List<WatchedMessage> pending,
    TransactionId cursor,
    List<ResolvedMessage> resolved) {

  public WatchedWallet {
    Objects.requireNonNull(walletAddress, "walletAddress");
    pending = pending == null ? List.of() : List.copyOf(pending);
    resolved = resolved == null ? List.of() : List.copyOf(resolved);
  }

  /** A wallet seen for the first time, with nothing to watch yet. */
  public static WatchedWallet empty(long subwalletId, String walletAddress) {
    return new WatchedWallet(subwalletId, walletAddress, List.of(), null, List.of());
  }

  /** True when {@code hash} is a pending message or one concluded recently. */
  public boolean knows(String messageHash) {
    return pending.stream().anyMatch(m -> m.messageHash().equals(messageHash))
        || resolved.stream().anyMatch(r -> r.messageHash().equals(messageHash));
  }

  /** This wallet with {@code submission}'s message added to the watch list. */
  public WatchedWallet watch(Submission submission) {
    List<WatchedMessage> next = new ArrayList<>(pending);
    next.add(WatchedMessage.of(submission));
    return new WatchedWallet(subwalletId, walletAddress, next, cursor, resolved);
  }

  public boolean hasPending() {
    return !pending.isEmpty();
  }

  /**
   * Unix second a scan must reach back to: the earliest window of a message that needs one, or of
   * every message when no transaction has been examined yet; empty when the cursor suffices.
   */
  public Optional<Long> windowStart(Duration clockSkew) {
    return pending.stream()
        .filter(m -> cursor == null || m.needsWindow())
        .map(m -> m.windowStart(clockSkew))
        .min(Long::compare);
  }

  /** The newest time a remembered verdict still matters; empty when none is remembered. */
  public Optional<Instant> rememberedUntil(Duration retention) {
    return resolved.stream().map(r -> r.resolvedAt().plus(retention)).max(Instant::compareTo);
  }

  WatchedWallet with(List<WatchedMessage> nextPending, TransactionId nextCursor, List<ResolvedMessage> nextResolved) {
    return new WatchedWallet(subwalletId, walletAddress, nextPending, nextCursor, nextResolved);
  }

  /** This wallet without verdicts older than {@code retention} at {@code now}. */
  WatchedWallet forgetResolvedBefore(Instant now, Duration retention) {
    List<ResolvedMessage> kept = resolved.stream()
        .filter(r -> r.resolvedAt().plus(retention).isAfter(now))
        .toList();
    return kept.size() == resolved.size() ? this : with(pending, cursor, kept);
  }

  /** True when the entry carries nothing worth keeping (nothing pending, no verdict remembered). */
  boolean isIdle() {
    return pending.isEmpty() && resolved.isEmpty();
  }
}
