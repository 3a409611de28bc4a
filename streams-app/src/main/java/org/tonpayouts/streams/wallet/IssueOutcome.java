package org.tonpayouts.streams.wallet;

import org.tonpayouts.streams.ledger.LedgerRow;

/** What an issuing round did for one wallet; the processor turns it into state and events. */
public sealed interface IssueOutcome {
  IssueTask task();

  /**
   * A message for the transfer is on its way (new, or resumed from the ledger) and must be watched.
   * {@code message} is the ledger row of the message.
   */
  record Submitted(IssueTask task, LedgerRow message, boolean resumed) implements IssueOutcome {}

  /** Nothing was sent this round (stale read, slow or failing API); the wallet stays ready. */
  record Deferred(IssueTask task, String reason) implements IssueOutcome {}

  /** The ledger already holds the transfer's outcome (an earlier run settled it but its Kafka commit was lost). */
  record AlreadyDecided(IssueTask task, LedgerRow message) implements IssueOutcome {}
}
