package org.tonpayouts.streams.ledger.operator;

import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.sql.TransferRow;

/** What {@link Approvals#request} or {@link Approvals#reject} did. */
public sealed interface ApprovalChange {

  /** Recorded: the resolution waits for a second operator. */
  record Requested(Approval approval, AuditEvent audit) implements ApprovalChange {}

  /** The transfer has an open request already: a second operator approves (or rejects) that one. */
  record AlreadyOpen(Approval approval) implements ApprovalChange {}

  /** The transfer is not RECONCILIATION_REQUIRED (any more): nothing to ask for. */
  record NotReconcilable(TransferRow transfer) implements ApprovalChange {}

  /** The ledger has no such transfer, or no such approval. */
  record NotFound(String what) implements ApprovalChange {}

  /** Rejected by another operator, or cancelled by whoever asked. */
  record Rejected(Approval approval, AuditEvent audit) implements ApprovalChange {}

  /** The approval is decided or expired already: nothing changed. */
  record NotOpen(Approval approval, Approval.State state) implements ApprovalChange {}
}
