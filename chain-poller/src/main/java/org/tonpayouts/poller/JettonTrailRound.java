package org.tonpayouts.poller;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.tonpayouts.poller.JettonTrail.Cursor;
import org.tonpayouts.poller.JettonTrail.HandOver;
import org.tonpayouts.poller.JettonTrail.Hop;
import org.tonpayouts.poller.JettonTrail.Stage;
import org.tonpayouts.poller.WalletRound.Result;
import org.tonpayouts.poller.WalletRound.Verdict;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.ConfirmationStatus;
import org.tonpayouts.schemas.JettonDelivery;
import org.tonpayouts.schemas.JettonOrder;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.ChainMessage;
import org.tonpayouts.ton.api.ChainTransaction;
import org.tonpayouts.ton.cell.TonCell;
import org.tonpayouts.ton.jetton.JettonMessage;
import org.tonpayouts.ton.jetton.JettonOps;
import org.tonpayouts.ton.jetton.JettonTransfer;

/**
 * The poller's verdicts on jetton transfers the wallet handed over to our jetton wallet, from the
 * jetton wallets' transactions {@link JettonFollower} read. Pure: no I/O, no clock of its own.
 *
 * <p>An internal message is known by its source and its created_lt, so each step checks where the
 * message came from, not only the query_id it carries: a look-alike from another sender (same
 * query_id, same amount, same receiver) is never ours. The steps, each bounded below by the lt of
 * the transaction before it (whatever a message causes comes after it):
 * <ol>
 *   <li>The sender jetton wallet's transaction whose inbound message comes from our wallet with a
 *       {@code transfer} of our query_id. When it refused it (its transaction threw or aborted, read
 *       from the transaction's cell, {@link ComputeOutcome}; or, without a readable cell, it sent
 *       no {@code internal_transfer} but a bounce back to our wallet): {@code FAILED}, naming the
 *       exit code and the sender jetton wallet; the jettons never left. When it sent {@code
 *       internal_transfer}: the receiver jetton wallet is that message's destination.</li>
 *   <li>The receiver jetton wallet's transaction whose inbound message comes from our jetton
 *       wallet with {@code internal_transfer} of our query_id and amount. Accepted (no throw, no
 *       bounce back): {@code CONFIRMED}, the only proof of delivery. Refused: a bounce goes back to
 *       our jetton wallet, and step 3 follows it.</li>
 *   <li>Our jetton wallet's transaction taking that bounce ({@code 0xFFFFFFFF}, then {@code
 *       internal_transfer} and our query_id) from the receiver's: it re-credits the jettons, and
 *       only then is the transfer {@code FAILED}, naming the receiver's exit code and the re-credit.</li>
 * </ol>
 * A shape no jetton wallet makes (a transaction that neither refused nor sent on, a refusal that
 * sent no bounce, a re-credit that threw) is {@code RECONCILIATION_REQUIRED}: completion is never
 * claimed on a guess. Every verdict names the wallet's transaction that handed the transfer over as
 * the transfer's ({@code txHash}, {@code lt}): its seqno is consumed whatever the jetton wallets
 * did. Nothing found only moves the search on: a lagging or failing node delays a verdict, never
 * makes one.
 */
final class JettonTrailRound {

  /**
   * What one search of the current stage's account read.
   *
   * @param stage the stage it searched for
   * @param from the cursor it started from: it applies only to a trail still there
   * @param newestFirst the transactions read, newest first, all above {@code from.floorLt()}
   * @param reachedFloor true when it read everything down to the floor (false: cut short by its
   *     page budget, or stopped at the transaction sought)
   */
  record Observation(Stage stage, Cursor from, List<ChainTransaction> newestFirst, boolean reachedFloor) {
    Observation {
      newestFirst = List.copyOf(newestFirst);
    }
  }

  /** A verdict, or the transfer as kept (its trail moved on). */
  record Decision(Verdict verdict, WatchedTransfer kept) {}

  private JettonTrailRound() {
  }

