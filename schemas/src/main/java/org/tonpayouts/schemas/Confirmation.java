package org.tonpayouts.schemas;

import java.time.Instant;

/**
 * Published to {@code payout.confirmations} by the chain poller: what the chain says about one
 * submitted message. The only input that completes an in-flight transfer.
 *
 * @param schemaVersion version of this shape, {@link #SCHEMA_VERSION} when written by this code
 * @param requestId request the message pays for
 * @param transferId transfer the message pays for
 * @param subwalletId paying subwallet; also the record key
 * @param messageHash hash of the external message concluded about (64 lowercase hex)
 * @param seqno wallet seqno the message was signed with
 * @param status the conclusion; {@code CONFIRMED} carries txHash and lt, every other status a reason
 * @param txHash hash of the wallet transaction that applied the message (64 lowercase hex), or null
 * @param lt logical time of that transaction, or null; written as a JSON string
 * @param utime unix seconds of that transaction, or null
 * @param feeNano total fee of that transaction in nanotons, or null; written as a JSON string
 * @param reason why the status is not {@code CONFIRMED}, for operators; null when confirmed
 * @param observedAt when the poller saw it
 */
public record Confirmation(
    int schemaVersion,
    String requestId,
    String transferId,
    long subwalletId,
    String messageHash,
    long seqno,
    ConfirmationStatus status,
    String txHash,
    @JsonLongAsString Long lt,
    Long utime,
    @JsonLongAsString Long feeNano,
    String reason,
    Instant observedAt) {

  public static final int SCHEMA_VERSION = 1;

  public Confirmation {
    Check.schemaVersion(schemaVersion);
    Check.nonBlank(requestId, "requestId");
    Check.nonBlank(transferId, "transferId");
    Check.subwalletId(subwalletId);
    Check.nonBlank(messageHash, "messageHash");
    Check.hash(messageHash, "messageHash");
    Check.nonNegative(seqno, "seqno");
    Check.present(status, "status");
    Check.hash(txHash, "txHash");
    Check.nonNegative(lt, "lt");
    Check.nonNegative(utime, "utime");
    Check.nonNegative(feeNano, "feeNano");
    if (status == ConfirmationStatus.CONFIRMED) {
      // "Ledger = chain": a confirmation without the transaction it matched proves nothing.
      Check.present(txHash, "txHash of a CONFIRMED confirmation");
      Check.present(lt, "lt of a CONFIRMED confirmation");
    } else {
      Check.nonBlank(reason, "reason of a " + status + " confirmation");
    }
    Check.present(observedAt, "observedAt");
  }

  /** A confirmation in the current schema version (arguments in record order). */
  public static Confirmation of(
      String requestId, String transferId, long subwalletId, String messageHash, long seqno,
      ConfirmationStatus status, String txHash, Long lt, Long utime, Long feeNano, String reason,
      Instant observedAt) {
    return new Confirmation(SCHEMA_VERSION, requestId, transferId, subwalletId, messageHash, seqno,
        status, txHash, lt, utime, feeNano, reason, observedAt);
  }
}
