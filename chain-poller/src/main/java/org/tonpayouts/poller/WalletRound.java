package org.tonpayouts.poller;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.ConfirmationStatus;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.Bounces;
import org.tonpayouts.ton.api.ChainMessage;
import org.tonpayouts.ton.api.ChainTransaction;
import org.tonpayouts.ton.api.TransactionId;
import org.tonpayouts.ton.api.WalletSnapshot;

/**
 * The poller's verdicts for one wallet in one round: what the observed state and transactions
 * prove about each pending transfer. Pure: no I/O, no clock of its own, so every rule is testable.
 *
 * <p>Every message of a transfer carries the transfer's seqno N, so at most one of them applies.
 * The rules, in order (DESIGN.md, the safe-retry rule):
 * <ol>
 *   <li>A transaction whose inbound external message is one of the transfer's: {@code CONFIRMED}
 *       when it sent something. When it sent nothing, {@code FAILED} once a state that has seen
 *       that transaction shows the seqno past N (a skipped send); with the seqno at N the
 *       transaction was aborted and the message may still apply, so it stays watched.</li>
 *   <li>A state read whose node time ({@code sync_utime}) is past the newest message's
 *       {@code valid_until} + the skew margin, with the wallet's seqno not past N: none of the
 *       transfer's messages applied, and none ever can: {@code EXPIRED}, with that time as the
 *       evidence. Only the node's own time counts: a lagging node answers with an old time and
 *       an old seqno together, so lag delays an expiry and never causes one.</li>
 *   <li>A state read with the seqno past N while none of the transfer's hashes is on chain: only
 *       conclusive when the scan reached the state's last transaction and covered the transfer's
 *       window since its first submission. Then the transaction that took seqno N (its external
 *       message carries N) decides: exactly one of its outgoing messages with the transfer's
 *       destination and amount recovers it ({@code CONFIRMED}); anything else is {@code
 *       RECONCILIATION_REQUIRED}. A payment of the same amount to the same payee under another
 *       seqno is another transfer's, never this one's. Completion is never claimed on a guess.</li>
 * </ol>
 * Confirmed bounceable payouts are then watched for a while: a bounced message from their
 * destination arriving after them, returning no more than they sent and the start of their body,
 * is reported {@code BOUNCED}; each bounce is credited to one payout only, the oldest it fits.
 *
 * <p>A jetton transfer follows the same rules, with the wallet's message going to our own jetton
 * wallet ({@link WatchedTransfer#messageDestination}: rule 3 matches that destination and the TON
 * attached). The wallet's transaction only hands the transfer over, so where rule 1 or rule 3 finds
 * the transaction that sent the message, no verdict is published: the transfer is kept as handed
 * over ({@link JettonTrail}), needs no state read and no scan window any more, and its verdict comes
 * from the jetton wallets' transactions ({@link JettonTrailRound}). A skipped send ({@code FAILED}),
 * an expiry and rule 3's {@code RECONCILIATION_REQUIRED} are the wallet's to decide as for TON, and
 * carry no {@code JettonDelivery}: no jetton wallet took part. No bounce watch is kept for a jetton
 * transfer: a refusal comes back to the jetton wallets, where the trail looks for it.
 */
final class WalletRound {

  /** The wallet after the round (null when nothing is left to keep) and the verdicts to publish, in order. */
  record Result(WatchedWallet wallet, List<Verdict> verdicts) {}

  /** One conclusion about one transfer. */
  record Verdict(Confirmation confirmation, String how) {}

  private WalletRound() {
  }

  static Result apply(WatchedWallet wallet, WalletObservation observation, Instant now, PollerSettings settings) {
    return apply(wallet, observation, now, settings, null);
  }

