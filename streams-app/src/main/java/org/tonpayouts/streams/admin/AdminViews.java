package org.tonpayouts.streams.admin;

import org.tonpayouts.schemas.JettonAmount;
import org.tonpayouts.schemas.JettonDelivery;

import java.time.Instant;
import java.util.List;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.streams.ledger.audit.Actor;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.audit.PendingSettlement;
import org.tonpayouts.streams.ledger.operator.AdminQueries;
import org.tonpayouts.streams.ledger.operator.Approval;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.Pause;
import org.tonpayouts.streams.ledger.sql.TransferRow;

/**
 * The admin API's JSON shapes, built from the ledger's rows (its OpenAPI file,
 * {@code openapi/admin-api.yaml}, documents them). Nanotons are strings, as on the topics; the
 * signed BOCs stay in the database.
 */
final class AdminViews {
  private AdminViews() {}

  record Attempt(int attempt, long seqno, String messageHash, String normalizedHash, Instant validUntil, String status,
                 String txHash, String lt, Long utime, String feeNano, String lastError, int sendCount, int errorCount,
                 Instant createdAt, Instant sentAt, Instant settledAt, Long evidenceUtime) {
    static Attempt of(LedgerRow m) {
      return new Attempt(m.attempt(), m.seqno(), m.messageHash(), m.normalizedHash(), m.validUntil(), m.status().name(),
          m.txHash(), str(m.lt()), m.utime(), str(m.feeNano()), m.lastError(), m.sendCount(), m.errorCount(),
          m.createdAt(), m.sentAt(), m.settledAt(), m.evidenceUtime());
    }
  }

  record Transfer(String requestId, String transferId, int transferIndex, String kind, long subwalletId,
                  String walletAddress, String destination, String amountNano, Long seqno, int attempts, String status,
                  String reason, String messageHash, String txHash, String bounceTxHash, String returnedNano,
                  Instant requestedAt, Instant createdAt, Instant updatedAt, Instant settledAt, JettonAmount jetton,
                  String jettonQueryId, JettonDelivery jettonDelivery) {
    /**
     * @param t the ledger's row; a jetton transfer's {@code jetton} is what it pays ({@code amountNano}
     *     the TON attached), {@code jettonQueryId} its query_id and {@code jettonDelivery} the jetton
     *     wallets' transactions of its verdict, beside {@code txHash}, the wallet's own
     */
    static Transfer of(TransferRow t) {
      return new Transfer(t.requestId(), t.transferId(), t.transferIndex(), t.kind(), t.subwalletId(),
          t.walletAddress(), t.destination(), Long.toString(t.amountNano()), t.seqno(), t.attempts(),
          t.status().name(), t.reason(), t.messageHash(), t.txHash(), t.bounceTxHash(), str(t.returnedNano()),
          t.requestedAt(), t.createdAt(), t.updatedAt(), t.settledAt(), t.jetton(), str(t.jettonQueryId()), t.jettonDelivery());
    }
  }

  /**
   * An audit event; for operators' actions {@code actor} is who did it (the authenticated operator, or the
   * typed name marked "(shared token)") from {@code actorAddress}, and under the two-person rule
   * {@code approvedBy} the second operator, from {@code approvedByAddress}.
   */
  record Audit(long auditId, Instant at, String level, String event, Long subwalletId, String requestId,
               String transferId, Long seqno, String messageHash, String txHash, String detail, String actor,
               String actorAddress, String approvedBy, String approvedByAddress) {
    static Audit of(AuditEvent e) {
      return new Audit(e.id(), e.at(), e.level().name(), e.event().name(), e.subwalletId(), e.requestId(),
          e.transferId(), e.seqno(), e.messageHash(), e.txHash(), e.detail(), name(e.actor()), address(e.actor()),
          name(e.approver()), address(e.approver()));
    }
  }

  /** A settlement the ledger queued for an operator's resolution, and whether it reached Kafka yet. */
  record QueuedSettlement(long auditId, Settlement settlement, Instant queuedAt, Instant publishedAt) {
    static QueuedSettlement of(PendingSettlement p) {
      return new QueuedSettlement(p.auditId(), p.settlement(), p.createdAt(), p.publishedAt());
    }
  }

  record TransferLifecycle(Transfer transfer, List<Attempt> attempts, List<QueuedSettlement> resolutionSettlements) {}

  record RequestLifecycle(String requestId, long subwalletId, int transferCount, String origin, Instant recordedAt,
                          List<TransferLifecycle> transfers, List<Audit> audit) {
    static RequestLifecycle of(AdminQueries.RequestLifecycle l) {
      return new RequestLifecycle(l.request().requestId(), l.request().subwalletId(), l.request().transferCount(),
          l.request().origin(), l.request().createdAt(), l.transfers().stream().map(t -> new TransferLifecycle(
              Transfer.of(t.transfer()), t.attempts().stream().map(Attempt::of).toList(),
              t.resolutions().stream().map(QueuedSettlement::of).toList())).toList(),
          l.audit().stream().map(Audit::of).toList());
    }
  }

  record Reconciliation(Transfer transfer, List<Attempt> attempts, List<Audit> audit) {
    static Reconciliation of(AdminQueries.Reconciliation r) {
      return new Reconciliation(Transfer.of(r.transfer()), r.attempts().stream().map(Attempt::of).toList(),
          r.audit().stream().map(Audit::of).toList());
    }
  }

  record Reconciliations(int count, List<Reconciliation> transfers) {}

