package org.tonpayouts.schemas;

/** What the chain poller concluded about one submitted message (see {@link Confirmation}). */
public enum ConfirmationStatus {
  /** A transaction of the wallet applied our message and sent the transfer. */
  CONFIRMED,
  /** A transaction applied our message but the transfer did not go out (e.g. skipped send). */
  FAILED,
  /** {@code validUntil} passed and the chain shows the message was not applied: it never can be. */
  EXPIRED,
  /** The chain is ambiguous (seqno moved, no matching transaction): an operator must decide. */
  RECONCILIATION_REQUIRED
}
