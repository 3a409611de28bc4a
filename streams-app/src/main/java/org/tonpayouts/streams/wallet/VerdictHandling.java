package org.tonpayouts.streams.wallet;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.async.Inbox;
import org.tonpayouts.runtime.ops.OutageLog;
import org.tonpayouts.runtime.trust.VerifiedVerdict;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.ConfirmationStatus;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.record.RecordedVerdict;
import org.tonpayouts.streams.ledger.record.TransferDecision;
import org.tonpayouts.streams.ledger.record.VerdictCommand;
import org.tonpayouts.streams.ledger.record.VerdictRecorder;
import org.tonpayouts.streams.ledger.record.VerdictResult;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.TransferRow;

/**
 * The chain poller's verdicts: each is handed to the ledger's verdict batches, and what the
 * ledger made of it comes back through the task's {@link Inbox} to settle the wallet's current
 * transfer, give it its next attempt, flag it for an operator, or publish a bounce. A verdict the
 * ledger could not record is tried again a second later; one for a transfer the wallet is no
 * longer on is recorded and goes no further.
 */
final class VerdictHandling {
  private static final Logger log = LoggerFactory.getLogger(WalletTxProcessor.class);
  /** How long a verdict the ledger could not record waits before it is tried again. */
  private static final Duration VERDICT_RETRY = Duration.ofSeconds(1);

  private final TaskWallets wallets;
  private final WalletTxDependencies deps;
  private final Inbox inbox;
  /** Verdicts the ledger could not record, to try again, with when. */
  private final Map<VerdictCommand, Instant> retries = new HashMap<>();
  /** A verdict retried every second while the ledger is away is logged when that starts and ends, not at each try. */
  private final OutageLog notRecorded;

  VerdictHandling(TaskWallets wallets, WalletTxDependencies deps, Inbox inbox) {
    this.wallets = wallets;
    this.deps = deps;
    this.inbox = inbox;
    this.notRecorded = new OutageLog(log, "recording verdicts", deps.clock());
  }

  void onConfirmation(String key, Confirmation verdict) {
    if (!Topics.walletKey(verdict.subwalletId()).equals(key)) {
      // signed, but moved to another wallet's key: the verdict speaks of its own wallet only
      refuse(key, "a verdict of subwallet " + verdict.subwalletId() + " (request " + verdict.requestId() + ", transfer "
          + verdict.transferId() + ") under the key of another wallet", verdict.messageHash());
      return;
    }
    log.debug("verdict received subwallet={} request={} transfer={} status={} hash={} observedAt={}", key,
        verdict.requestId(), verdict.transferId(), verdict.status(), verdict.messageHash(), verdict.observedAt());
    WalletHead head = wallets.get(key);
    QueuedRequest queued = wallets.currentRequest(head);
    boolean current = queued != null && isCurrent(head, queued, verdict);
    if (verdict.status() == ConfirmationStatus.EXPIRED && current && head.current() != null
        && !head.current().newestHash().equals(verdict.messageHash())) {
      log.info("expiry of an older attempt ignored subwallet={} request={} transfer={} hash={} newest={}", key,
          verdict.requestId(), verdict.transferId(), verdict.messageHash(), head.current().newestHash());
      return;
    }
    if (current && verdict.status() == ConfirmationStatus.CONFIRMED
        && queued.request().transfer(head.transferIndex()).paysJetton()
        && (verdict.jetton() == null || !verdict.jetton().delivered())) {
      // the wallet's transaction only hands a jetton transfer to our jetton wallet: a CONFIRMED
      // without the receiver's acceptance (a chain-poller from before jetton payouts) proves nothing
      refuseBecause(key, "verdict refused, not applied: a CONFIRMED verdict for jetton transfer "
          + verdict.requestId() + "/" + verdict.transferId() + " that does not name the receiver jetton wallet's"
          + " acceptance: is a chain-poller older than jetton payouts running? It reads the wallet's transaction only;"
          + " the transfer waits for a verdict of an up-to-date poller (or the watchdog's re-check)",
          verdict.messageHash());
      return;
    }
    record(key, new VerdictCommand(verdict, current ? queued.request() : null,
        current ? queued.origin() : null, deps.subwallets().address(verdict.subwalletId()).toRaw()));
  }