  /**
   * The wallet after applying the follows' observations (by transfer key, each list in the order
   * its stages were read) to its handed-over transfers, and the verdicts to publish.
   */
  static Result apply(WatchedWallet wallet, Map<List<String>, List<Observation>> follows, Instant now,
      PollerSettings settings) {
    List<Verdict> verdicts = new ArrayList<>();
    List<WatchedTransfer> stillPending = new ArrayList<>();
    List<ResolvedTransfer> resolved = new ArrayList<>(wallet.resolved());
    for (WatchedTransfer t : wallet.pending()) {
      List<Observation> observations = follows.get(WalletRound.key(t));
      if (!t.handedOver() || observations == null) {
        stillPending.add(t);
        continue;
      }
      WatchedTransfer current = t;
      Verdict verdict = null;
      for (Observation o : observations) {
        if (!appliesTo(current, o)) {
          break; // read for a trail that has moved on meanwhile
        }
        Decision d = decide(wallet, current, o, now);
        if (d.verdict() != null) {
          verdict = d.verdict();
          break;
        }
        current = d.kept();
      }
      if (verdict == null) {
        stillPending.add(current);
      } else {
        verdicts.add(verdict);
        resolved.add(new ResolvedTransfer(t.hashes(), verdict.confirmation(), now));
      }
    }
    WatchedWallet updated = wallet.with(stillPending, wallet.cursor(), resolved, wallet.bounceWatches(),
        wallet.creditedBounces()).forgetBefore(now, settings.resolvedRetention());
    return new Result(updated.isIdle() ? null : updated, verdicts);
  }

  private static boolean appliesTo(WatchedTransfer t, Observation o) {
    return t.handedOver() && t.trail().stage() == o.stage() && t.trail().cursor().equals(o.from());
  }

  /** The account (raw) the transfer's current stage searches. */
  static String account(WatchedTransfer t) {
    JettonTrail trail = t.trail();
    return trail.stage() == Stage.RECEIVER ? trail.sender().nextAccount() : t.jetton().senderJettonWallet();
  }

  /** True when {@code tx} is the transaction the transfer's current stage looks for. */
  static boolean wanted(WatchedWallet wallet, WatchedTransfer t, ChainTransaction tx) {
    JettonTrail trail = t.trail();
    ChainMessage in = tx.inMsg();
    if (in == null || in.source() == null || tx.id().lt() <= trail.cursor().floorLt()) {
      return false;
    }
    JettonOrder order = t.jetton();
    return switch (trail.stage()) {
      case SENDER -> from(in, wallet.walletAddress(), trail.handOver().messageLt())
          && JettonTransfer.read(in.bodyBase64()).filter(b -> b.queryId() == order.queryId()).isPresent();
      case RECEIVER -> from(in, trail.sender().account(), trail.sender().nextMessageLt())
          && jettonMessage(in) instanceof JettonMessage.InternalTransfer it
          && it.queryId() == order.queryId() && it.amount().equals(order.amount())
          && sameAccount(it.from(), wallet.walletAddress());
      case RECREDIT -> from(in, trail.receiver().account(), trail.receiver().nextMessageLt())
          && jettonMessage(in) instanceof JettonMessage.Bounced b
          && b.op() == JettonOps.INTERNAL_TRANSFER && b.queryId() == order.queryId();
    };
  }

  /** What {@code o} tells about {@code t}, whose trail is at {@code o}'s stage and cursor. */
  static Decision decide(WatchedWallet wallet, WatchedTransfer t, Observation o, Instant now) {
    Optional<ChainTransaction> found = o.newestFirst().stream()
        .filter(tx -> wanted(wallet, t, tx))
        .reduce((newer, older) -> older); // the first one our message caused
    if (found.isEmpty()) {
      return new Decision(null, t.withTrail(t.trail().withCursor(next(o))));
    }
    ChainTransaction tx = found.get();
    return switch (o.stage()) {
      case SENDER -> senderTook(wallet, t, tx, now);
      case RECEIVER -> receiverTook(wallet, t, tx, now);
      case RECREDIT -> recredited(wallet, t, tx, now);
    };
  }

