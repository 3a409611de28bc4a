package org.tonpayouts.schemas;

import java.time.Instant;

/**
 * An operator's decision on a transfer that was {@link SettlementStatus#RECONCILIATION_REQUIRED}:
 * carried by the second settlement of that transfer, the one that replaces the first (docs/operations.md,
 * reconciliation runbook). A settlement without it is streams-app's own outcome.
 *
 * @param operator who decided, as the operator named themselves to the admin API
 * @param note why, in the operator's words
 * @param auditId the {@code audit_log} id of the decision (also the {@code auditId} of its
 *     {@code payout.audit} record): unique per resolution, so consumers can deduplicate on it
 * @param resolvedAt when the decision was recorded
 */
public record Resolution(String operator, String note, long auditId, Instant resolvedAt) {

  public Resolution {
    Check.nonBlank(operator, "operator");
    Check.nonBlank(note, "note");
    Check.positive(auditId, "auditId");
    Check.present(resolvedAt, "resolvedAt");
  }
}