  /**
   * A record of {@code payout.confirmations} that is not chain-poller's (no MAC, a wrong one): whoever
   * wrote it cannot move a wallet. Dropped, counted and audited; the wallet's transfer keeps waiting
   * for a true verdict (or the watchdog's re-check).
   */
  void onRefused(String key, VerifiedVerdict.Refused refused, Optional<RecordMetadata> from) {
    refuse(key, "a record of " + from.map(m -> m.topic() + "-" + m.partition() + "@" + m.offset()).orElse(
        Topics.PAYOUT_CONFIRMATIONS.name()) + " (" + refused.bytes() + " bytes, SHA-256 " + refused.sha256()
        + "): " + refused.why(), null);
  }

  private void refuse(String key, String what, String messageHash) {
    refuseBecause(key, "verdict refused, not applied: " + what + "; only chain-poller holds the verdict keys, so"
        + " someone else wrote to payout.confirmations: check who may write it (ACLs) and rotate the keys if they"
        + " may have leaked", messageHash);
  }

  private void refuseBecause(String key, String detail, String messageHash) {
    deps.metrics().verdictRefused();
    log.error("verdict refused subwallet={} detail={}", key, detail);
    Long subwallet = parseSubwallet(key);
    deps.io().audit(new AuditEvent(0, null, AuditEvent.Level.ERROR, AuditEvent.Type.VERDICT_REFUSED, subwallet,
        subwallet == null ? null : deps.subwallets().address(subwallet).toRaw(), null, null, null, messageHash, null,
        detail));
  }

