package org.tonpayouts.schemas;

import java.time.Instant;

/**
 * An operator's decision on a transfer that was {@link SettlementStatus#RECONCILIATION_REQUIRED}:
 * carried by the second settlement of that transfer, the one that replaces the first (docs/operations.md,
 * reconciliation runbook). A settlement without it is streams-app's own outcome.
 *
 * @param operator who decided: the operator the admin API authenticated, or with the shared admin token the
 *     name typed in the call, marked {@code "(shared token)"}
 * @param note why, in the operator's words
 * @param auditId the {@code audit_log} id of the decision (also the {@code auditId} of its
 *     {@code payout.audit} record): unique per resolution, so consumers can deduplicate on it
 * @param resolvedAt when the decision was recorded
 * @param approvedBy under the two-person rule, the second operator who approved the decision (never
 *     {@code operator}); null when one operator sufficed
 */
public record Resolution(String operator, String note, long auditId, Instant resolvedAt, String approvedBy) {

  /** A decision one operator made alone. */
  public Resolution(String operator, String note, long auditId, Instant resolvedAt) {
    this(operator, note, auditId, resolvedAt, null);
  }

  public Resolution {
    Check.nonBlank(operator, "operator");
    if (approvedBy != null) {
      Check.nonBlank(approvedBy, "approvedBy");
      if (approvedBy.equals(operator)) {
        throw new IllegalArgumentException("approvedBy must be a second operator, not " + operator + " again");
      }
    }
    Check.nonBlank(note, "note");
    Check.positive(auditId, "auditId");
    Check.present(resolvedAt, "resolvedAt");
  }
}
