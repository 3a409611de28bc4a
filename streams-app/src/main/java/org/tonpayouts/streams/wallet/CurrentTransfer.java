package org.tonpayouts.streams.wallet;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The transfer a wallet is paying, once its first message was signed: the seqno it is bound to
 * and every message hash signed for it (all with that seqno, so the wallet applies at most one).
 *
 * @param seqno the seqno every message of the transfer carries
 * @param hashes every message hash signed for it, oldest first; the last is the newest attempt
 * @param attempt the newest attempt's number
 * @param validUntil the newest message's valid_until (unix seconds)
 * @param firstSubmittedAt when the first message was recorded: scans for the transfer reach back to it
 * @param awaitingVerdict true while the newest message may still apply: nothing is signed for the
 *     wallet until the poller's verdict (or the watchdog) says otherwise
 * @param recheckAt when, without a verdict, the transfer is re-checked (our clock)
 */
public record CurrentTransfer(
    long seqno,
    List<String> hashes,
    int attempt,
    long validUntil,
    Instant firstSubmittedAt,
    boolean awaitingVerdict,
    Instant recheckAt) {

  public CurrentTransfer {
    hashes = List.copyOf(hashes);
    Objects.requireNonNull(firstSubmittedAt, "firstSubmittedAt");
    Objects.requireNonNull(recheckAt, "recheckAt");
  }

  public String newestHash() {
    return hashes.get(hashes.size() - 1);
  }

  /** The newest message provably expired: the transfer waits for its next attempt (same seqno). */
  public CurrentTransfer expired() {
    return new CurrentTransfer(seqno, hashes, attempt, validUntil, firstSubmittedAt, false, recheckAt);
  }

  /** Still without a verdict: re-check again at {@code next}. */
  public CurrentTransfer recheckAgainAt(Instant next) {
    return new CurrentTransfer(seqno, hashes, attempt, validUntil, firstSubmittedAt, true, next);
  }
}