  /**
   * The round's conclusions for the transfers in {@code observed} (null: all): a transfer that
   * joined the watch list while the round's calls ran is kept as it is, since the scan was not
   * planned for it (its window may not be covered); the next round covers it.
   */
  static Result apply(WatchedWallet wallet, WalletObservation observation, Instant now, PollerSettings settings,
      Set<List<String>> observed) {
    List<Verdict> verdicts = new ArrayList<>();
    List<WatchedTransfer> stillPending = new ArrayList<>();
    List<ResolvedTransfer> resolved = new ArrayList<>(wallet.resolved());
    List<BounceWatch> bounceWatches = new ArrayList<>(wallet.bounceWatches());
    List<CreditedBounce> credited = new ArrayList<>(wallet.creditedBounces());
    long scannedUpTo = observation.newestLt(wallet.cursor() == null ? 0 : wallet.cursor().lt());

    for (WatchedTransfer t : wallet.pending()) {
      if (observed != null && !observed.contains(key(t))) {
        stillPending.add(t);
        continue;
      }
      Decision d = decide(wallet, t, observation, scannedUpTo, now, settings, resolved);
      if (d.verdict() == null) {
        stillPending.add(d.kept());
        continue;
      }
      verdicts.add(d.verdict());
      resolved.add(new ResolvedTransfer(t.hashes(), d.verdict().confirmation(), now));
      Confirmation c = d.verdict().confirmation();
      if (c.status() == ConfirmationStatus.CONFIRMED && t.bounce() && t.jetton() == null && settings.bounceWindow().toSeconds() > 0) {
        bounceWatches.add(new BounceWatch(t.requestId(), t.transferId(), c.messageHash(), t.seqno(), t.destination(),
            c.lt(), now.plus(settings.bounceWindow()), c.utime(), t.amountNano(), returnedPart(t, d.transaction())));
      }
    }
    verdicts.addAll(bounces(wallet, observation, bounceWatches, credited, now, settings));

    // a scan cut short left a gap below what it saw: the cursor stays until a scan covers it
    TransactionId cursor = observation.reachedBackToLt() == null
        ? newestCursor(wallet.cursor(), observation) : wallet.cursor();
    WatchedWallet updated = wallet.with(stillPending, cursor, resolved, bounceWatches, credited)
        .forgetBefore(now, settings.resolvedRetention());
    return new Result(updated.isIdle() ? null : updated, verdicts);
  }

  /** A transfer's identity in a watch list: request and transfer id. */
  static List<String> key(WatchedTransfer t) {
    return List.of(t.requestId(), t.transferId());
  }

  /**
   * What a round concluded about one transfer: a verdict (with the transaction it names, if any),
   * or the transfer as it is kept.
   */
  private record Decision(Verdict verdict, WatchedTransfer kept, ChainTransaction transaction) {
    static Decision keep(WatchedTransfer t) {
      return new Decision(null, t, null);
    }

    static Decision conclude(Verdict v) {
      return new Decision(v, null, null);
    }

    static Decision conclude(Verdict v, ChainTransaction tx) {
      return new Decision(v, null, tx);
    }
  }

  /** What a bounce of the transfer's payout returns of its body, read off the transaction that paid it. */
  private static String returnedPart(WatchedTransfer t, ChainTransaction paid) {
    Optional<TonAddress> destination = parseAddress(t.messageDestination());
    if (paid == null || destination.isEmpty()) {
      return null;
    }
    return paid.outMsgs().stream()
        .filter(m -> destination.get().equals(m.destination()) && m.value() == t.amountNano())
        .findFirst().map(Bounces::returnedPart).orElse(null);
  }

