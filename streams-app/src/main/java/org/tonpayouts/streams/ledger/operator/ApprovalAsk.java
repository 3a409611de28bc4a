package org.tonpayouts.streams.ledger.operator;

import java.util.Objects;

/**
 * A resolution as an operator asked for it, kept until a second operator approves it: the approval
 * replays exactly this, with the chain evidence read again.
 *
 * @param outcome SETTLED or FAILED
 * @param txHash SETTLED: the paying transaction; null for FAILED
 * @param lt SETTLED: its logical time, when given
 * @param acknowledged FAILED: the transaction the operator states pays something else, when given
 * @param reason why, in the operator's words
 */
public record ApprovalAsk(String outcome, String txHash, Long lt, String acknowledged, String reason) {
  public ApprovalAsk {
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(reason, "reason");
    if (!outcome.equals("SETTLED") && !outcome.equals("FAILED")) {
      throw new IllegalArgumentException("outcome must be SETTLED or FAILED, got " + outcome);
    }
  }
}
