package org.tonpayouts.streams.ledger.operator;

import java.util.Objects;
import org.tonpayouts.streams.ledger.audit.Actor;

/**
 * Who resolves a transfer: the operator who decided and why, and under the two-person rule the
 * approval they asked for and the second operator who gave it. Both are recorded in the audit row
 * and on the resolution's settlement.
 *
 * @param approval null when one operator suffices
 * @param approver the second operator; null exactly when {@code approval} is
 */
public record Resolver(Actor by, String note, Approval approval, Actor approver) {
  public Resolver {
    Objects.requireNonNull(by, "by");
    Objects.requireNonNull(note, "note");
    if ((approval == null) != (approver == null)) {
      throw new IllegalArgumentException("an approval and its approver go together");
    }
  }

  /** One operator's resolution. */
  public static Resolver alone(Actor by, String note) {
    return new Resolver(by, note, null, null);
  }

  /** The resolution {@code approval} asked for, approved by {@code approver}. */
  public static Resolver approved(Approval approval, Actor approver) {
    return new Resolver(approval.requestedBy(), approval.reason(), approval, approver);
  }

  /** "alice" or "alice, approved by carol": names only, for settlements. */
  String names() {
    return approver == null ? by.name() : by.name() + ", approved by " + approver.name();
  }

  /** Names with addresses, for the audit detail. */
  String describe() {
    return approver == null ? by.describe()
        : by.describe() + ", approved by " + approver.describe() + " (approval " + approval.id() + ")";
  }
}