  private static Decision decide(WatchedWallet wallet, WatchedTransfer t, WalletObservation observation,
      long scannedUpTo, Instant now, PollerSettings settings, List<ResolvedTransfer> resolved) {
    WalletSnapshot state = observation.snapshot();

    if (t.handedOver()) {
      return Decision.keep(t); // the jetton wallets decide
    }

    // 1. one of the transfer's messages is on chain
    Optional<ChainTransaction> found = applying(t, observation.transactions());
    if (found.isPresent()) {
      ChainTransaction tx = found.get();
      if (!tx.outMsgs().isEmpty() && t.jetton() != null) {
        String hash = t.hashes().contains(tx.inMsg().hash()) ? tx.inMsg().hash() : t.newestHash();
        return Decision.keep(handOver(t, tx, hash, null));
      }
      if (!tx.outMsgs().isEmpty()) {
        return Decision.conclude(verdict(wallet, t, tx.inMsg().hash(), ConfirmationStatus.CONFIRMED, tx, null, null,
            now, "in_msg hash"), tx);
      }
      return failedOrAborted(wallet, t, tx.id(), tx.inMsg().hash(), state, now);
    }
    if (t.appliedWithoutSend() != null) {
      return failedOrAborted(wallet, t, t.appliedWithoutSend(), t.newestHash(), state, now);
    }
    if (state == null) {
      return Decision.keep(scanned(t, observation));
    }

    // 2. expired by the node's own time, the seqno not past the transfer's
    long nodeTime = state.syncUtime();
    if (state.seqno() <= t.seqno()) {
      if (nodeTime >= t.validUntil() + settings.clockSkew().toSeconds()) {
        return Decision.conclude(verdict(wallet, t, t.newestHash(), ConfirmationStatus.EXPIRED, null,
            "node time " + nodeTime + " passed valid_until " + t.validUntil() + " + " + settings.clockSkew().toSeconds()
                + " s with the wallet seqno at " + state.seqno() + " <= " + t.seqno()
                + ": none of the transfer's messages applied, and none ever can",
            nodeTime, now, "node time"));
      }
      return Decision.keep(scanned(t, observation));
    }

    // 3. the seqno moved past the transfer's without any of its hashes: conclusive only on a full
    // view, this round's scan reaching both the state's last transaction and back to the transfer's
    // first submission (it does when the transfer's window was not marked scanned going in).
    boolean scanReachedState = scannedUpTo >= state.lastTransactionLt();
    if (!scanReachedState || !observation.complete() || t.windowScanned()) {
      // a lagging scan, or one that has not reached back yet: look again (back to the window) next round
      return Decision.keep(t.withWindowScanned(false));
    }
    return reconcile(wallet, t, observation, state, now, settings, resolved);
  }

  /**
   * A transaction carried one of the transfer's messages but sent nothing. A state that has seen
   * it with the seqno past the transfer's proves a skipped send ({@code FAILED}); with the seqno
   * unchanged the transaction aborted and the message may still apply; without such a state,
   * read it next round.
   */
  private static Decision failedOrAborted(WatchedWallet wallet, WatchedTransfer t, TransactionId tx, String hash,
      WalletSnapshot state, Instant now) {
    if (state != null && state.lastTransactionLt() >= tx.lt() && state.seqno() > t.seqno()) {
      Confirmation c = Confirmation.of(t.requestId(), t.transferId(), wallet.subwalletId(),
          t.hashes().contains(hash) ? hash : t.newestHash(), t.seqno(), ConfirmationStatus.FAILED, tx.hash(), tx.lt(),
          null, null, "the wallet accepted the message (seqno " + t.seqno() + " consumed, now " + state.seqno()
              + ") but sent nothing: the send was skipped, e.g. the balance could not pay it (mode 3)",
          now, state.syncUtime(), null);
      return Decision.conclude(new Verdict(c, "in_msg hash, no out_msgs"));
    }
    if (state != null && state.lastTransactionLt() >= tx.lt()) {
      // aborted (seqno kept): the same message may still apply until it expires; watch on
      return Decision.keep(t.withAppliedWithoutSend(null));
    }
    return Decision.keep(t.withAppliedWithoutSend(tx));
  }

  /** The transfer as kept after a scan: its window counts as covered only after a complete scan. */
  private static WatchedTransfer scanned(WatchedTransfer t, WalletObservation observation) {
    return t.windowScanned() == observation.complete() ? t : t.withWindowScanned(observation.complete());
  }

