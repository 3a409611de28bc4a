package org.tonpayouts.streams.ledger.sql;

import java.time.Instant;

/**
 * One row of {@code ton_transactions}: a message we signed and everything the chain and the API
 * said about it since. Nullable fields are null until the event that fills them.
 *
 * @param txHash hash of the wallet transaction that applied the message (CONFIRMED, maybe FAILED)
 * @param lt that transaction's logical time
 * @param utime that transaction's unix time, seconds
 * @param feeNano that transaction's total fee
 * @param lastError the latest send error or verdict reason, for operators
 * @param errorCount send errors recorded so far
 * @param sendCount times the BOC was handed to the API (re-sends of the same bytes included)
 * @param evidenceUtime for EXPIRED, the API node's time ({@code sync_utime}) that proved it
 */
public record LedgerRow(
    long id,
    String requestId,
    String transferId,
    int transferIndex,
    int attempt,
    long subwalletId,
    String walletAddress,
    String destination,
    long amountNano,
    long seqno,
    String messageHash,
    String normalizedHash,
    String boc,
    Instant validUntil,
    LedgerStatus status,
    String txHash,
    Long lt,
    Long utime,
    Long feeNano,
    String lastError,
    int errorCount,
    int sendCount,
    Instant createdAt,
    Instant updatedAt,
    Instant sentAt,
    Instant settledAt,
    Long evidenceUtime) {

  /** Everything but the BOC, so a log line stays one short line. */
  /** True when this message is one of transfer {@code requestId}/{@code transferId}'s. */
  public boolean isOf(String requestId, String transferId) {
    return requestId().equals(requestId) && transferId().equals(transferId);
  }

  @Override
  public String toString() {
    return "LedgerRow[id=" + id + ", request=" + requestId + ", transfer=" + transferId
        + ", index=" + transferIndex + ", attempt=" + attempt + ", subwallet=" + subwalletId
        + ", wallet=" + walletAddress + ", seqno=" + seqno + ", hash=" + messageHash
        + ", status=" + status + ", validUntil=" + validUntil + ", tx=" + txHash + ", lt=" + lt
        + ", sends=" + sendCount + ", errors=" + errorCount + ", lastError=" + lastError + "]";
  }
}