  /** Step 1: our jetton wallet's transaction that took the wallet's {@code transfer}. */
  private static Decision senderTook(WatchedWallet wallet, WatchedTransfer t, ChainTransaction tx, Instant now) {
    JettonOrder order = t.jetton();
    Optional<ComputeOutcome> outcome = ComputeOutcome.of(tx);
    Optional<ChainMessage> handedOn = tx.outMsgs().stream().filter(m -> m.destination() != null
        && jettonMessage(m) instanceof JettonMessage.InternalTransfer it && it.queryId() == order.queryId())
        .findFirst();
    boolean bouncedToUs = tx.outMsgs().stream().anyMatch(m -> sameAccount(m.destination(), wallet.walletAddress())
        && jettonMessage(m) instanceof JettonMessage.Bounced);
    boolean refused = outcome.map(ComputeOutcome::refused).orElse(bouncedToUs);
    if (refused && handedOn.isEmpty()) {
      Integer code = outcome.map(ComputeOutcome::refusalCode).orElse(null);
      String what = outcome.map(ComputeOutcome::describeRefusal).orElse("a bounce back to our wallet (no readable"
          + " transaction cell, so no exit code)");
      JettonDelivery delivery = new JettonDelivery(order.master(), order.amount(), order.queryId(),
          order.senderJettonWallet(), tx.id().hash(), tx.id().lt(), null, null, null, code,
          order.senderJettonWallet(), null);
      return conclude(wallet, t, ConfirmationStatus.FAILED, "our jetton wallet " + order.senderJettonWallet()
          + " refused the transfer (query_id " + order.queryId() + "): " + what + " in its transaction "
          + tx.id().hash() + "; the jettons never left it, and the wallet's transaction consumed seqno " + t.seqno(),
          delivery, now, "sender jetton wallet refused");
    }
    if (!refused && handedOn.isPresent()) {
      ChainMessage m = handedOn.get();
      Hop hop = new Hop(order.senderJettonWallet(), tx.id().hash(), tx.id().lt(), null, m.destination().toRaw(),
          m.createdLt() > 0 ? m.createdLt() : null);
      return new Decision(null, t.withTrail(t.trail().withSender(hop)));
    }
    JettonDelivery delivery = new JettonDelivery(order.master(), order.amount(), order.queryId(),
        order.senderJettonWallet(), tx.id().hash(), tx.id().lt(), null, null, null,
        outcome.map(ComputeOutcome::refusalCode).orElse(null), null, null);
    return conclude(wallet, t, ConfirmationStatus.RECONCILIATION_REQUIRED, "our jetton wallet "
        + order.senderJettonWallet() + " took the transfer (query_id " + order.queryId() + ") in transaction "
        + tx.id().hash() + " but " + (refused ? "refused it and still sent internal_transfer"
            : "neither refused it nor sent internal_transfer") + ": where the jettons went cannot be proven",
        delivery, now, "sender jetton wallet, no known outcome");
  }

  /** Step 2: the receiver jetton wallet's transaction that took our jetton wallet's {@code internal_transfer}. */
  private static Decision receiverTook(WatchedWallet wallet, WatchedTransfer t, ChainTransaction tx, Instant now) {
    JettonOrder order = t.jetton();
    Hop sender = t.trail().sender();
    Optional<ComputeOutcome> outcome = ComputeOutcome.of(tx);
    Optional<ChainMessage> bounceBack = tx.outMsgs().stream()
        .filter(m -> sameAccount(m.destination(), sender.account()) && jettonMessage(m) instanceof JettonMessage.Bounced)
        .findFirst();
    boolean refused = outcome.map(ComputeOutcome::refused).orElse(false) || bounceBack.isPresent();
    if (!refused) {
      JettonDelivery delivery = new JettonDelivery(order.master(), order.amount(), order.queryId(),
          order.senderJettonWallet(), sender.txHash(), sender.lt(), sender.nextAccount(), tx.id().hash(),
          tx.id().lt(), null, null, null);
      return conclude(wallet, t, ConfirmationStatus.CONFIRMED, t.trail().handOver().note(), delivery, now,
          "receiver jetton wallet accepted internal_transfer");
    }
    Integer code = outcome.map(ComputeOutcome::refusalCode).orElse(null);
    if (bounceBack.isPresent()) {
      ChainMessage m = bounceBack.get();
      Hop hop = new Hop(sender.nextAccount(), tx.id().hash(), tx.id().lt(), code, sender.account(),
          m.createdLt() > 0 ? m.createdLt() : null);
      return new Decision(null, t.withTrail(t.trail().withReceiver(hop)));
    }
    JettonDelivery delivery = new JettonDelivery(order.master(), order.amount(), order.queryId(),
        order.senderJettonWallet(), sender.txHash(), sender.lt(), sender.nextAccount(), null, null, code,
        sender.nextAccount(), null);
    return conclude(wallet, t, ConfirmationStatus.RECONCILIATION_REQUIRED, "the receiver's jetton wallet "
        + sender.nextAccount() + " refused internal_transfer (query_id " + order.queryId() + "): "
        + outcome.map(ComputeOutcome::describeRefusal).orElse("refused") + " in its transaction " + tx.id().hash()
        + ", and sent no bounce back: the jettons left our jetton wallet (transaction " + sender.txHash()
        + ") and did not come back", delivery, now, "receiver jetton wallet refused, no bounce");
  }

