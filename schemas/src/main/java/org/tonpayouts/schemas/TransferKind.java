package org.tonpayouts.schemas;

/**
 * Why a transfer is paid: carried through to its settlement so consumers can book it without
 * looking the request up. It does not change how the transfer is signed or sent.
 */
public enum TransferKind {
  PAYOUT,
  ESCROW_RELEASE,
  WITHDRAWAL,
  REFUND,
  COMMISSION_SWEEP,
  OTHER
}
