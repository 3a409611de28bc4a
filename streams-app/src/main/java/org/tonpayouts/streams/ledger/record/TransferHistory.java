package org.tonpayouts.streams.ledger.record;

import java.util.List;
import java.util.Optional;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.TransferRow;

/**
 * Everything the ledger holds about one transfer, read before an issuing round decides what to
 * do with it: whether its request id conflicts, where the recorded request was read from (null
 * when the ledger does not know the request), the transfer row (null when nothing was recorded
 * yet) and every message signed for it, oldest attempt first.
 */
public record TransferHistory(
    RequestConflict conflict, String recordedOrigin, TransferRow transfer, List<LedgerRow> messages) {

  public TransferHistory {
    messages = List.copyOf(messages);
  }

  /** The message that may still apply (SIGNED or SENT), if any: resend it, sign nothing. */
  public Optional<LedgerRow> liveMessage() {
    return messages.stream().filter(m -> m.status().isLive()).findFirst();
  }

  /** The newest message, if any. */
  public Optional<LedgerRow> newest() {
    return messages.isEmpty() ? Optional.empty() : Optional.of(messages.get(messages.size() - 1));
  }

  /** Every message hash signed for the transfer, oldest first. */
  public List<String> hashes() {
    return messages.stream().map(LedgerRow::messageHash).toList();
  }

  /**
   * True when the ledger's request came from another copy than {@code origin}: the request at
   * hand is a later duplicate of it (sent again after the dedup memory forgot it), not a replay.
   */
  public boolean recordedFromAnotherCopy(String origin) {
    return recordedOrigin != null && !recordedOrigin.equals(origin);
  }

  public int attempts() {
    return transfer == null ? 0 : transfer.attempts();
  }

  /** The seqno the transfer is bound to, null while none of its messages was signed. */
  public Long boundSeqno() {
    return transfer == null ? null : transfer.seqno();
  }
}
