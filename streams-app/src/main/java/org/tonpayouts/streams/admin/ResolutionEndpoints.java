package org.tonpayouts.streams.admin;

import com.sun.net.httpserver.HttpExchange;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.streams.admin.AdminViews.ApprovalView;
import org.tonpayouts.streams.admin.AdminViews.DecisionRequest;
import org.tonpayouts.streams.admin.AdminViews.ResolveRequest;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.ledger.audit.Actor;
import org.tonpayouts.streams.ledger.operator.Approval;
import org.tonpayouts.streams.ledger.operator.ApprovalAsk;
import org.tonpayouts.streams.ledger.operator.ApprovalChange;
import org.tonpayouts.streams.ledger.operator.Approvals;
import org.tonpayouts.streams.ledger.operator.ResolutionResult;
import org.tonpayouts.streams.ledger.operator.Resolver;
import org.tonpayouts.streams.ledger.sql.TransferRow;
import org.tonpayouts.streams.ledger.sql.TransferStatus;

/**
 * The admin API's resolutions of RECONCILIATION_REQUIRED transfers (docs/operations.md: the
 * reconciliation runbook): each checked against the chain ({@link ResolutionProof}), and above
 * {@code admin.approval.threshold.nano} recorded as waiting for a second operator, whose approval
 * reads the chain again before the resolution takes effect (the two-person rule).
 */
final class ResolutionEndpoints {
  private static final Logger log = LoggerFactory.getLogger(ResolutionEndpoints.class);

  private final Ledger ledger;
  private final ResolutionProof proofs;
  private final TwoPersonRule twoPersonRule;
  private final Clock clock;

  /** From which amount a resolution needs a second operator (empty: never), and how long a request waits. */
  record TwoPersonRule(OptionalLong thresholdNano, Duration ttl) {
    static TwoPersonRule of(PayoutsConfig config) {
      return new TwoPersonRule(config.adminApprovalThresholdNano(), config.adminApprovalTtl());
    }

    boolean applies(TransferRow transfer) {
      return thresholdNano.isPresent() && transfer.amountNano() >= thresholdNano.getAsLong();
    }
  }

  ResolutionEndpoints(Ledger ledger, ResolutionProof proofs, TwoPersonRule twoPersonRule, Clock clock) {
    this.ledger = ledger;
    this.proofs = proofs;
    this.twoPersonRule = twoPersonRule;
    this.clock = clock;
  }

  TwoPersonRule twoPersonRule() {
    return twoPersonRule;
  }

