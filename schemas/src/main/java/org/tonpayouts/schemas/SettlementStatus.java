package org.tonpayouts.schemas;

/** The terminal outcome of one transfer (see {@link Settlement}); every transfer gets exactly one. */
public enum SettlementStatus {
  /** On chain: the transfer was sent by a confirmed transaction. */
  SETTLED,
  /** Definitely not paid; safe to retry with a new request. */
  FAILED,
  /** Not attempted because an earlier transfer of the same request did not settle. */
  ABORTED,
  /** Outcome unknown: an operator must reconcile before anyone retries (it may have been paid). */
  RECONCILIATION_REQUIRED
}
