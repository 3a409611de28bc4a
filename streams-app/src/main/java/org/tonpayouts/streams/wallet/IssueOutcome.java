package org.tonpayouts.streams.wallet;

import java.time.Instant;
import java.util.List;
import org.tonpayouts.streams.ledger.record.RequestConflict;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.TransferRow;

/** What an issuing round did for one wallet; the processor turns it into state and events. */
public sealed interface IssueOutcome {
  IssueTask task();

  /**
   * A message of the transfer must be watched: signed now, resumed from the ledger (its same BOC
   * re-sent), or, with {@code recheck}, the newest one handed to the poller to re-establish the
   * transfer's outcome because the wallet's seqno moved past the transfer's.
   *
   * @param message the message's ledger row
   * @param hashes every message hash signed for the transfer, oldest first, {@code message} last
   * @param firstSubmittedAt when the transfer's first message was recorded
   */
  record Submitted(IssueTask task, LedgerRow message, List<String> hashes, Instant firstSubmittedAt, boolean resumed,
      boolean recheck) implements IssueOutcome {}

  /** Nothing was done this round (stale read, slow or failing API, a concurrent writer); try again. */
  record Deferred(IssueTask task, String reason) implements IssueOutcome {}

  /**
   * An operator's pause covers the wallet: nothing was read, signed or recorded, the request stays
   * at the head of the wallet's queue; try again later (the pause lives in the ledger).
   */
  record Paused(IssueTask task, String why) implements IssueOutcome {}

  /**
   * A rolling spend cap holds the transfer (the ledger refused its first message): nothing was
   * recorded or sent, the request stays at the head of the wallet's queue and the wallet's later
   * transfers wait behind it; try again at {@code retryAt} (when the window has room, or sooner to
   * notice an operator's release).
   */
  record Capped(IssueTask task, String why, Instant retryAt) implements IssueOutcome {}

  /**
   * The ledger holds the transfer's outcome: decided by an earlier run whose Kafka commit was
   * lost, or just now before signing (the wallet cannot pay it). Publish it.
   *
   * @param message the message that decided it, null when none did
   */
  record Decided(IssueTask task, TransferRow transfer, LedgerRow message) implements IssueOutcome {}

  /** The request is a later copy of one the ledger recorded from another record: drop it silently. */
  record Duplicate(IssueTask task, String why) implements IssueOutcome {}

  /** The requestId is recorded with other content: reject this request. */
  record Conflict(IssueTask task, RequestConflict conflict) implements IssueOutcome {}

  /** A newer owner took the task's partition: this task is a zombie and must sign and send nothing more. */
  record Fenced(IssueTask task, String why) implements IssueOutcome {}
}
