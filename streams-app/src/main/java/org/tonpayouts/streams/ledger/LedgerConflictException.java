package org.tonpayouts.streams.ledger;

/**
 * A request contradicts what the ledger already holds, for instance a confirmation of a message
 * the ledger has as EXPIRED (after which a new attempt may have been signed: a possible double
 * payout an operator must look at). Retrying does not help.
 */
public final class LedgerConflictException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient LedgerRow current;

  public LedgerConflictException(String message, LedgerRow current) {
    super(message);
    this.current = current;
  }

  /** The row as the ledger holds it. */
  public LedgerRow current() {
    return current;
  }
}
