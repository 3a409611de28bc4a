package org.tonpayouts.schemas;

import java.time.Instant;
import java.util.List;

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
 *     (only after the previous one provably can never apply); every attempt of a transfer is
 *     signed with the same seqno, so the wallet applies at most one of them
 * @param submittedAt when the message was handed to the API
 * @param transferHashes every message hash signed for this transfer so far, oldest first, this
 *     one last: a transaction carrying ANY of them settles the transfer
 * @param firstSubmittedAt when the transfer's first message was handed to the API: scans for the
 *     transfer reach back to it
 * @param bounce the bounce flag of the internal message: a bounceable payout to an account that
 *     cannot take it comes back, and the poller watches for that
 * @param recheck true when streams-app asks the poller to establish the transfer's outcome from
 *     the chain again (its seqno moved past the transfer without a verdict, or no verdict came in
 *     time): the poller re-derives it even if it remembers a verdict for this hash
 * @param jetton for a jetton transfer, what the poller follows after the wallet's message (which
 *     goes to {@code jetton.senderJettonWallet} with {@code amountNano} attached, not to
 *     {@code destination}); null for a TON transfer
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
    Instant submittedAt,
    List<String> transferHashes,
    Instant firstSubmittedAt,
    boolean bounce,
    boolean recheck,
    JettonOrder jetton) {

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
    Check.present(transferHashes, "transferHashes");
    transferHashes = List.copyOf(transferHashes);
    transferHashes.forEach(h -> Check.hash(h, "transferHashes[]"));
    if (transferHashes.isEmpty() || !transferHashes.get(transferHashes.size() - 1).equals(messageHash)) {
      throw new IllegalArgumentException("transferHashes must end with messageHash " + messageHash);
    }
    Check.present(firstSubmittedAt, "firstSubmittedAt");
  }

  /** A submission in the current schema version (arguments in record order). */
  public static Submission of(
      String requestId, String transferId, int transferIndex, long subwalletId,
      String walletAddress, long seqno, String messageHash, String normalizedHash,
      long validUntil, String destination, long amountNano, int attempt, Instant submittedAt,
      List<String> transferHashes, Instant firstSubmittedAt, boolean bounce, boolean recheck) {
    return new Submission(SCHEMA_VERSION, requestId, transferId, transferIndex, subwalletId,
        walletAddress, seqno, messageHash, normalizedHash, validUntil, destination, amountNano,
        attempt, submittedAt, transferHashes, firstSubmittedAt, bounce, recheck, null);
  }

  /** This submission as one of a jetton transfer. */
  public Submission withJetton(JettonOrder order) {
    return new Submission(schemaVersion, requestId, transferId, transferIndex, subwalletId,
        walletAddress, seqno, messageHash, normalizedHash, validUntil, destination, amountNano,
        attempt, submittedAt, transferHashes, firstSubmittedAt, bounce, recheck, order);
  }

  /** Where the wallet's own message goes: our jetton wallet for a jetton transfer, else the destination. */
  public String messageDestination() {
    return jetton == null ? destination : jetton.senderJettonWallet();
  }

  /** The first message of a transfer: its own hash is the transfer's only one so far. */
  public static Submission first(
      String requestId, String transferId, int transferIndex, long subwalletId,
      String walletAddress, long seqno, String messageHash, String normalizedHash,
      long validUntil, String destination, long amountNano, Instant submittedAt, boolean bounce) {
    return of(requestId, transferId, transferIndex, subwalletId, walletAddress, seqno, messageHash,
        normalizedHash, validUntil, destination, amountNano, 1, submittedAt, List.of(messageHash),
        submittedAt, bounce, false);
  }

  /** This submission as a request to re-establish the transfer's outcome from the chain. */
  public Submission asRecheck(Instant at) {
    return new Submission(schemaVersion, requestId, transferId, transferIndex, subwalletId,
        walletAddress, seqno, messageHash, normalizedHash, validUntil, destination, amountNano,
        attempt, at, transferHashes, firstSubmittedAt, bounce, true, jetton);
  }
}
