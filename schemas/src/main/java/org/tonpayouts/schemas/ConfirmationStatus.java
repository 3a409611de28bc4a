package org.tonpayouts.schemas;

/** What the chain poller concluded about one submitted transfer (see {@link Confirmation}). */
public enum ConfirmationStatus {
  /** A transaction of the wallet applied our message and sent the transfer. */
  CONFIRMED,
  /** A transaction applied our message but the transfer did not go out (e.g. skipped send). */
  FAILED,
  /**
   * By the API node's own clock the newest message's {@code validUntil} passed while the wallet's
   * seqno had not moved past the transfer's: none of its messages applied, and none ever can.
   */
  EXPIRED,
  /** The chain is ambiguous (seqno moved, no matching transaction): an operator must decide. */
  RECONCILIATION_REQUIRED,
  /**
   * A transfer confirmed earlier came back: the destination could not take the bounceable
   * message (e.g. an uninitialised account) and the value, minus fees, returned to the wallet.
   */
  BOUNCED
}
