package org.tonpayouts.streams.ledger.sql;

/**
 * The ledger could not be read or written (database down, connection lost, timeout). Nothing may be
 * sent on the strength of an operation that failed this way; retrying later is safe.
 */
public class LedgerException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public LedgerException(String message, Throwable cause) {
    super(message, cause);
  }

  public LedgerException(String message) {
    super(message);
  }
}
