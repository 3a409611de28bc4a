package org.tonpayouts.schemas;

import java.time.Instant;

/**
 * Published to {@code payout.settlements}: the outcome of one requested transfer, what
 * downstream services book. Every accepted transfer gets exactly one terminal settlement; a
 * bounced payout later gets a {@link SettlementStatus#BOUNCED} correction.
 *
 * @param schemaVersion version of this shape, {@link #SCHEMA_VERSION} when written by this code
 * @param requestId producer's request id
 * @param transferId producer's transfer id
 * @param transferIndex 0-based position of the transfer in its request
 * @param subwalletId paying subwallet; also the record key
 * @param kind the requested kind, copied for bookkeeping
 * @param destination destination address as requested
 * @param amountNano nanotons requested, positive; written as a JSON string. For a jetton transfer:
 *     the TON its message carried to our jetton wallet (from the configuration), most of which
 *     comes back as excesses; the payout itself is {@code jetton}
 * @param status the outcome; {@code SETTLED} carries txHash and lt, every other status a reason
 * @param txHash hash of the wallet transaction that paid (64 lowercase hex), or null
 * @param lt logical time of that transaction, or null; written as a JSON string
 * @param seqno wallet seqno of the last message signed for the transfer, or null if none was
 * @param feeNano fee of that transaction in nanotons, or null; written as a JSON string
 * @param messageHash hash of the last external message signed for the transfer, or null
 * @param reason why the status is not {@code SETTLED}, for operators; null when settled
 * @param requestedAt the request's {@code createdAt}
 * @param settledAt when the outcome was decided
 * @param returnedNano for BOUNCED, the nanotons that came back to the wallet; null otherwise
 * @param resolution set only on the settlement an operator's resolution publishes: it follows a
 *     RECONCILIATION_REQUIRED settlement of the same transfer and replaces it (SETTLED or FAILED)
 * @param jetton for a jetton transfer, the jetton and amount requested; null for a TON transfer
 * @param jettonDelivery for a jetton transfer the chain decided, every jetton wallet transaction
 *     of it ({@link JettonDelivery}); null otherwise
 */
public record Settlement(
    int schemaVersion,
    String requestId,
    String transferId,
    int transferIndex,
    long subwalletId,
    TransferKind kind,
    String destination,
    @JsonLongAsString long amountNano,
    SettlementStatus status,
    String txHash,
    @JsonLongAsString Long lt,
    Long seqno,
    @JsonLongAsString Long feeNano,
    String messageHash,
    String reason,
    Instant requestedAt,
    Instant settledAt,
    @JsonLongAsString Long returnedNano,
    Resolution resolution,
    JettonAmount jetton,
    JettonDelivery jettonDelivery) {

  public static final int SCHEMA_VERSION = 1;

  public Settlement {
    Check.schemaVersion(schemaVersion);
    Check.nonBlank(requestId, "requestId");
    Check.nonBlank(transferId, "transferId");
    Check.transferIndex(transferIndex);
    Check.subwalletId(subwalletId);
    Check.present(kind, "kind");
    Check.nonBlank(destination, "destination");
    Check.positive(amountNano, "amountNano");
    Check.present(status, "status");
    Check.hash(txHash, "txHash");
    Check.nonNegative(lt, "lt");
    Check.nonNegative(seqno, "seqno");
    Check.nonNegative(feeNano, "feeNano");
    Check.hash(messageHash, "messageHash");
    if (status == SettlementStatus.SETTLED) {
      Check.present(txHash, "txHash of a SETTLED settlement");
      Check.present(lt, "lt of a SETTLED settlement");
    } else {
      Check.nonBlank(reason, "reason of a " + status + " settlement");
    }
    Check.present(requestedAt, "requestedAt");
    Check.present(settledAt, "settledAt");
    Check.nonNegative(returnedNano, "returnedNano");
    if (status == SettlementStatus.BOUNCED) {
      Check.present(txHash, "txHash of a BOUNCED settlement");
      Check.present(returnedNano, "returnedNano of a BOUNCED settlement");
    }
    if (resolution != null && status != SettlementStatus.SETTLED && status != SettlementStatus.FAILED) {
      throw new IllegalArgumentException("a resolution settles a transfer as SETTLED or FAILED, not " + status);
    }
  }

  /** A settlement in the current schema version (arguments in record order). */
  public static Settlement of(
      String requestId, String transferId, int transferIndex, long subwalletId, TransferKind kind,
      String destination, long amountNano, SettlementStatus status, String txHash, Long lt,
      Long seqno, Long feeNano, String messageHash, String reason, Instant requestedAt,
      Instant settledAt) {
    return new Settlement(SCHEMA_VERSION, requestId, transferId, transferIndex, subwalletId, kind,
        destination, amountNano, status, txHash, lt, seqno, feeNano, messageHash, reason,
        requestedAt, settledAt, null, null, null, null);
  }

  /** This settlement of a jetton transfer: the jetton asked for and, when the chain decided, its transactions. */
  public Settlement withJetton(JettonAmount asked, JettonDelivery delivery) {
    return new Settlement(schemaVersion, requestId, transferId, transferIndex, subwalletId, kind, destination,
        amountNano, status, txHash, lt, seqno, feeNano, messageHash, reason, requestedAt, settledAt, returnedNano,
        resolution, asked, delivery);
  }

  /** This settlement as a BOUNCED correction: the bounce transaction and what came back. */
  public static Settlement bounced(
      String requestId, String transferId, int transferIndex, long subwalletId, TransferKind kind,
      String destination, long amountNano, String bounceTxHash, Long bounceLt, Long seqno,
      String messageHash, long returnedNano, String reason, Instant requestedAt, Instant settledAt) {
    return new Settlement(SCHEMA_VERSION, requestId, transferId, transferIndex, subwalletId, kind,
        destination, amountNano, SettlementStatus.BOUNCED, bounceTxHash, bounceLt, seqno, null,
        messageHash, reason, requestedAt, settledAt, returnedNano, null, null, null);
  }

  /** This settlement as the outcome of an operator's {@code resolution} (SETTLED or FAILED). */
  public Settlement resolvedBy(Resolution resolution) {
    Check.present(resolution, "resolution");
    return new Settlement(schemaVersion, requestId, transferId, transferIndex, subwalletId, kind, destination,
        amountNano, status, txHash, lt, seqno, feeNano, messageHash, reason, requestedAt, settledAt, returnedNano,
        resolution, jetton, jettonDelivery);
  }

  /**
   * The settlement of a transfer that is never attempted because an earlier one of its request
   * did not settle; the request and transfer fields are copied from the request.
   */
  public static Settlement aborted(
      PayoutRequest request, int transferIndex, String reason, Instant settledAt) {
    TransferRequest t = request.transfer(transferIndex);
    Settlement aborted = of(request.requestId(), t.transferId(), transferIndex, request.subwalletId(), t.kind(),
        t.destination(), t.amountNano(), SettlementStatus.ABORTED, null, null, null, null, null,
        reason, request.createdAt(), settledAt);
    return t.paysJetton() ? aborted.withJetton(t.jetton(), null) : aborted;
  }
}
