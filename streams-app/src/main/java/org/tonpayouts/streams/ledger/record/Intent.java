package org.tonpayouts.streams.ledger.record;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.TransferRequest;
import org.tonpayouts.streams.ledger.sql.Checks;

/**
 * A signed message about to be sent: what {@link IntentRecorder#record} writes, and commits,
 * before the BOC leaves the process.
 *
 * @param request the payout request the message pays a transfer of (registered with the message)
 * @param origin where this copy of the request was read from ({@code topic-partition@offset})
 * @param transferIndex which of its transfers (0-based)
 * @param attempt 1 for a transfer's first message; higher only after earlier ones expired
 * @param walletAddress the paying wallet, any spelling; stored raw ({@code 0:<hex>})
 * @param seqno the wallet seqno the message was signed with: the transfer's seqno from its first
 *     attempt on (the ledger refuses any other)
 * @param messageHash hash of the external message, 64 lowercase hex
 * @param normalizedHash TEP-467 normalized hash, 64 lowercase hex, or null
 * @param boc the signed external message, base64
 * @param validUntil the message's {@code valid_until}; whole seconds, as the wallet reads it
 * @param fence the recording task's claim on its partition: the ledger refuses the intent when a
 *     newer owner took the partition (a zombie's); null only for tools and tests that own none
 */
public record Intent(
    PayoutRequest request,
    String origin,
    int transferIndex,
    int attempt,
    String walletAddress,
    long seqno,
    String messageHash,
    String normalizedHash,
    String boc,
    Instant validUntil,
    Ownership fence) {

  public Intent {
    Objects.requireNonNull(request, "request");
    Checks.nonBlank(origin, "origin");
    if (transferIndex < 0 || transferIndex >= request.transfers().size()) {
      throw new IllegalArgumentException("transferIndex must be within the request's "
          + request.transfers().size() + " transfers, got " + transferIndex);
    }
    if (attempt < 1) {
      throw new IllegalArgumentException("attempt must be >= 1, got " + attempt);
    }
    walletAddress = Checks.rawAddress(walletAddress, "walletAddress");
    Checks.uint32(seqno, "seqno");
    messageHash = Checks.hash(messageHash, "messageHash");
    normalizedHash = Checks.hashOrNull(normalizedHash, "normalizedHash");
    Checks.nonBlank(boc, "boc");
    Objects.requireNonNull(validUntil, "validUntil");
    // The message carries valid_until as uint32 unix seconds; keep exactly what was signed.
    validUntil = validUntil.truncatedTo(ChronoUnit.SECONDS);
  }

  /** An intent recorded without a partition claim (tools and tests). */
  public Intent(PayoutRequest request, String origin, int transferIndex, int attempt, String walletAddress, long seqno,
      String messageHash, String normalizedHash, String boc, Instant validUntil) {
    this(request, origin, transferIndex, attempt, walletAddress, seqno, messageHash, normalizedHash, boc, validUntil,
        null);
  }

  public String requestId() {
    return request.requestId();
  }

  public TransferRequest transfer() {
    return request.transfer(transferIndex);
  }

  public String transferId() {
    return transfer().transferId();
  }

  public long subwalletId() {
    return request.subwalletId();
  }

  public String destination() {
    return transfer().destination();
  }

  public long amountNano() {
    return transfer().amountNano();
  }

  /** Everything but the BOC, so a log line stays one short line. */
  @Override
  public String toString() {
    return "Intent[request=" + requestId() + ", transfer=" + transferId() + ", index=" + transferIndex
        + ", attempt=" + attempt + ", subwallet=" + subwalletId() + ", wallet=" + walletAddress
        + ", destination=" + destination() + ", amountNano=" + amountNano() + ", seqno=" + seqno
        + ", hash=" + messageHash + ", validUntil=" + validUntil + "]";
  }
}
