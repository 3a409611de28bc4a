package org.tonpayouts.streams.ledger.record;

import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.TransferRow;

/**
 * What the ledger made of a verdict about one message (confirmed, failed, expired, needs
 * reconciliation). The caller publishes a settlement only for {@link Applied} and {@link GaveUp}.
 */
public sealed interface VerdictResult {

  /** The verdict was recorded: the message and its transfer as they are now. */
  record Applied(LedgerRow message, TransferRow transfer) implements VerdictResult {}

  /**
   * EXPIRED recorded and the transfer has used all its attempts: it is FAILED now (none of its
   * messages applied or ever can).
   */
  record GaveUp(LedgerRow message, TransferRow transfer) implements VerdictResult {}

  /** Nothing changed: the ledger already holds this verdict, or the transfer was decided already. */
  record Repeated(LedgerRow message, TransferRow transfer) implements VerdictResult {}

  /**
   * The verdict contradicts the ledger (a confirmation of a message it holds as FAILED, a
   * transaction another message already claims, a transfer decided otherwise): nothing changed,
   * an audit event was written, an operator must look.
   */
  record Contradicted(LedgerRow message, TransferRow transfer, String why) implements VerdictResult {}

  /** EXPIRED refused: the evidence (the node's time) does not show {@code valid_until} passed. */
  record TooEarly(LedgerRow message, long evidenceUtime) implements VerdictResult {}

  /**
   * The verdict names a message of another transfer than its own (a payment of another of our
   * transfers is never evidence for this one): nothing changed, an audit event was written.
   */
  record OtherTransfer(LedgerRow message, String why) implements VerdictResult {}

  /** No message has this hash. */
  record Unknown(String messageHash) implements VerdictResult {}
}