  private static Long parseSubwallet(String key) {
    try {
      return key == null ? null : Long.parseLong(key);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  boolean hasRetries() {
    return !retries.isEmpty();
  }

  /** Hands the verdicts whose retry time has come to the ledger again. */
  void retryDue(Instant now) {
    if (retries.isEmpty()) {
      return;
    }
    List<VerdictCommand> due = retries.entrySet().stream().filter(e -> !e.getValue().isAfter(now))
        .map(Map.Entry::getKey).toList();
    for (VerdictCommand command : due) {
      retries.remove(command);
      record(Topics.walletKey(command.verdict().subwalletId()), command);
    }
  }

  private void record(String key, VerdictCommand command) {
    deps.io().record(command, inbox, recorded -> onRecorded(key, recorded));
  }

  private static boolean isCurrent(WalletHead head, QueuedRequest queued, Confirmation verdict) {
    PayoutRequest request = queued.request();
    return request.requestId().equals(verdict.requestId())
        && head.transferIndex() < request.transfers().size()
        && request.transfer(head.transferIndex()).transferId().equals(verdict.transferId());
  }

  /** A verdict is in the ledger: turn it into the wallet's next state and events. */
  private void onRecorded(String key, RecordedVerdict recorded) {
    Confirmation verdict = recorded.command().verdict();
    if (recorded instanceof RecordedVerdict.Failed failed) {
      notRecorded.failed("subwallet=" + key, "verdict not recorded, retrying every " + VERDICT_RETRY.toMillis()
          + " ms request=" + verdict.requestId() + " hash=" + verdict.messageHash() + " why=" + failed.why());
      retries.put(recorded.command(), wallets.now().plus(VERDICT_RETRY));
      return;
    }
    notRecorded.succeeded("subwallet=" + key);
    if (recorded instanceof RecordedVerdict.Bounce bounce) {
      onBounce(key, verdict, bounce.decision());
      return;
    }
    RecordedVerdict.OnMessage onMessage = (RecordedVerdict.OnMessage) recorded;
    WalletHead head = wallets.get(key);
    QueuedRequest queued = wallets.currentRequest(head);
    if (queued == null || !isCurrent(head, queued, verdict)) {
      if (onMessage.result() instanceof VerdictResult.Contradicted) {
        deps.metrics().ledgerContradiction();
      }
      log.info("verdict for a transfer not in flight recorded subwallet={} request={} transfer={} hash={} status={}"
          + " ledger={}", key, verdict.requestId(), verdict.transferId(), verdict.messageHash(), verdict.status(),
          onMessage.result().getClass().getSimpleName());
      return;
    }
    apply(key, head, queued, verdict, onMessage.result());
  }

  /** Turns what the ledger made of a verdict on the current transfer into the wallet's next state and events. */
  private void apply(String key, WalletHead head, QueuedRequest queued, Confirmation verdict, VerdictResult result) {
    TransferRow about = VerdictRecorder.transferOf(result);
    if (about != null && !(about.requestId().equals(verdict.requestId())
        && about.transferId().equals(verdict.transferId()))) {
      // the ledger's answer is about another transfer than the wallet's: it can neither settle nor move this one
      deps.metrics().ledgerContradiction();
      log.error("verdict refused: the ledger's result is about another transfer subwallet={} request={} transfer={}"
          + " hash={} result={} resultTransfer={}/{}", key, verdict.requestId(), verdict.transferId(),
          verdict.messageHash(), result.getClass().getSimpleName(), about.requestId(), about.transferId());
      return;
    }
    if (result instanceof VerdictResult.Applied a) {
      decideOrWait(key, head, queued, a.transfer(), a.message(), verdict);
    } else if (result instanceof VerdictResult.GaveUp g) {
      wallets.publishDecided(key, head, queued, g.transfer(), g.message(), verdict);
    } else if (result instanceof VerdictResult.Repeated r) {
      decideOrWait(key, head, queued, r.transfer(), r.message(), verdict);
    } else if (result instanceof VerdictResult.Contradicted x) {
      deps.metrics().ledgerContradiction();
      if (x.transfer().status().isOpen()) {
        // The chain contradicts our record of this message: claim nothing, hand it to an operator.
        Confirmation flag = Confirmation.of(verdict.requestId(), verdict.transferId(), verdict.subwalletId(),
            x.message().messageHash(), x.message().seqno(), ConfirmationStatus.RECONCILIATION_REQUIRED, null, null, null,
            null, "the chain's verdict " + verdict.status() + " contradicts the ledger: " + x.why(), deps.clock().instant());
        record(key, new VerdictCommand(flag, queued.request(), queued.origin(), x.message().walletAddress()));
      } else {
        wallets.publishDecided(key, head, queued, x.transfer(), x.message(), null);
      }
    } else if (result instanceof VerdictResult.TooEarly t) {
      log.warn("expiry not proven yet, still waiting subwallet={} request={} transfer={} hash={} nodeTime={}"
          + " validUntil={}", key, verdict.requestId(), verdict.transferId(), verdict.messageHash(), t.evidenceUtime(),
          t.message().validUntil().getEpochSecond());
    } else if (result instanceof VerdictResult.OtherTransfer o) {
      deps.metrics().ledgerContradiction();
      log.error("verdict refused, it names another transfer's message subwallet={} request={} transfer={} hash={}"
          + " why={}", key, verdict.requestId(), verdict.transferId(), verdict.messageHash(), o.why());
    } else if (result instanceof VerdictResult.Unknown u) {
      log.error("verdict for a message the ledger never recorded subwallet={} request={} transfer={} hash={}", key,
          verdict.requestId(), verdict.transferId(), u.messageHash());
    }
  }

  /** A decided transfer is published; an open one whose newest message expired waits for its next attempt. */
  private void decideOrWait(String key, WalletHead head, QueuedRequest queued, TransferRow transfer, LedgerRow message,
      Confirmation verdict) {
    if (!transfer.status().isOpen()) {
      wallets.publishDecided(key, head, queued, transfer, message, verdict);
      return;
    }
    if (!message.status().isLive()
        && (head.current() == null || head.current().newestHash().equals(message.messageHash()))) {
      deps.metrics().expired();
      log.info("message expired unapplied, the transfer gets a new one with the same seqno subwallet={} request={}"
          + " transfer={} seqno={} hash={} attempt={} nodeTime={}", key, transfer.requestId(), transfer.transferId(),
          message.seqno(), message.messageHash(), message.attempt(), message.evidenceUtime());
      wallets.expired(key, head);
    }
  }

  /** A settled payout came back and the ledger recorded it: publish the BOUNCED correction once (counted there). */
  private void onBounce(String key, Confirmation bounce, TransferDecision decision) {
    if (decision instanceof TransferDecision.Decided d) {
      wallets.forwardSettlement(key, TransferEvents.bounced(d.transfer(), bounce, deps.clock().instant()));
    } else {
      log.info("bounce not published subwallet={} request={} transfer={} tx={} ledger={}", key, bounce.requestId(),
          bounce.transferId(), bounce.txHash(), decision);
    }
  }
}
