package org.tonpayouts.streams.ledger.sql;

import org.tonpayouts.schemas.ConfirmationStatus;

/**
 * Where a signed message stands: {@code SIGNED} (recorded, maybe not yet sent), {@code SENT}, then
 * exactly one verdict. Moves only forward; the table's trigger refuses anything else.
 */
public enum LedgerStatus {
  /** Recorded before sending; it may already be on its way (the process can die right after). */
  SIGNED,
  /** Handed to the API at least once; the chain has not spoken yet. */
  SENT,
  /** Applied by the wallet and the transfer went out: the row names the transaction. */
  CONFIRMED,
  /** Applied by the wallet (its seqno is used) but the transfer did not go out. */
  FAILED,
  /** {@code valid_until} passed and the chain shows it did not apply: it never can. */
  EXPIRED,
  /** The chain is ambiguous; an operator decides. No completion is claimed. */
  RECONCILIATION_REQUIRED;

  /** The message may still apply: resend its BOC, never sign another for the transfer. */
  public boolean isLive() {
    return this == SIGNED || this == SENT;
  }

  /** The chain has spoken (or an operator must): the row will not change by itself. */
  public boolean isSettled() {
    return !isLive();
  }

  /** Whether the message used up its seqno on chain. */
  public boolean isApplied() {
    return this == CONFIRMED || this == FAILED;
  }

  /** The verdict as the chain poller reports it; a live status has none yet. */
  public ConfirmationStatus asConfirmationStatus() {
    return switch (this) {
      case CONFIRMED -> ConfirmationStatus.CONFIRMED;
      case FAILED -> ConfirmationStatus.FAILED;
      case EXPIRED -> ConfirmationStatus.EXPIRED;
      case RECONCILIATION_REQUIRED -> ConfirmationStatus.RECONCILIATION_REQUIRED;
      case SIGNED, SENT -> throw new IllegalStateException(this + " has no verdict yet");
    };
  }
}