  /**
   * Rule 3: none of the transfer's hashes is on chain since its first submission although its
   * seqno was used. The transaction that took the seqno decides: exactly one of its outgoing
   * messages with the transfer's destination and amount is the transfer sent under a hash we do
   * not know; otherwise an operator must look. Only that transaction can be the transfer's (every
   * message of the transfer carries its seqno), so a transaction of another seqno, or one carrying
   * a hash of another transfer of ours or one a concluded transfer claimed, is never a candidate.
   */
  private static Decision reconcile(WatchedWallet wallet, WatchedTransfer t, WalletObservation observation,
      WalletSnapshot state, Instant now, PollerSettings settings, List<ResolvedTransfer> resolved) {
    Optional<TonAddress> destination = parseAddress(t.messageDestination());
    long windowStart = t.windowStart(settings.clockSkew());
    List<ChainTransaction> candidates = new ArrayList<>();
    Set<String> claimed = new HashSet<>();
    Set<String> othersHashes = new HashSet<>();
    resolved.forEach(r -> {
      if (r.txHash() != null) {
        claimed.add(r.txHash());
      }
      othersHashes.addAll(r.hashes());
    });
    wallet.pending().stream().filter(o -> !key(o).equals(key(t))).forEach(o -> {
      othersHashes.addAll(o.hashes());
      if (o.handedOver()) {
        claimed.add(o.trail().handOver().txHash()); // a jetton transfer's, followed on its jetton wallets
      }
    });
    if (destination.isPresent()) {
      for (ChainTransaction tx : observation.transactions()) {
        if (tx.utime() < windowStart || claimed.contains(tx.id().hash()) || !tookSeqno(tx, t.seqno())
            || othersHashes.contains(tx.inMsg().hash())) {
          continue;
        }
        for (ChainMessage out : tx.outMsgs()) {
          if (destination.get().equals(out.destination()) && out.value() == t.amountNano()) {
            candidates.add(tx);
          }
        }
      }
    }
    if (candidates.size() == 1) {
      ChainTransaction tx = candidates.get(0);
      // the match recovers the hash that applied (DESIGN.md): the verdict names that message, not
      // the newest one this watch knows, which did not apply. It may be an attempt of the transfer
      // this watch has not heard of yet (a re-check overtaken by the next attempt); the ledger,
      // which knows every hash of the transfer, decides, and claims nothing for a message it never
      // recorded.
      String hash = tx.inMsg() != null && tx.inMsg().hash() != null ? tx.inMsg().hash() : t.newestHash();
      String how = "recovered by destination and amount: none of the transfer's hashes " + t.hashes() + " is on"
          + " chain, the wallet seqno is " + state.seqno() + " past " + t.seqno() + ", and transaction "
          + tx.id().hash() + " (in_msg " + hash + ", seqno " + t.seqno() + ") pays " + t.amountNano() + " to "
          + t.messageDestination() + ", the only such payment of that seqno";
      if (t.jetton() != null) {
        return Decision.keep(handOver(t, tx, hash, how));
      }
      Confirmation c = Confirmation.of(t.requestId(), t.transferId(), wallet.subwalletId(), hash, t.seqno(),
          ConfirmationStatus.CONFIRMED, tx.id().hash(), tx.id().lt(), tx.utime(), tx.fee(), how,
          now, state.syncUtime(), null);
      return Decision.conclude(new Verdict(c, "seqno+destination+amount"), tx);
    }
    String reason = "wallet seqno moved to " + state.seqno() + " past the transfer's seqno " + t.seqno()
        + " but no transaction carries any of its message hashes " + t.hashes() + ", and "
        + (destination.isEmpty() ? "the destination '" + t.destination() + "' does not parse"
            : candidates.size() + " outgoing messages of the transaction that took seqno " + t.seqno()
                + " since the submission match destination and amount " + t.amountNano())
        + ": completion cannot be proven";
    return Decision.conclude(verdict(wallet, t, t.newestHash(), ConfirmationStatus.RECONCILIATION_REQUIRED, null,
        reason, state.syncUtime(), now, candidates.size() + " seqno+destination+amount matches"));
  }

  /**
   * The jetton transfer kept as handed over by the wallet's transaction {@code tx}, which applied
   * {@code hash} (the message the verdict will name) and sent the message to our jetton wallet.
   */
  private static WatchedTransfer handOver(WatchedTransfer t, ChainTransaction tx, String hash, String note) {
    Optional<TonAddress> jettonWallet = parseAddress(t.messageDestination());
    Long messageLt = tx.outMsgs().stream()
        .filter(m -> jettonWallet.isPresent() && jettonWallet.get().equals(m.destination()) && m.createdLt() > 0)
        .map(ChainMessage::createdLt).findFirst().orElse(null);
    return t.withTrail(JettonTrail.handedOver(new JettonTrail.HandOver(hash, tx.id().hash(), tx.id().lt(),
        tx.utime(), tx.fee(), messageLt, note)));
  }

