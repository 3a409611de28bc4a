package org.tonpayouts.streams.ledger;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import org.tonpayouts.ton.address.TonAddress;

/**
 * A signed message about to be sent: what {@link Ledger#recordIntents} writes, and commits, before
 * the BOC leaves the process.
 *
 * @param requestId the payout request
 * @param transferId the transfer of that request this message pays
 * @param transferIndex position of the transfer in its request (0-based)
 * @param attempt 1 for a transfer's first message; higher only after earlier ones expired
 * @param subwalletId the paying WalletV4R2 subwallet id
 * @param walletAddress the paying wallet, any spelling; stored raw ({@code 0:<hex>})
 * @param destination the recipient as the request gave it (its user-friendly flags matter)
 * @param amountNano nanotons sent
 * @param seqno the wallet seqno the message was signed with
 * @param messageHash hash of the external message, 64 lowercase hex
 * @param normalizedHash TEP-467 normalized hash, 64 lowercase hex, or null
 * @param boc the signed external message, base64
 * @param validUntil the message's {@code valid_until}; whole seconds, as the wallet reads it
 */
public record Intent(
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
    Instant validUntil) {

  public Intent {
    Checks.nonBlank(requestId, "requestId");
    Checks.nonBlank(transferId, "transferId");
    if (transferIndex < 0) {
      throw new IllegalArgumentException("transferIndex must be >= 0, got " + transferIndex);
    }
    if (attempt < 1) {
      throw new IllegalArgumentException("attempt must be >= 1, got " + attempt);
    }
    Checks.uint32(subwalletId, "subwalletId");
    walletAddress = Checks.rawAddress(walletAddress, "walletAddress");
    Checks.nonBlank(destination, "destination");
    if (!TonAddress.isValid(destination)) {
      throw new IllegalArgumentException("destination is not a TON address: '" + destination + "'");
    }
    if (amountNano <= 0) {
      throw new IllegalArgumentException("amountNano must be positive, got " + amountNano);
    }
    Checks.uint32(seqno, "seqno");
    messageHash = Checks.hash(messageHash, "messageHash");
    normalizedHash = Checks.hashOrNull(normalizedHash, "normalizedHash");
    Checks.nonBlank(boc, "boc");
    Objects.requireNonNull(validUntil, "validUntil");
    // The message carries valid_until as uint32 unix seconds; keep exactly what was signed.
    validUntil = validUntil.truncatedTo(ChronoUnit.SECONDS);
  }

  /** Everything but the BOC, so a log line stays one short line. */
  @Override
  public String toString() {
    return "Intent[request=" + requestId + ", transfer=" + transferId + ", index=" + transferIndex
        + ", attempt=" + attempt + ", subwallet=" + subwalletId + ", wallet=" + walletAddress
        + ", destination=" + destination + ", amountNano=" + amountNano + ", seqno=" + seqno
        + ", hash=" + messageHash + ", validUntil=" + validUntil + "]";
  }
}
