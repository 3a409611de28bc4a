package org.tonpayouts.streams.ledger;

/**
 * What {@link Ledger#recordIntents} did with one intent: inserted it, or found the row that
 * already holds its place. A caller that gets an existing row of its own transfer resumes that
 * row's message (same BOC) and discards its own, never sends both.
 *
 * @param intent the intent as given
 * @param row the inserted row, or the existing row it collided with
 * @param conflict why it was not inserted; {@link Conflict#NONE} when it was
 */
public record RecordedIntent(Intent intent, LedgerRow row, Conflict conflict) {

  /** Why an intent found an existing row instead of being inserted. */
  public enum Conflict {
    /** Inserted: {@code row} is the intent's own row. */
    NONE,
    /** This very message (same hash) was recorded before: a replay. */
    SAME_MESSAGE,
    /** The transfer already has a message that is not EXPIRED: resume or settle that one. */
    SAME_TRANSFER,
    /**
     * Another transfer's message holds this (wallet, seqno) and is not EXPIRED: the seqno read was
     * stale or the wallet is busy. Sign nothing with this seqno.
     */
    SAME_WALLET_SEQNO
  }

  public boolean inserted() {
    return conflict == Conflict.NONE;
  }
}