  /** True when {@code tx} applied an external message carrying {@code seqno}: the one that can have taken it. */
  private static boolean tookSeqno(ChainTransaction tx, long seqno) {
    ChainMessage in = tx.inMsg();
    if (in == null || !in.isExternalIn()) {
      return false;
    }
    OptionalLong carried = in.walletSeqno();
    return carried.isPresent() && carried.getAsLong() == seqno;
  }

  /**
   * Bounced messages from the destinations of watched payouts, oldest first, each credited to one
   * payout only: the oldest watch it fits (from its destination, after it, returning no more than
   * it sent and the start of its body), and never again once credited ({@code credited} outlives
   * the round). Between one sender and one receiver TON delivers messages in order, so payouts to
   * one address bounce in the order they were made. A watch is matched only against an observation
   * that reaches back to its payout: the oldest bounce it can have is then in view.
   */
  private static List<Verdict> bounces(WatchedWallet wallet, WalletObservation observation,
      List<BounceWatch> watches, List<CreditedBounce> credited, Instant now, PollerSettings settings) {
    List<Verdict> verdicts = new ArrayList<>();
    Set<String> used = new HashSet<>();
    credited.forEach(b -> used.add(b.txHash()));
    for (BounceWatch watch : List.copyOf(watches)) {
      Optional<TonAddress> destination = parseAddress(watch.destination());
      if (destination.isEmpty()) {
        watches.remove(watch);
        continue;
      }
      if (observation.reachedBackToLt() != null && watch.confirmedLt() < observation.reachedBackToLt()) {
        continue; // a scan cut short: the bounces between its payout and what the scan saw are not in view
      }
      for (ChainTransaction tx : observation.transactions()) {
        ChainMessage in = tx.inMsg();
        if (tx.id().lt() > watch.confirmedLt() && in != null && !used.contains(tx.id().hash())
            && destination.get().equals(in.source()) && in.isBounce() && returns(in, watch)) {
          used.add(tx.id().hash());
          credited.add(new CreditedBounce(tx.id().hash(), now.plus(settings.bounceWindow())));
          watches.remove(watch);
          Confirmation c = Confirmation.of(watch.requestId(), watch.transferId(), wallet.subwalletId(),
              watch.messageHash(), watch.seqno(), ConfirmationStatus.BOUNCED, tx.id().hash(), tx.id().lt(), tx.utime(),
              tx.fee(), "the payout bounced back from " + watch.destination() + " (the destination could not take"
                  + " it): " + in.value() + " nanotons returned in transaction " + tx.id().hash(),
              now, null, in.value());
          verdicts.add(new Verdict(c, "bounced in_msg from the destination"));
          break;
        }
      }
    }
    return verdicts;
  }

  /** True when {@code bounce} can return the watched payout: no more than it sent, and the start of its body. */
  private static boolean returns(ChainMessage bounce, BounceWatch watch) {
    if (watch.amountNano() != null && bounce.value() > watch.amountNano()) {
      return false;
    }
    return watch.returnedPart() == null || watch.returnedPart().equals(Bounces.returnedPartOf(bounce));
  }

  /**
   * The transaction that applied one of the transfer's messages. A message can appear in several
   * transactions (an aborted one, then the one that applied it), so one that sent something wins,
   * else the newest.
   */
  private static Optional<ChainTransaction> applying(WatchedTransfer t, List<ChainTransaction> transactions) {
    ChainTransaction found = null;
    for (ChainTransaction tx : transactions) { // oldest first
      ChainMessage in = tx.inMsg();
      if (in != null && in.isExternalIn() && t.matches(in.hash()) && (found == null || found.outMsgs().isEmpty())) {
        found = tx;
      }
    }
    return Optional.ofNullable(found);
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

  private static Verdict verdict(WatchedWallet wallet, WatchedTransfer t, String messageHash,
      ConfirmationStatus status, ChainTransaction tx, String reason, Long evidenceUtime, Instant now, String how) {
    String hash = t.hashes().contains(messageHash) ? messageHash : t.newestHash();
    Confirmation c = Confirmation.of(t.requestId(), t.transferId(), wallet.subwalletId(), hash, t.seqno(), status,
        tx == null ? null : tx.id().hash(),
        tx == null ? null : tx.id().lt(),
        tx == null ? null : tx.utime(),
        tx == null ? null : tx.fee(),
        reason, now, evidenceUtime, null);
    return new Verdict(c, how);
  }
}