  AdminAnswer resolve(String requestId, String transferId, HttpExchange exchange, Authentication caller)
      throws InterruptedException {
    AdminInput.id(requestId, "requestId");
    AdminInput.id(transferId, "transferId");
    ResolveRequest body = AdminInput.body(exchange, ResolveRequest.class, AdminInput.RESOLVE_SHAPE);
    String outcome = AdminInput.required(body.outcome(), "outcome").toUpperCase(Locale.ROOT);
    Actor operator = AdminInput.actor(caller, body.operator(), exchange);
    String reason = AdminInput.limited(AdminInput.required(body.reason(), "reason"), "reason", AdminInput.MAX_REASON_CHARS);
    Optional<TransferRow> found = ledger.queries().transfer(requestId, transferId);
    if (found.isEmpty()) {
      return AdminAnswer.problem(404, "the ledger has no transfer " + requestId + "/" + transferId);
    }
    TransferRow transfer = found.get();
    String acknowledged = body.acknowledgePaysSomethingElse() == null ? null
        : AdminInput.hash(body.acknowledgePaysSomethingElse(), "acknowledgePaysSomethingElse");
    ApprovalAsk ask = switch (outcome) {
      case "SETTLED" -> {
        String txHash = AdminInput.hash(AdminInput.required(body.txHash(), "txHash (the wallet transaction that paid the transfer)"),
            "txHash");
        if (acknowledged != null) {
          throw new AdminInput.BadInput("acknowledgePaysSomethingElse belongs to a FAILED resolution: a SETTLED one names the"
              + " paying transaction in txHash");
        }
        yield new ApprovalAsk("SETTLED", txHash, body.lt(), null, reason);
      }
      case "FAILED" -> {
        if (body.txHash() != null || body.lt() != null) {
          throw new AdminInput.BadInput("a FAILED resolution takes no txHash or lt: the transfer was not paid (a transaction"
              + " paying its destination its amount for something else goes in acknowledgePaysSomethingElse)");
        }
        yield new ApprovalAsk("FAILED", null, null, acknowledged, reason);
      }
      default -> throw new AdminInput.BadInput("outcome must be SETTLED or FAILED, got '" + body.outcome() + "'");
    };
    if (transfer.status() != TransferStatus.RECONCILIATION_REQUIRED) {
      return notReconcilable(transfer);
    }
    ResolutionProof.Outcome proof = proofs.of(transfer, ask);
    Optional<AdminAnswer> refused = refusal(proof, ask, transfer, operator);
    if (refused.isPresent()) {
      return refused.get();
    }
    if (twoPersonRule.applies(transfer)) {
      return askSecondOperator(transfer, ask, operator);
    }
    return answer(apply(transfer, proof, Resolver.alone(operator, reason)), ask.outcome(), operator, null);
  }
  /** Records the resolution as waiting for a second operator: 202, or 409 when one waits already. */
  private AdminAnswer askSecondOperator(TransferRow transfer, ApprovalAsk ask, Actor operator) {
    ApprovalChange change = ledger.approvals().request(transfer.requestId(), transfer.transferId(), ask, operator,
        twoPersonRule.ttl());
    Instant now = clock.instant();
    if (change instanceof ApprovalChange.Requested r) {
      long id = r.approval().id();
      return AdminAnswer.json(202, new AdminViews.ApprovalPending(ApprovalView.of(r.approval(), now),
          AdminViews.Audit.of(r.audit()), "needs a second operator: the transfer's amount " + transfer.amountNano()
              + " is at or above " + PayoutsConfig.ADMIN_APPROVAL_THRESHOLD_NANO_CONFIG + " ("
              + twoPersonRule.thresholdNano().getAsLong() + "), so nothing is resolved yet; another operator approves"
              + " it (POST /admin/approvals/" + id + "/approve, which checks the chain again) or rejects it (POST"
              + " /admin/approvals/" + id + "/reject) before " + r.approval().expiresAt()));
    } else if (change instanceof ApprovalChange.AlreadyOpen open) {
      return AdminAnswer.problem(409, transfer.requestId() + "/" + transfer.transferId() + " already waits for "
          + open.approval().describe() + ": approve or reject that one (POST /admin/approvals/" + open.approval().id()
          + "/approve or /reject); nothing changed", ApprovalView.of(open.approval(), now));
    } else if (change instanceof ApprovalChange.NotReconcilable n) {
      return notReconcilable(n.transfer());
    }
    return AdminAnswer.problem(404, "the ledger has no transfer " + transfer.requestId() + "/" + transfer.transferId());
  }
  /** The resolution the proof allows, recorded by {@code resolver}. */
  private ResolutionResult apply(TransferRow transfer, ResolutionProof.Outcome proof, Resolver resolver) {
    if (proof instanceof ResolutionProof.Paid paid) {
      return ledger.resolutions().settle(transfer.requestId(), transfer.transferId(), paid.payment(), resolver);
    }
    ResolutionProof.NotPaid notPaid = (ResolutionProof.NotPaid) proof;
    return ledger.resolutions().fail(transfer.requestId(), transfer.transferId(), notPaid.evidence(),
        notPaid.acknowledged(), resolver);
  }
  /** The answer when the chain does not allow the resolution; empty when it does. */
  private static Optional<AdminAnswer> refusal(ResolutionProof.Outcome proof, ApprovalAsk ask, TransferRow transfer,
      Actor operator) {
    if (proof instanceof ResolutionProof.NotVerified n) {
      log.warn("resolution refused: not verified on chain subwallet={} request={} transfer={} tx={} operator={}"
          + " why={}", transfer.subwalletId(), transfer.requestId(), transfer.transferId(), ask.txHash(),
          operator.describe(), n.why());
      return Optional.of(AdminAnswer.problem(422, "not settled: " + n.why(), transfer));
    }
    if (proof instanceof ResolutionProof.Unproven u) {
      return Optional.of(unproven(ask.outcome(), transfer, operator.describe(), u.missing()));
    }
    return Optional.empty();
  }
  /** What the ledger made of a resolution, as an answer. */
  private AdminAnswer answer(ResolutionResult result, String outcome, Actor operator, Approval approval) {
    if (result instanceof ResolutionResult.Resolved r) {
      ApprovalView approved = approval == null ? null : ledger.approvals().find(approval.id())
          .map(a -> ApprovalView.of(a, clock.instant())).orElse(null);
      return AdminAnswer.json(200, new AdminViews.Resolved(AdminViews.Transfer.of(r.transfer()),
          AdminViews.Audit.of(r.audit()), r.settlement(), approved));
    } else if (result instanceof ResolutionResult.NotReconcilable n) {
      return notReconcilable(n.transfer());
    } else if (result instanceof ResolutionResult.Refused x) {
      return AdminAnswer.problem(422, "not settled: " + x.why(), x.transfer());
    } else if (result instanceof ResolutionResult.Unproven u) {
      return unproven(outcome, u.transfer(), operator.describe(), u.missing());
    } else if (result instanceof ResolutionResult.NotApproved n) {
      return AdminAnswer.problem(409, "not resolved: " + n.why(), n.transfer());
    }
    ResolutionResult.NotFound missing = (ResolutionResult.NotFound) result;
    return AdminAnswer.problem(404, "the ledger has no transfer " + missing.requestId() + "/" + missing.transferId());
  }
  AdminAnswer approvals() {
    Instant now = clock.instant();
    return AdminAnswer.json(200, new AdminViews.Approvals(twoPersonRule.thresholdNano().isPresent()
        ? Long.toString(twoPersonRule.thresholdNano().getAsLong()) : null, twoPersonRule.ttl().toSeconds(),
        ledger.approvals().pending().stream().map(a -> ApprovalView.of(a, now)).toList(),
        ledger.approvals().recent(50).stream().map(a -> ApprovalView.of(a, now)).toList()));
  }
  /**
   * A second operator approves: refused to whoever asked (403) and once decided or expired (409);
   * otherwise the chain evidence is read again and the resolution asked for takes effect, both
   * operators recorded.
   */
  AdminAnswer approve(String approvalId, HttpExchange exchange, Authentication caller)
      throws InterruptedException {
    long id = approvalId(approvalId);
    if (!(caller instanceof Authentication.Operator)) {
      throw new AdminInput.Forbidden("approving needs operators by name (" + PayoutsConfig.ADMIN_OPERATORS_FILE_CONFIG + "):"
          + " with the shared token nobody can tell the second operator from the first");
    }
    DecisionRequest body = AdminInput.optionalBody(exchange, DecisionRequest.class, AdminInput.DECISION_SHAPE);
    Actor approver = AdminInput.actor(caller, body == null ? null : body.operator(), exchange);
    Optional<Approval> found = ledger.approvals().find(id);
    if (found.isEmpty()) {
      return AdminAnswer.problem(404, "the ledger has no approval " + id);
    }
    Approval approval = found.get();
    Instant now = clock.instant();
    if (approval.state(now) == Approval.State.PENDING && approval.requestedBy().name().equals(approver.name())) {
      throw new AdminInput.Forbidden(Approvals.refusal(approval, approver, now));
    }
    String refusal = Approvals.refusal(approval, approver, now);
    if (refusal != null) {
      return AdminAnswer.problem(409, refusal, ApprovalView.of(approval, now));
    }
    Optional<TransferRow> transfer = ledger.queries().transfer(approval.requestId(), approval.transferId());
    if (transfer.isEmpty()) {
      return AdminAnswer.problem(404, "the ledger has no transfer " + approval.requestId() + "/" + approval.transferId());
    }
    if (transfer.get().status() != TransferStatus.RECONCILIATION_REQUIRED) {
      return notReconcilable(transfer.get());
    }
    ApprovalAsk ask = new ApprovalAsk(approval.outcome(), approval.txHash(), approval.lt(), approval.acknowledged(),
        approval.reason());
    ResolutionProof.Outcome proof = proofs.of(transfer.get(), ask);
    Optional<AdminAnswer> refused = refusal(proof, ask, transfer.get(), approver);
    if (refused.isPresent()) {
      return refused.get(); // the approval stays open: the chain may still change, or someone rejects it
    }
    return answer(apply(transfer.get(), proof, Resolver.approved(approval, approver)), ask.outcome(), approver,
        approval);
  }
  /** Turns an open approval down: REJECTED by another operator, CANCELLED by whoever asked. */
  AdminAnswer reject(String approvalId, HttpExchange exchange, Authentication caller) {
    long id = approvalId(approvalId);
    DecisionRequest body = AdminInput.body(exchange, DecisionRequest.class, AdminInput.DECISION_SHAPE);
    Actor operator = AdminInput.actor(caller, body.operator(), exchange);
    String reason = AdminInput.limited(AdminInput.required(body.reason(), "reason"), "reason", AdminInput.MAX_REASON_CHARS);
    ApprovalChange change = ledger.approvals().reject(id, operator, reason);
    Instant now = clock.instant();
    if (change instanceof ApprovalChange.Rejected r) {
      return AdminAnswer.json(200, new AdminViews.ApprovalDecided(ApprovalView.of(r.approval(), now),
          AdminViews.Audit.of(r.audit())));
    } else if (change instanceof ApprovalChange.NotOpen n) {
      return AdminAnswer.problem(409, n.approval().describe() + " is " + n.state() + ": nothing to reject",
          ApprovalView.of(n.approval(), now));
    }
    return AdminAnswer.problem(404, "the ledger has no approval " + id);
  }
  private static long approvalId(String value) {
    try {
      long id = Long.parseLong(value);
      if (id > 0) {
        return id;
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw new AdminInput.BadInput("approvalId must be a positive number, got '" + value + "'");
  }
  /** 409: the chain evidence does not prove the resolution; nothing changed. */
  private static AdminAnswer unproven(String outcome, TransferRow transfer, String operator, String missing) {
    log.warn("resolution refused: the chain does not prove it outcome={} subwallet={} request={} transfer={} seqno={}"
        + " operator={} missing={}", outcome, transfer.subwalletId(), transfer.requestId(), transfer.transferId(),
        transfer.seqno(), operator, missing);
    return AdminAnswer.problem(409, "not resolved " + outcome + ": " + missing, transfer);
  }
  private static AdminAnswer notReconcilable(TransferRow transfer) {
    return AdminAnswer.problem(409, "transfer " + transfer.requestId() + "/" + transfer.transferId() + " is "
        + transfer.status() + ", not RECONCILIATION_REQUIRED: nothing to resolve"
        + (transfer.reason() != null ? " (" + transfer.reason() + ")" : ""), transfer);
  }
}
