package org.tonpayouts.poller;

import java.time.Instant;
import java.util.Objects;

/**
 * A confirmed bounceable payout the poller keeps an eye on for a while: if the destination could
 * not take it, the value comes back to the wallet as a bounced internal message, which the
 * wallet's next transactions show.
 *
 * @param requestId the payout's request
 * @param transferId the payout's transfer
 * @param messageHash our message that paid it
 * @param seqno its seqno
 * @param destination where it went
 * @param confirmedLt lt of the transaction that paid it: the bounce comes after
 * @param until when to stop watching (our clock)
 * @param confirmedUtime unix time of the transaction that paid it: the block feed covers the
 *     bounce only when it was following the chain by then; null in entries stored before it was kept
 * @param amountNano what the payout sent: its bounce returns that less the fees, never more; null
 *     in entries stored before it was kept
 * @param returnedPart what a bounce of the payout carries of its body ({@link
 *     org.tonpayouts.ton.api.Bounces#returnedPart}); null when unknown (then only the sender and
 *     amount are matched)
 */
public record BounceWatch(
    String requestId, String transferId, String messageHash, long seqno, String destination, long confirmedLt,
    Instant until, Long confirmedUtime, Long amountNano, String returnedPart) {

  public BounceWatch {
    Objects.requireNonNull(requestId, "requestId");
    Objects.requireNonNull(transferId, "transferId");
    Objects.requireNonNull(messageHash, "messageHash");
    Objects.requireNonNull(destination, "destination");
    Objects.requireNonNull(until, "until");
  }
}
