package org.tonpayouts.streams.ledger.caps;

import org.tonpayouts.streams.ledger.audit.AuditEvent;

/** What an operator's release of a held transfer did. */
public sealed interface HoldRelease {
  /** Released now: the transfer passes the caps once, at its wallet's next try. */
  record Released(SpendHold hold, AuditEvent audit) implements HoldRelease {}

  /** Released before (by whom it says), not signed yet: nothing changed. */
  record AlreadyReleased(SpendHold hold) implements HoldRelease {}

  /** No waiting hold of that transfer: never held, or its message was recorded since. */
  record NotHeld(String requestId, String transferId) implements HoldRelease {}
}