  /**
   * What {@code POST .../resolve} takes. {@code operator}: with the shared token, who you are (required);
   * with operators by name, optional, and when given it must be the authenticated operator.
   *
   * @param acknowledgePaysSomethingElse FAILED only: the hash of the one transaction on chain that pays the
   *     transfer's destination its amount, which the operator states pays something else (recorded in the audit row)
   */
  record ResolveRequest(String outcome, String txHash, Long lt, String operator, String reason,
                        String acknowledgePaysSomethingElse) {}

  /** What a recorded resolution answers; {@code approval} when a second operator's approval let it through. */
  record Resolved(Transfer transfer, Audit audit, Settlement settlement, ApprovalView approval) {}

  /**
   * Two-person rule: one resolution as asked and what became of it. {@code state} is PENDING, EXPIRED,
   * APPROVED, REJECTED or CANCELLED; decided* are null while it is open.
   */
  record ApprovalView(long approvalId, String state, String requestId, String transferId, long subwalletId,
                      String amountNano, String outcome, String txHash, String lt, String acknowledgePaysSomethingElse,
                      String reason, String requestedBy, String requestedFrom, Instant requestedAt, Instant expiresAt,
                      String decidedBy, String decidedFrom, Instant decidedAt, String decisionNote, Long auditId) {
    static ApprovalView of(Approval a, Instant now) {
      return new ApprovalView(a.id(), a.state(now).name(), a.requestId(), a.transferId(), a.subwalletId(),
          Long.toString(a.amountNano()), a.outcome(), a.txHash(), str(a.lt()), a.acknowledged(), a.reason(),
          a.requestedBy().name(), a.requestedBy().address(), a.requestedAt(), a.expiresAt(), name(a.decidedBy()),
          address(a.decidedBy()), a.decidedAt(), a.decisionNote(), a.auditId());
    }
  }

  /** 202: the resolution waits for a second operator ({@code next} says how). */
  record ApprovalPending(ApprovalView approval, Audit audit, String next) {}

  /** An approval rejected or cancelled, with its audit event. */
  record ApprovalDecided(ApprovalView approval, Audit audit) {}

  /** {@code GET /admin/approvals}: what waits for a second operator, and the latest in any state. */
  record Approvals(String thresholdNano, long ttlSeconds, List<ApprovalView> pending, List<ApprovalView> recent) {}

  /** What {@code POST /admin/approvals/{id}/approve} and {@code .../reject} take (approve: both optional). */
  record DecisionRequest(String operator, String reason) {}

  /** What {@code POST /admin/pause} and {@code POST /admin/resume} take. */
  record PauseRequest(String scope, String operator, String reason) {}

  /** One pause: {@code scope} is "deployment" or the subwallet id; lifted* are null while it is in force. */
  record PauseView(long id, String scope, Long subwalletId, boolean active, Instant pausedAt, String pausedBy,
                   String pausedFrom, String reason, Instant liftedAt, String liftedBy, String liftedFrom,
                   String liftReason) {
    static PauseView of(Pause p) {
      return new PauseView(p.id(), p.deploymentWide() ? "deployment" : Long.toString(p.subwalletId()), p.subwalletId(),
          p.active(), p.pausedAt(), p.pausedBy(), p.pausedFrom(), p.reason(), p.liftedAt(), p.liftedBy(),
          p.liftedFrom(), p.liftReason());
    }
  }

  /** A pause set or lifted, with its audit event. */
  record PauseChanged(PauseView pause, Audit audit) {}

  /** {@code GET /admin/pauses}: what is in force, and the latest pauses including lifted ones. */
  record Pauses(boolean deploymentPaused, List<PauseView> active, List<PauseView> recent) {}

  /** What {@code POST /admin/holds/{requestId}/{transferId}/release} takes. */
  record ReleaseRequest(String operator, String reason) {}

  /**
   * A transfer a rolling spend cap holds (or held): the cap that holds it (scope WALLET or
   * DEPLOYMENT, window, cap), what the window held and the transfer needs at the latest check, when
   * the window will have room (null: its amount alone is over the cap, only a release lets it go),
   * and the release, if any; {@code passedAt} is when its first message was recorded.
   */
  record HoldView(String requestId, String transferId, long subwalletId, String walletAddress, long amountNano,
                  String capScope, String window, long windowSeconds, long capNano, java.math.BigInteger spentNano,
                  Instant freesAt, Instant heldAt, Instant checkedAt, Instant releasedAt, String releasedBy,
                  String releaseReason, Instant passedAt) {
    static HoldView of(org.tonpayouts.streams.ledger.caps.SpendHold h) {
      String window = org.tonpayouts.runtime.caps.SpendCapList.formatWindow(
          java.time.Duration.ofSeconds(h.windowSeconds()));
      return new HoldView(h.requestId(), h.transferId(), h.subwalletId(), h.walletAddress(), h.amountNano(),
          h.capScope(), window, h.windowSeconds(), h.capNano(), h.spentNano(), h.freesAt(), h.heldAt(), h.checkedAt(), h.releasedAt(),
          h.releasedBy(), h.releaseReason(), h.passedAt());
    }
  }

  /** {@code GET /admin/holds}: the transfers the spend caps hold now, oldest first. */
  record Holds(int count, List<HoldView> holds) {}

  /** A hold released, with its audit event. */
  record HoldReleased(HoldView hold, Audit audit) {}

  /** Every refusal and error. */
  record Problem(int status, String error, Transfer transfer, PauseView pause, ApprovalView approval) {
    Problem(int status, String error, Transfer transfer) {
      this(status, error, transfer, null, null);
    }
  }

  private static String name(Actor actor) {
    return actor == null ? null : actor.name();
  }

  private static String address(Actor actor) {
    return actor == null ? null : actor.address();
  }

  private static String str(Long value) {
    return value == null ? null : Long.toString(value);
  }
}
