package org.tonpayouts.streams.wallet;

import java.time.Instant;

/**
 * What the wallet-tx processor keeps per subwallet, in {@link org.tonpayouts.streams.names.TopologyNames#WALLET_HEADS_STORE}
 * under the subwallet id: a small, fixed-size value. The queued requests live one per key in
 * {@link org.tonpayouts.streams.names.TopologyNames#WALLET_QUEUE_STORE} ({@link WalletQueue}), so no store value grows with
 * the backlog and an enqueue writes one small record.
 *
 * @param subwalletId the subwallet
 * @param headSeq queue position of the request being paid (equal to {@code tailSeq} when idle)
 * @param tailSeq queue position the next accepted request gets
 * @param transferIndex the head request's transfer being paid
 * @param current that transfer once a message was signed for it; null before
 * @param lastAppliedSeqno seqno of our newest message known to have applied (the stale-read
 *     guard's floor); null when unknown
 * @param partlySettledSince when the head request got its first transfer settled while others
 *     remain open; null otherwise (the {@code ton.tx.batch.incomplete} gauge)
 */
public record WalletHead(
    long subwalletId,
    long headSeq,
    long tailSeq,
    int transferIndex,
    CurrentTransfer current,
    Long lastAppliedSeqno,
    Instant partlySettledSince) {

  public static WalletHead empty(long subwalletId) {
    return new WalletHead(subwalletId, 0, 0, 0, null, null, null);
  }

  /** Requests queued, the one being paid included. */
  public long queued() {
    return tailSeq - headSeq;
  }

  public boolean hasWork() {
    return tailSeq > headSeq;
  }

  /** True when the next issuing round should act for this wallet: work, and no message that may still apply. */
  public boolean readyToIssue() {
    return hasWork() && (current == null || !current.awaitingVerdict());
  }

  public boolean awaitingVerdict() {
    return current != null && current.awaitingVerdict();
  }

  /** A request was queued at {@code tailSeq}. */
  public WalletHead enqueued() {
    return new WalletHead(subwalletId, headSeq, tailSeq + 1, transferIndex, current, lastAppliedSeqno,
        partlySettledSince);
  }

  /** A message for the current transfer is on its way (new, resumed, or a re-check). */
  public WalletHead submitted(CurrentTransfer transfer) {
    return new WalletHead(subwalletId, headSeq, tailSeq, transferIndex, transfer, lastAppliedSeqno, partlySettledSince);
  }

  /** The newest message expired; the transfer waits for its next attempt. */
  public WalletHead expired() {
    return new WalletHead(subwalletId, headSeq, tailSeq, transferIndex, current == null ? null : current.expired(),
        lastAppliedSeqno, partlySettledSince);
  }

  /**
   * The current transfer is settled: on to the request's next transfer, or (with {@code
   * requestSize} reached) to the next request.
   */
  public WalletHead advance(Long appliedSeqno, int requestSize, Instant now) {
    Long floor = appliedSeqno != null ? appliedSeqno : lastAppliedSeqno;
    if (transferIndex + 1 < requestSize) {
      Instant since = partlySettledSince != null ? partlySettledSince : now;
      return new WalletHead(subwalletId, headSeq, tailSeq, transferIndex + 1, null, floor, since);
    }
    return nextRequest(floor);
  }

  /** The rest of the head request is abandoned or done: on to the next request. */
  public WalletHead nextRequest(Long appliedSeqno) {
    Long floor = appliedSeqno != null ? appliedSeqno : lastAppliedSeqno;
    return new WalletHead(subwalletId, headSeq + 1, tailSeq, 0, null, floor, null);
  }

  public WalletHead withLastAppliedSeqno(Long seqno) {
    return new WalletHead(subwalletId, headSeq, tailSeq, transferIndex, current, seqno, partlySettledSince);
  }
}
