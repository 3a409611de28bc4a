package org.tonpayouts.streams.ledger.sql;

import org.tonpayouts.schemas.SettlementStatus;

/**
 * Where a requested transfer stands in {@code payout_transfers}: {@code OPEN} until it has its one
 * terminal status, which is also the settlement published for it.
 */
public enum TransferStatus {
  /** Not decided: no message yet, a message in flight, or waiting for its next attempt. */
  OPEN,
  /** Paid: a transaction applied one of its messages and sent it. */
  SETTLED,
  /** Definitely not paid: refused before signing, applied without sending, or given up. */
  FAILED,
  /** Never attempted: an earlier transfer of its request did not settle. */
  ABORTED,
  /** The chain is ambiguous about it; an operator decides. */
  RECONCILIATION_REQUIRED;

  public boolean isOpen() {
    return this == OPEN;
  }

  /** The settlement status of a decided transfer. */
  public SettlementStatus asSettlementStatus() {
    return switch (this) {
      case SETTLED -> SettlementStatus.SETTLED;
      case FAILED -> SettlementStatus.FAILED;
      case ABORTED -> SettlementStatus.ABORTED;
      case RECONCILIATION_REQUIRED -> SettlementStatus.RECONCILIATION_REQUIRED;
      case OPEN -> throw new IllegalStateException("an OPEN transfer has no settlement yet");
    };
  }
}
