package org.tonpayouts.poller;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.tonpayouts.schemas.Submission;

/**
 * One submitted external message the poller is waiting to see on chain, as kept in the
 * {@code watched-wallets} store.
 *
 * @param requestId request the message pays for
 * @param transferId transfer the message pays for
 * @param messageHash hash of the external message, lowercase hex (what {@code in_msg.hash} reports)
 * @param normalizedHash TEP-467 normalized hash, lowercase hex (the other key an API may report)
 * @param seqno wallet seqno the message was signed with
 * @param validUntil unix seconds from which the wallet refuses the message
 * @param destination destination address as requested
 * @param amountNano nanotons the message sends
 * @param submittedAt when streams-app handed the message to the API
 * @param windowScanned true once a complete scan has covered every transaction since
 *     {@code submittedAt} (minus the clock-skew margin). False for a new message: the wallet's
 *     cursor may already be past the transaction that applied it (the submission can reach the
 *     poller after a round examined that transaction), so its first scan reaches back in time.
 * @param seqnoSeenPast the wallet seqno read after expiry when it had moved past {@link #seqno}
 *     without a transaction carrying our hash; null until then. Set, the message waits for one
 *     more scan before any conclusion (it may have applied between that scan and the read).
 */
public record WatchedMessage(
    String requestId,
    String transferId,
    String messageHash,
    String normalizedHash,
    long seqno,
    long validUntil,
    String destination,
    long amountNano,
    Instant submittedAt,
    boolean windowScanned,
    Long seqnoSeenPast) {

  public WatchedMessage {
    Objects.requireNonNull(requestId, "requestId");
    Objects.requireNonNull(transferId, "transferId");
    Objects.requireNonNull(messageHash, "messageHash");
    Objects.requireNonNull(normalizedHash, "normalizedHash");
    Objects.requireNonNull(destination, "destination");
    Objects.requireNonNull(submittedAt, "submittedAt");
  }

  /** A message to watch, fresh from {@code payout.submissions}. */
  public static WatchedMessage of(Submission s) {
    return new WatchedMessage(s.requestId(), s.transferId(), s.messageHash(), s.normalizedHash(), s.seqno(),
        s.validUntil(), s.destination(), s.amountNano(), s.submittedAt(), false, null);
  }

  /**
   * True when the wallet refuses this message by now even if our clock runs {@code clockSkew}
   * behind the validators': from then on it can never apply (the safe-retry rule).
   */
  public boolean expired(Instant now, Duration clockSkew) {
    return now.getEpochSecond() >= validUntil + clockSkew.toSeconds();
  }

  /** Unix second from which a scan must reach back to see every transaction that could carry this message. */
  public long windowStart(Duration clockSkew) {
    return submittedAt.getEpochSecond() - clockSkew.toSeconds();
  }

  /** True while the next scan must cover this message's window (new, or its seqno moved past unseen). */
  public boolean needsWindow() {
    return !windowScanned;
  }

  /** True when {@code hash} (lowercase hex) is this message's hash or normalized hash. */
  public boolean matches(String hash) {
    return hash != null && (hash.equals(messageHash) || hash.equals(normalizedHash));
  }

  WatchedMessage withWindowScanned() {
    return new WatchedMessage(requestId, transferId, messageHash, normalizedHash, seqno, validUntil, destination,
        amountNano, submittedAt, true, seqnoSeenPast);
  }

  WatchedMessage withWindowRescan() {
    return new WatchedMessage(requestId, transferId, messageHash, normalizedHash, seqno, validUntil, destination,
        amountNano, submittedAt, false, seqnoSeenPast);
  }

  WatchedMessage withSeqnoSeenPast(long walletSeqno) {
    return new WatchedMessage(requestId, transferId, messageHash, normalizedHash, seqno, validUntil, destination,
        amountNano, submittedAt, false, walletSeqno);
  }
}
