package org.tonpayouts.streams.ledger.record;

import java.util.List;
import org.tonpayouts.streams.ledger.sql.TransferRow;

/** What {@link VerdictRecorder} made of one verdict of a batch. */
public sealed interface RecordedVerdict {
  VerdictCommand command();

  /**
   * A verdict on a message: the ledger's result, and the transfers of the request aborted with it
   * (when the command named the request and the transfer ended FAILED or RECONCILIATION_REQUIRED).
   */
  record OnMessage(VerdictCommand command, VerdictResult result, List<TransferRow> aborted)
      implements RecordedVerdict {
    public OnMessage {
      aborted = List.copyOf(aborted);
    }
  }

  /** A bounce of a settled payout. */
  record Bounce(VerdictCommand command, TransferDecision decision) implements RecordedVerdict {}

  /** The database refused this one (the rest of the batch went through); try it again later. */
  record Failed(VerdictCommand command, String why) implements RecordedVerdict {}
}
