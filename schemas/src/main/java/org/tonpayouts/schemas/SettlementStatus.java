package org.tonpayouts.schemas;

/**
 * The outcome of one transfer (see {@link Settlement}): every transfer gets exactly one terminal
 * status (all but {@link #BOUNCED}); a bounce later adds a BOUNCED correction.
 */
public enum SettlementStatus {
  /** On chain: the transfer was sent by a confirmed transaction. */
  SETTLED,
  /** Definitely not paid; safe to retry with a new request. */
  FAILED,
  /** Not attempted because an earlier transfer of the same request did not settle. */
  ABORTED,
  /** Outcome unknown: an operator must reconcile before anyone retries (it may have been paid). */
  RECONCILIATION_REQUIRED,
  /**
   * Not terminal: a correction published after a SETTLED of the same transfer, when the payout
   * bounced back to the wallet (the destination could not take it). The money is back, minus fees.
   */
  BOUNCED
}
