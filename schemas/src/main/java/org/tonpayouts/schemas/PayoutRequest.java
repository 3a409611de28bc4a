package org.tonpayouts.schemas;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a producer writes to {@code payout.requests}: 1 to 4 ordered transfers from one subwallet.
 * The pipeline pays them in order and publishes one {@link Settlement} per transfer.
 *
 * <p>Read requests from other teams with {@link PayoutRequestValidator} (the value serde of
 * {@link Topics#PAYOUT_REQUESTS} does): it enforces the strict request schema before this record
 * is built.
 *
 * @param schemaVersion version of this shape, {@link #SCHEMA_VERSION} when written by this code
 * @param requestId producer's idempotency key: a request id is paid at most once
 * @param subwalletId WalletV4R2 subwallet that pays (unsigned 32-bit); also the record key
 * @param transfers 1 to 4 transfers, paid in this order (immutable copy)
 * @param createdAt when the producer created the request
 */
public record PayoutRequest(
    int schemaVersion,
    String requestId,
    long subwalletId,
    List<TransferRequest> transfers,
    Instant createdAt) {

  public static final int SCHEMA_VERSION = 1;
  public static final int MAX_TRANSFERS = 4;

  public PayoutRequest {
    Check.schemaVersion(schemaVersion);
    Check.nonBlank(requestId, "requestId");
    Check.subwalletId(subwalletId);
    Check.present(transfers, "transfers");
    transfers = List.copyOf(transfers);
    if (transfers.isEmpty() || transfers.size() > MAX_TRANSFERS) {
      throw new IllegalArgumentException(
          "transfers must hold 1 to " + MAX_TRANSFERS + " entries, got " + transfers.size());
    }
    Set<String> ids = new HashSet<>();
    for (TransferRequest t : transfers) {
      if (!ids.add(t.transferId())) {
        throw new IllegalArgumentException("duplicate transferId '" + t.transferId() + "'");
      }
    }
    Check.present(createdAt, "createdAt");
  }

  /** A request in the current schema version. */
  public static PayoutRequest of(
      String requestId, long subwalletId, List<TransferRequest> transfers, Instant createdAt) {
    return new PayoutRequest(SCHEMA_VERSION, requestId, subwalletId, transfers, createdAt);
  }

  /** The transfer at {@code index} (0-based, the order in which transfers are paid). */
  public TransferRequest transfer(int index) {
    return transfers.get(index);
  }

  /** The record key of this request on every wallet-keyed topic. */
  @JsonIgnore
  public String walletKey() {
    return Topics.walletKey(subwalletId);
  }

  /**
   * The TEP-74 {@code query_id} of transfer {@code index} when it pays a jetton: derived from the
   * requestId (unique across the deployment) and the index, so every attempt carries the same one
   * and the ledger records, with the transfer's first intent, the one its messages carry. 63 bits
   * of SHA-256: two transfers of one subwallet share one with a chance of 2^-63, and the poller
   * checks the sender jetton wallet as well, never the query_id alone.
   */
  public long jettonQueryId(int index) {
    try {
      byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(
          ("tonpayouts jetton query_id\u0000" + requestId + "\u0000" + index)
              .getBytes(java.nio.charset.StandardCharsets.UTF_8));
      return java.nio.ByteBuffer.wrap(digest).getLong() & Long.MAX_VALUE;
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
