package org.tonpayouts.poller;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.ConfirmationStatus;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.ChainMessage;
import org.tonpayouts.ton.api.ChainTransaction;
import org.tonpayouts.ton.api.TransactionId;

/**
 * The poller's verdicts for one wallet in one round: what the observed transactions and seqno
 * prove about each pending message. Pure: no I/O, no clock of its own, so every rule is testable.
 *
 * <p>The rules, in order (DESIGN.md, the safe-retry rule):
 * <ol>
 *   <li>A transaction whose inbound external message has our hash (or normalized hash) applied
 *       it: {@code CONFIRMED} when it sent something. When it sent nothing, {@code FAILED} only
 *       once a fresh seqno read shows the seqno consumed (the mode-3 send was skipped and the
 *       message can never apply again); with the seqno unchanged the transaction was aborted and
 *       the same message may still apply, so it stays watched.</li>
 *   <li>A message past {@code valid_until} + the clock-skew margin, with the wallet seqno still
 *       at or below its seqno, can never apply: {@code EXPIRED}.</li>
 *   <li>Past expiry with the seqno moved beyond it and no transaction carrying our hash: wait for
 *       one more scan that reaches back to the submission (it may have applied between our scan
 *       and the seqno read). Still nothing: exactly one outgoing message to the same destination
 *       with the same amount since the submission recovers the transaction ({@code CONFIRMED});
 *       anything else is {@code RECONCILIATION_REQUIRED}. Completion is never claimed on a guess.</li>
 * </ol>
 */
final class WalletRound {

  /** The wallet after the round (null when nothing is left to keep) and the verdicts to publish, in order. */
  record Result(WatchedWallet wallet, List<Verdict> verdicts) {}

  /** One conclusion about one message. */
  record Verdict(WatchedMessage message, Confirmation confirmation, String how) {}

  private WalletRound() {
  }

  /**
   * True when the round needs one fresh seqno read after {@code observation}'s scan: a pending
   * message without a matching transaction has expired (and has not yet seen its seqno pass), or
   * a transaction carrying one sent nothing (skipped send or aborted: only the seqno tells).
   */
  static boolean needsSeqnoRead(WatchedWallet wallet, WalletObservation observation, Instant now,
      PollerSettings settings) {
    for (WatchedMessage m : wallet.pending()) {
      Optional<ChainTransaction> tx = applying(m, observation.transactions());
      if (tx.isPresent() ? tx.get().outMsgs().isEmpty() && m.seqnoSeenPast() == null
          : m.seqnoSeenPast() == null && m.expired(now, settings.clockSkew())) {
        return true;
      }
    }
    return false;
  }

  static Result apply(WatchedWallet wallet, WalletObservation observation, Instant now, PollerSettings settings) {
    List<Verdict> verdicts = new ArrayList<>();
    List<WatchedMessage> pending = new ArrayList<>();
    Set<String> appliedWithoutSend = new HashSet<>();

    // 1. hash matches
    for (WatchedMessage m : wallet.pending()) {
      Optional<ChainTransaction> found = applying(m, observation.transactions());
      if (found.isEmpty()) {
        pending.add(m);
        continue;
      }
      ChainTransaction tx = found.get();
      Long seqnoNow = knownSeqno(m, observation);
      if (!tx.outMsgs().isEmpty()) {
        verdicts.add(verdict(wallet, m, ConfirmationStatus.CONFIRMED, tx, null, now, "in_msg hash"));
      } else if (seqnoNow != null && seqnoNow > m.seqno()) {
        verdicts.add(verdict(wallet, m, ConfirmationStatus.FAILED, tx,
            "the wallet accepted the message (seqno " + m.seqno() + " consumed, now " + seqnoNow + ") but sent"
                + " nothing: the send was skipped, e.g. the balance could not pay it (mode 3)", now, "in_msg hash"));
      } else {
        // aborted (seqno kept: the message may apply later) or not yet proven by a current seqno read
        pending.add(m);
        appliedWithoutSend.add(m.messageHash());
      }
    }

    // 2. expiry and reconciliation of what is left
    List<WatchedMessage> next = new ArrayList<>();
    for (WatchedMessage m : pending) {
      Verdict v = null;
      WatchedMessage kept = m;
      if (appliedWithoutSend.contains(m.messageHash())) {
        v = expiredIfSeqnoKept(wallet, m, observation, now, settings);
        kept = m.withWindowRescan(); // see that transaction again next round
      } else if (m.seqnoSeenPast() != null) {
        if (observation.complete()) {
          // this round's scan covered the message's window (needsWindow was true) and found no hash
          v = reconcile(wallet, m, observation, now, settings);
        } else {
          v = verdict(wallet, m, ConfirmationStatus.RECONCILIATION_REQUIRED, null,
              "wallet seqno moved to " + m.seqnoSeenPast() + " past message seqno " + m.seqno()
                  + " without a transaction carrying its hash, and the scan could not reach back to the"
                  + " submission (page limit)", now, "scan incomplete");
        }
      } else if (m.expired(now, settings.clockSkew()) && observation.walletSeqno() != null) {
        v = expiredIfSeqnoKept(wallet, m, observation, now, settings);
        if (v == null) {
          kept = m.withSeqnoSeenPast(observation.walletSeqno()); // look once more before concluding
        }
      } else if (observation.complete() && m.needsWindow()) {
        kept = m.withWindowScanned();
      }
      if (v != null) {
        verdicts.add(v);
      } else {
        next.add(kept);
      }
    }

    List<ResolvedMessage> resolved = new ArrayList<>(wallet.resolved());
    for (Verdict v : verdicts) {
      resolved.add(new ResolvedMessage(v.message().messageHash(), v.message().transferId(),
          v.confirmation().status(), v.confirmation().txHash(), now));
    }
    WatchedWallet updated = wallet.with(next, newestCursor(wallet.cursor(), observation), resolved)
        .forgetResolvedBefore(now, settings.resolvedRetention());
    return new Result(updated.isIdle() ? null : updated, verdicts);
  }

