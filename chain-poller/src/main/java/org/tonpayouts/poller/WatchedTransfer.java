package org.tonpayouts.poller;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.tonpayouts.schemas.JettonOrder;
import org.tonpayouts.schemas.Submission;
import org.tonpayouts.ton.api.TransactionId;

/**
 * One submitted transfer the poller is waiting to see decided on chain, as kept in the
 * {@code watched-wallets} store. Every message signed for the transfer carries its one seqno, so
 * the wallet applies at most one of them: a transaction carrying ANY of its hashes decides it.
 *
 * @param requestId request the transfer belongs to
 * @param transferId the transfer
 * @param seqno the seqno every message of the transfer carries
 * @param hashes every message hash signed for it, oldest first; the last is the newest attempt
 * @param normalizedHashes the TEP-467 normalized hashes known for them (a second key an API may report)
 * @param validUntil the newest message's valid_until (unix seconds): once the node's own time is
 *     past it (plus the skew margin) with the wallet's seqno not past {@link #seqno}, none of the
 *     transfer's messages applied or ever can
 * @param destination destination as requested
 * @param amountNano nanotons sent
 * @param bounce the internal message's bounce flag: a confirmed bounceable payout is watched for a bounce
 * @param firstSubmittedAt when the transfer's first message was recorded: a scan that must prove
 *     none of its messages applied reaches back to it
 * @param windowScanned true once a complete scan covered every transaction since {@code
 *     firstSubmittedAt} (minus the skew margin)
 * @param appliedWithoutSend a transaction that carried one of the hashes but sent nothing (a
 *     skipped send, or an aborted one after which the message may still apply): decided only by a
 *     state read that has seen that transaction; null when none
 * @param recheck streams-app asked to re-establish the outcome: read the state at once
 * @param jetton for a jetton transfer, what to follow after the wallet's message (which goes to
 *     {@code jetton.senderJettonWallet}, with {@link #amountNano} attached); null for a TON transfer
 *     (and in entries stored before jettons)
 * @param trail for a jetton transfer the wallet has handed over to our jetton wallet, how far the
 *     jetton wallets' transactions have been followed; null before (and for a TON transfer)
 */
public record WatchedTransfer(
    String requestId,
    String transferId,
    long seqno,
    List<String> hashes,
    List<String> normalizedHashes,
    long validUntil,
    String destination,
    long amountNano,
    boolean bounce,
    Instant firstSubmittedAt,
    boolean windowScanned,
    TransactionId appliedWithoutSend,
    boolean recheck,
    JettonOrder jetton,
    JettonTrail trail) {

  public WatchedTransfer {
    Objects.requireNonNull(requestId, "requestId");
    Objects.requireNonNull(transferId, "transferId");
    hashes = List.copyOf(hashes);
    normalizedHashes = normalizedHashes == null ? List.of() : List.copyOf(normalizedHashes);
    Objects.requireNonNull(destination, "destination");
    Objects.requireNonNull(firstSubmittedAt, "firstSubmittedAt");
    if (hashes.isEmpty()) {
      throw new IllegalArgumentException("a watched transfer has at least one message hash");
    }
  }

  /** A TON transfer. */
  public WatchedTransfer(String requestId, String transferId, long seqno, List<String> hashes,
      List<String> normalizedHashes, long validUntil, String destination, long amountNano, boolean bounce,
      Instant firstSubmittedAt, boolean windowScanned, TransactionId appliedWithoutSend, boolean recheck) {
    this(requestId, transferId, seqno, hashes, normalizedHashes, validUntil, destination, amountNano, bounce,
        firstSubmittedAt, windowScanned, appliedWithoutSend, recheck, null, null);
  }

  /** A transfer to watch, fresh from {@code payout.submissions}. */
  public static WatchedTransfer of(Submission s) {
    return new WatchedTransfer(s.requestId(), s.transferId(), s.seqno(), s.transferHashes(),
        List.of(s.normalizedHash()), s.validUntil(), s.destination(), s.amountNano(), s.bounce(),
        s.firstSubmittedAt(), false, null, s.recheck(), s.jetton(), null);
  }

  /**
   * This transfer with a later submission of it merged in (a new attempt, or a re-check). A jetton
   * transfer's trail is kept: the wallet's transaction that handed it over stays the transfer's
   * (every attempt carries the same seqno, so no other can apply), and so do the jetton wallets'.
   */
  WatchedTransfer merge(Submission s) {
    Set<String> all = new LinkedHashSet<>(hashes);
    all.addAll(s.transferHashes());
    Set<String> normalized = new LinkedHashSet<>(normalizedHashes);
    normalized.add(s.normalizedHash());
    boolean newer = s.validUntil() >= validUntil;
    return new WatchedTransfer(requestId, transferId, seqno, List.copyOf(all), List.copyOf(normalized),
        newer ? s.validUntil() : validUntil, destination, amountNano, bounce, firstSubmittedAt,
        windowScanned && !s.recheck(), appliedWithoutSend, recheck || s.recheck(),
        jetton != null ? jetton : s.jetton(), trail);
  }

  public String newestHash() {
    return hashes.get(hashes.size() - 1);
  }

  /** True when {@code hash} (lowercase hex) is one of the transfer's message hashes or normalized hashes. */
  public boolean matches(String hash) {
    return hash != null && (hashes.contains(hash) || normalizedHashes.contains(hash));
  }

  /**
   * True when our clock suggests the node's time may have passed the newest valid_until: the
   * trigger to read the wallet's state (the conclusion itself rests on the node's time only).
   */
  public boolean maybeExpired(Instant now, Duration clockSkew) {
    return now.getEpochSecond() >= validUntil + clockSkew.toSeconds();
  }

  /** Unix second from which a scan must reach back to see every transaction that could carry one of its messages. */
  public long windowStart(Duration clockSkew) {
    return firstSubmittedAt.getEpochSecond() - clockSkew.toSeconds();
  }

  /** Where the wallet's own message goes: our jetton wallet for a jetton transfer, else the destination. */
  public String messageDestination() {
    return jetton == null ? destination : jetton.senderJettonWallet();
  }

  /**
   * True once the wallet's transaction sent a jetton transfer's message to our jetton wallet: the
   * wallet has nothing more to say about it (no state read, no scan window); the jetton wallets'
   * transactions decide ({@link JettonTrailRound}).
   */
  public boolean handedOver() {
    return trail != null;
  }

  /** True when this round must read the wallet's state for the transfer (before scanning). */
  boolean needsStateRead(Instant now, Duration clockSkew) {
    return !handedOver() && (recheck || appliedWithoutSend != null || maybeExpired(now, clockSkew));
  }

  WatchedTransfer withWindowScanned(boolean scanned) {
    return new WatchedTransfer(requestId, transferId, seqno, hashes, normalizedHashes, validUntil, destination,
        amountNano, bounce, firstSubmittedAt, scanned, appliedWithoutSend, recheck, jetton, trail);
  }

  WatchedTransfer withAppliedWithoutSend(TransactionId tx) {
    return new WatchedTransfer(requestId, transferId, seqno, hashes, normalizedHashes, validUntil, destination,
        amountNano, bounce, firstSubmittedAt, windowScanned, tx, recheck, jetton, trail);
  }

  WatchedTransfer withTrail(JettonTrail next) {
    return new WatchedTransfer(requestId, transferId, seqno, hashes, normalizedHashes, validUntil, destination,
        amountNano, bounce, firstSubmittedAt, windowScanned, appliedWithoutSend, recheck, jetton, next);
  }
}
