package org.tonpayouts.streams.ledger.operator;

import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.sql.TransferRow;

/** What the ledger made of an operator's resolution of a transfer. */
public sealed interface ResolutionResult {

  /**
   * Recorded: the transfer as it is now, the audit event of the decision, and the settlement
   * queued for {@code payout.settlements} in the same transaction.
   */
  record Resolved(TransferRow transfer, AuditEvent audit, Settlement settlement) implements ResolutionResult {}

  /** The ledger has no such transfer. */
  record NotFound(String requestId, String transferId) implements ResolutionResult {}

  /** The transfer is not RECONCILIATION_REQUIRED (any more): nothing changed. */
  record NotReconcilable(TransferRow transfer) implements ResolutionResult {}

  /** Refused, with why (e.g. the transaction already settles as many transfers as it pays). */
  record Refused(TransferRow transfer, String why) implements ResolutionResult {}

  /**
   * Refused because the chain evidence does not prove the outcome: {@code missing} says what is
   * missing (e.g. a transaction on chain pays the transfer's destination its amount, and the call
   * did not acknowledge that it pays something else). Nothing changed.
   */
  record Unproven(TransferRow transfer, String missing) implements ResolutionResult {}

  /**
   * Two-person rule: the approval cannot let the resolution through (decided or expired already, or the
   * approver is who asked for it); {@code why} says which. Nothing changed.
   */
  record NotApproved(TransferRow transfer, String why) implements ResolutionResult {}
}