  /** Rule 2: EXPIRED when the message is past expiry and the current seqno read is still at or below its seqno. */
  private static Verdict expiredIfSeqnoKept(WatchedWallet wallet, WatchedMessage m, WalletObservation observation,
      Instant now, PollerSettings settings) {
    Long walletSeqno = observation.walletSeqno();
    if (walletSeqno == null || walletSeqno > m.seqno() || !m.expired(now, settings.clockSkew())) {
      return null;
    }
    return verdict(wallet, m, ConfirmationStatus.EXPIRED, null,
        "valid_until " + m.validUntil() + " + " + settings.clockSkew().toSeconds() + " s passed and the"
            + " wallet seqno is " + walletSeqno + " <= message seqno " + m.seqno()
            + ": the message can never apply", now, "seqno read");
  }

  /** The highest wallet seqno known for certain: this round's read, or one seen earlier (seqnos only grow). */
  private static Long knownSeqno(WatchedMessage m, WalletObservation observation) {
    Long read = observation.walletSeqno();
    Long earlier = m.seqnoSeenPast();
    if (read == null) {
      return earlier;
    }
    return earlier == null ? read : Long.valueOf(Math.max(read, earlier));
  }

  /**
   * Rule 3: our hash is nowhere since the submission although the seqno moved. Exactly one
   * outgoing message with our destination and amount (not sent by another of our own concluded
   * transfers) is our transfer sent under another hash; otherwise an operator must look.
   */
  private static Verdict reconcile(WatchedWallet wallet, WatchedMessage m, WalletObservation observation,
      Instant now, PollerSettings settings) {
    Optional<TonAddress> destination = parseAddress(m.destination());
    long windowStart = m.windowStart(settings.clockSkew());
    List<ChainTransaction> candidates = new ArrayList<>();
    if (destination.isPresent()) {
      for (ChainTransaction tx : observation.transactions()) {
        if (tx.utime() < windowStart || sentByAnotherConcludedTransfer(wallet, m, tx)) {
          continue;
        }
        for (ChainMessage out : tx.outMsgs()) {
          if (destination.get().equals(out.destination()) && out.value() == m.amountNano()) {
            candidates.add(tx);
          }
        }
      }
    }
    if (candidates.size() == 1) {
      return verdict(wallet, m, ConfirmationStatus.CONFIRMED, candidates.get(0), null, now,
          "destination+amount (hash not on chain, wallet seqno " + m.seqnoSeenPast() + ")");
    }
    String reason = "wallet seqno moved to " + m.seqnoSeenPast() + " past message seqno " + m.seqno()
        + " but no transaction carries the message hash, and "
        + (destination.isEmpty() ? "the destination '" + m.destination() + "' does not parse"
            : candidates.size() + " outgoing messages since the submission match destination and amount "
                + m.amountNano())
        + ": completion cannot be proven";
    return verdict(wallet, m, ConfirmationStatus.RECONCILIATION_REQUIRED, null, reason, now,
        candidates.size() + " destination+amount matches");
  }

  private static boolean sentByAnotherConcludedTransfer(WatchedWallet wallet, WatchedMessage m, ChainTransaction tx) {
    return tx.inMsg() != null && wallet.resolved().stream()
        .anyMatch(r -> !r.transferId().equals(m.transferId()) && tx.id().hash().equals(r.txHash()));
  }

  /**
   * The transaction that applied {@code m}. One message can appear in several transactions: an
   * aborted one (nothing sent, seqno kept) and then the one that applied it, so the one that sent
   * something wins, else the newest.
   */
  private static Optional<ChainTransaction> applying(WatchedMessage m, List<ChainTransaction> transactions) {
    ChainTransaction found = null;
    for (ChainTransaction tx : transactions) { // oldest first
      if (carries(tx, m) && (found == null || found.outMsgs().isEmpty())) {
        found = tx;
      }
    }
    return Optional.ofNullable(found);
  }

  private static boolean carries(ChainTransaction tx, WatchedMessage m) {
    ChainMessage in = tx.inMsg();
    return in != null && in.isExternalIn() && m.matches(in.hash());
  }

  private static TransactionId newestCursor(TransactionId cursor, WalletObservation observation) {
    TransactionId newest = cursor;
    for (ChainTransaction tx : observation.transactions()) {
      if (newest == null || tx.id().lt() > newest.lt()) {
        newest = tx.id();
      }
    }
    return newest;
  }

  private static Optional<TonAddress> parseAddress(String text) {
    try {
      return Optional.of(TonAddress.parse(text));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  private static Verdict verdict(WatchedWallet wallet, WatchedMessage m, ConfirmationStatus status,
      ChainTransaction tx, String reason, Instant now, String how) {
    Confirmation c = Confirmation.of(m.requestId(), m.transferId(), wallet.subwalletId(), m.messageHash(), m.seqno(),
        status,
        tx == null ? null : tx.id().hash(),
        tx == null ? null : tx.id().lt(),
        tx == null ? null : tx.utime(),
        tx == null ? null : tx.fee(),
        reason, now);
    return new Verdict(m, c, how);
  }
}
