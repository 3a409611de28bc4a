package org.tonpayouts.streams.ledger.record;

import org.tonpayouts.streams.ledger.sql.TransferRow;

/** What the ledger made of deciding a transfer without a message verdict (refused, aborted, bounced). */
public sealed interface TransferDecision {

  /** Recorded: the transfer as it is now. */
  record Decided(TransferRow transfer) implements TransferDecision {}

  /** Nothing changed: the transfer already had this (or another final) outcome, as it is now. */
  record AlreadyDecided(TransferRow transfer) implements TransferDecision {}

  /** The request's id is recorded with other content: nothing was recorded for it. */
  record Conflict(RequestConflict conflict) implements TransferDecision {}

  /** Not allowed now (e.g. a message of the transfer may still apply), with the reason. */
  record Refused(String why) implements TransferDecision {}
}
