package org.tonpayouts.streams.ledger.record;

import org.tonpayouts.streams.ledger.sql.LedgerRow;

/**
 * What {@link IntentRecorder#record} did with one intent: recorded it (its message may now be
 * sent), or refused it (nothing may be sent; the caller reads the ledger again and resumes or
 * settles from what it finds there).
 */
public sealed interface RecordResult {
  Intent intent();

  /** Recorded as SIGNED: send it. */
  record Recorded(Intent intent, LedgerRow row) implements RecordResult {}

  /**
   * Not recorded: send nothing.
   *
   * @param retryAt for {@link Refusal#CAPPED}: when the caps' windows will have room for it, if
   *     they ever will on their own; null otherwise
   */
  record Refused(Intent intent, Refusal refusal, String detail, java.time.Instant retryAt) implements RecordResult {
    public Refused(Intent intent, Refusal refusal, String detail) {
      this(intent, refusal, detail, null);
    }
  }

  /** Why an intent was refused. */
  enum Refusal {
    /** A newer owner took the recording task's partition: this task is a zombie. Sign and send nothing. */
    FENCED,
    /**
     * An operator's pause covers the wallet: nothing new is signed for it. The transfer stays where
     * it was (its request queued, nothing registered for it); try again once the pause is lifted.
     */
    PAUSED,
    /**
     * A rolling spend cap holds the transfer: its first message would take a window over its cap.
     * Nothing is recorded or sent; the request and its transfers are registered and the hold is in
     * {@code spend_holds}. Try again when the window has room ({@link Refused#retryAt()}) or an
     * operator released it. Never the answer for a transfer that has a message already.
     */
    CAPPED,
    /** The requestId is recorded with other content: the request must be rejected. */
    REQUEST_CONFLICT,
    /** The transfer already has its terminal status. */
    TRANSFER_DECIDED,
    /** The transfer has a message that may still apply: resume it instead. */
    LIVE_MESSAGE,
    /** This attempt number was taken (a replay, or another instance got there first). */
    ATTEMPT_TAKEN,
    /** The transfer has used all its attempts. */
    MAX_ATTEMPTS,
    /** The transfer is bound to another seqno: every attempt must carry that one. */
    SEQNO_BOUND,
    /** Another transfer of the wallet holds this seqno: the read was stale or the wallet is busy. */
    SEQNO_TAKEN
  }

  default boolean recorded() {
    return this instanceof Recorded;
  }
}
