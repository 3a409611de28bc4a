package org.tonpayouts.streams.ledger.operator;

import java.util.List;

/**
 * What the chain showed, as the admin API read it, when an operator resolves a transfer FAILED:
 * no message at the transfer's seqno can still apply (the node's synced time is past every
 * attempt's {@code valid_until} plus the clock-skew margin, and the wallet's seqno is past the
 * transfer's), and the wallet's transactions since the transfer was recorded were read whole.
 * {@link #matches} are those of them that pay the transfer's destination exactly its amount:
 * {@link Resolutions#fail} refuses while one of them is not accounted for.
 *
 * @param nodeUtime the API node's synced time ({@code sync_utime}) of the wallet state read
 * @param walletSeqno the wallet's seqno in that state
 * @param latestValidUntil the latest {@code valid_until} of the transfer's messages (unix seconds); null when none
 * @param readBackToUtime the transactions were read from the newest back to this time (the
 *     transfer's recording less the clock-skew margin)
 * @param transactionsRead how many transactions were read
 * @param matches the transactions read that pay the destination the amount, newest first
 */
public record NonPaymentEvidence(long nodeUtime, long walletSeqno, Long latestValidUntil, long readBackToUtime,
                                 int transactionsRead, List<ChainPayment> matches) {

  public NonPaymentEvidence {
    matches = List.copyOf(matches);
  }

  /** One line for the audit log. */
  String describe() {
    return "node time " + nodeUtime + (latestValidUntil == null ? "" : " past the latest valid_until "
        + latestValidUntil + " plus the clock-skew margin") + ", wallet seqno " + walletSeqno + ", "
        + transactionsRead + " transaction(s) read back to utime " + readBackToUtime;
  }
}
