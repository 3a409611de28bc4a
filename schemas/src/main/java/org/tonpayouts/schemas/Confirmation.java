package org.tonpayouts.schemas;

import java.time.Instant;

/**
 * Published to {@code payout.confirmations} by the chain poller: what the chain says about one
 * submitted transfer. The only input that completes an in-flight transfer.
 *
 * @param schemaVersion version of this shape, {@link #SCHEMA_VERSION} when written by this code
 * @param requestId request the message pays for
 * @param transferId transfer the message pays for
 * @param subwalletId paying subwallet; also the record key
 * @param messageHash the transfer's message concluded about (64 lowercase hex): for CONFIRMED and
 *     FAILED the one that applied (any attempt of the transfer), for EXPIRED the newest attempt
 * @param seqno wallet seqno the transfer is bound to
 * @param status the conclusion; {@code CONFIRMED} carries txHash and lt, every other status a reason
 * @param txHash hash of the wallet transaction that applied the message (64 lowercase hex), or
 *     for BOUNCED the transaction that brought the bounce back; null otherwise
 * @param lt logical time of that transaction, or null; written as a JSON string
 * @param utime unix seconds of that transaction, or null
 * @param feeNano total fee of that transaction in nanotons, or null; written as a JSON string
 * @param reason why the status is not {@code CONFIRMED}, for operators; for a CONFIRMED found by
 *     destination and amount instead of a hash, how it was found
 * @param observedAt when the poller saw it
 * @param evidenceUtime the API node's own time ({@code sync_utime}) of the state the verdict rests
 *     on; required for EXPIRED, which is only ever concluded once that time passed validUntil
 * @param returnedNano for BOUNCED, the nanotons that came back; null otherwise
 * @param jetton for a jetton transfer, the jetton wallets' transactions: a CONFIRMED one names the
 *     receiver's acceptance ({@link JettonDelivery#delivered}), a FAILED one the jetton wallet that
 *     threw; null for a TON transfer (and for a jetton transfer's verdicts from the wallet alone:
 *     EXPIRED, a skipped send)
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
    Instant observedAt,
    Long evidenceUtime,
    @JsonLongAsString Long returnedNano,
    JettonDelivery jetton) {

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
    Check.nonNegative(evidenceUtime, "evidenceUtime");
    Check.nonNegative(returnedNano, "returnedNano");
    if (status == ConfirmationStatus.EXPIRED) {
      // Expiry is judged by the API node's clock, never ours: no evidence, no expiry.
      Check.present(evidenceUtime, "evidenceUtime of an EXPIRED confirmation");
    }
    if (status == ConfirmationStatus.BOUNCED) {
      Check.present(txHash, "txHash of a BOUNCED confirmation");
      Check.present(returnedNano, "returnedNano of a BOUNCED confirmation");
    }
    if (jetton != null && status == ConfirmationStatus.CONFIRMED && !jetton.delivered()) {
      throw new IllegalArgumentException("a CONFIRMED jetton verdict names the receiver's acceptance");
    }
  }

  /** A confirmation in the current schema version (arguments in record order). */
  public static Confirmation of(
      String requestId, String transferId, long subwalletId, String messageHash, long seqno,
      ConfirmationStatus status, String txHash, Long lt, Long utime, Long feeNano, String reason,
      Instant observedAt, Long evidenceUtime, Long returnedNano) {
    return new Confirmation(SCHEMA_VERSION, requestId, transferId, subwalletId, messageHash, seqno,
        status, txHash, lt, utime, feeNano, reason, observedAt, evidenceUtime, returnedNano, null);
  }

  /** This verdict with the jetton wallets' transactions of a jetton transfer. */
  public Confirmation withJetton(JettonDelivery delivery) {
    return new Confirmation(schemaVersion, requestId, transferId, subwalletId, messageHash, seqno, status, txHash, lt,
        utime, feeNano, reason, observedAt, evidenceUtime, returnedNano, delivery);
  }

  /** A verdict that rests on a transaction (CONFIRMED, FAILED) or on nothing of the node's time. */
  public static Confirmation of(
      String requestId, String transferId, long subwalletId, String messageHash, long seqno,
      ConfirmationStatus status, String txHash, Long lt, Long utime, Long feeNano, String reason,
      Instant observedAt) {
    return of(requestId, transferId, subwalletId, messageHash, seqno, status, txHash, lt, utime,
        feeNano, reason, observedAt, null, null);
  }
}