  /** Step 3: our jetton wallet's transaction that took the receiver's bounce back and re-credited the jettons. */
  private static Decision recredited(WatchedWallet wallet, WatchedTransfer t, ChainTransaction tx, Instant now) {
    JettonOrder order = t.jetton();
    Hop sender = t.trail().sender();
    Hop receiver = t.trail().receiver();
    Optional<ComputeOutcome> outcome = ComputeOutcome.of(tx);
    if (outcome.map(ComputeOutcome::refused).orElse(false)) {
      JettonDelivery delivery = new JettonDelivery(order.master(), order.amount(), order.queryId(),
          order.senderJettonWallet(), sender.txHash(), sender.lt(), receiver.account(), null, null,
          receiver.exitCode(), receiver.account(), null);
      return conclude(wallet, t, ConfirmationStatus.RECONCILIATION_REQUIRED, "the receiver's jetton wallet "
          + receiver.account() + " refused the transfer (" + JettonExitCodes.describe(receiver.exitCode())
          + ", transaction " + receiver.txHash() + ") and our jetton wallet's transaction " + tx.id().hash()
          + " taking the bounce back failed too (" + outcome.get().describeRefusal() + "): the jettons are not"
          + " provably back", delivery, now, "re-credit failed");
    }
    JettonDelivery delivery = new JettonDelivery(order.master(), order.amount(), order.queryId(),
        order.senderJettonWallet(), sender.txHash(), sender.lt(), receiver.account(), null, null,
        receiver.exitCode(), receiver.account(), tx.id().hash());
    return conclude(wallet, t, ConfirmationStatus.FAILED, "the receiver's jetton wallet " + receiver.account()
        + " refused the transfer (query_id " + order.queryId() + "): " + JettonExitCodes.describe(receiver.exitCode())
        + " in its transaction " + receiver.txHash() + "; our jetton wallet took the bounce back and re-credited the"
        + " jettons in transaction " + tx.id().hash() + "; the wallet's transaction consumed seqno " + t.seqno(),
        delivery, now, "receiver refused, re-credited");
  }

  /** The next cursor after a search that did not find the transaction sought. */
  static Cursor next(Observation o) {
    Cursor from = o.from();
    List<ChainTransaction> read = o.newestFirst();
    if (read.isEmpty()) {
      // nothing above the floor (below where a sweep in progress stopped): the sweep is done
      return new Cursor(Math.max(from.floorLt(), from.topLt() == null ? from.floorLt() : from.topLt()), null, null);
    }
    long newest = read.get(0).id().lt();
    if (o.reachedFloor()) {
      // everything from the top of this sweep down to the floor was examined
      long top = from.resumeFrom() != null && from.topLt() != null ? from.topLt() : newest;
      return new Cursor(Math.max(from.floorLt(), top), null, null);
    }
    long top = from.resumeFrom() != null && from.topLt() != null ? from.topLt() : newest;
    return new Cursor(from.floorLt(), read.get(read.size() - 1).id(), top);
  }

  private static Decision conclude(WatchedWallet wallet, WatchedTransfer t, ConfirmationStatus status, String reason,
      JettonDelivery delivery, Instant now, String how) {
    HandOver h = t.trail().handOver();
    Confirmation c = Confirmation.of(t.requestId(), t.transferId(), wallet.subwalletId(), h.messageHash(), t.seqno(),
        status, h.txHash(), h.lt(), h.utime(), h.fee(), reason, now, null, null).withJetton(delivery);
    return new Decision(new Verdict(c, how), null);
  }

  /**
   * True when {@code in} comes from {@code account} (raw), and, when both are known, was created at
   * {@code createdLt}: the message sent, not another one of the same sender.
   */
  private static boolean from(ChainMessage in, String account, Long createdLt) {
    return sameAccount(in.source(), account)
        && (createdLt == null || in.createdLt() <= 0 || in.createdLt() == createdLt);
  }

  private static boolean sameAccount(TonAddress address, String raw) {
    if (address == null || raw == null) {
      return false;
    }
    try {
      return address.equals(TonAddress.parse(raw));
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** The jetton message {@code m} carries; {@link JettonMessage.Other} when its body is absent or unreadable. */
  private static JettonMessage jettonMessage(ChainMessage m) {
    if (m.bodyBase64() == null || m.bodyBase64().isBlank()) {
      return new JettonMessage.Other(-1);
    }
    try {
      return JettonMessage.read(TonCell.fromBase64(m.bodyBase64()));
    } catch (RuntimeException e) {
      return new JettonMessage.Other(-1);
    }
  }
}
