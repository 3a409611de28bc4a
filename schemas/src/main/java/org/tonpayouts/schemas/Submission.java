package org.tonpayouts.schemas;

import java.time.Instant;

/**
 * Published to {@code payout.submissions} after a signed external message was persisted and
 * handed to {@code sendBoc}: tells the chain poller which wallet to watch for which message.
 *
 * @param schemaVersion version of this shape, {@link #SCHEMA_VERSION} when written by this code
 * @param requestId request the transfer belongs to
 * @param transferId transfer within the request
 * @param transferIndex 0-based position of the transfer in its request
 * @param subwalletId paying subwallet; also the record key
 * @param walletAddress the subwallet's address, raw form {@code <workchain>:<64 hex>}
 * @param seqno wallet seqno the message was signed with
 * @param messageHash hash of the external message, 64 lowercase hex digits
 * @param normalizedHash TEP-467 normalized hash of the external message, 64 lowercase hex digits
 * @param validUntil unix seconds after which the wallet refuses the message
 * @param destination destination address as requested
 * @param amountNano nanotons sent, positive; written as a JSON string
 * @param attempt 1 for the first message of a transfer, then 2, 3... for re-signed messages
 *     (only after the previous one provably can never apply)
 * @param submittedAt when the message was handed to the API
 */
public record Submission(
    int schemaVersion,
    String requestId,
    String transferId,
    int transferIndex,
    long subwalletId,
    String walletAddress,
    long seqno,
    String messageHash,
    String normalizedHash,
    long validUntil,
    String destination,
    @JsonLongAsString long amountNano,
    int attempt,
    Instant submittedAt) {

  public static final int SCHEMA_VERSION = 1;

  public Submission {
    Check.schemaVersion(schemaVersion);
    Check.nonBlank(requestId, "requestId");
    Check.nonBlank(transferId, "transferId");
    Check.transferIndex(transferIndex);
    Check.subwalletId(subwalletId);
    Check.nonBlank(walletAddress, "walletAddress");
    Check.nonNegative(seqno, "seqno");
    Check.nonBlank(messageHash, "messageHash");
    Check.hash(messageHash, "messageHash");
    Check.nonBlank(normalizedHash, "normalizedHash");
    Check.hash(normalizedHash, "normalizedHash");
    Check.positive(validUntil, "validUntil");
    Check.nonBlank(destination, "destination");
    Check.positive(amountNano, "amountNano");
    Check.positive(attempt, "attempt");
    Check.present(submittedAt, "submittedAt");
  }

  /** A submission in the current schema version (arguments in record order). */
  public static Submission of(
      String requestId, String transferId, int transferIndex, long subwalletId,
      String walletAddress, long seqno, String messageHash, String normalizedHash,
      long validUntil, String destination, long amountNano, int attempt, Instant submittedAt) {
    return new Submission(SCHEMA_VERSION, requestId, transferId, transferIndex, subwalletId,
        walletAddress, seqno, messageHash, normalizedHash, validUntil, destination, amountNano,
        attempt, submittedAt);
  }
}
