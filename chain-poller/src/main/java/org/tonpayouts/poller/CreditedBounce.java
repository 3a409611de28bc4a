package org.tonpayouts.poller;

import java.time.Instant;
import java.util.Objects;

/**
 * A bounce already credited to one of the wallet's payouts, remembered in the wallet's watch-list
 * entry (so across rounds and restarts) while another watched payout could still take it for its
 * own: the block feed serves an account's transactions again for a minute, and scans page back
 * over transactions already examined.
 *
 * @param txHash the wallet's transaction that received the bounce
 * @param until when to forget it (our clock): the end of the bounce window from when it was credited
 */
public record CreditedBounce(String txHash, Instant until) {

  public CreditedBounce {
    Objects.requireNonNull(txHash, "txHash");
    Objects.requireNonNull(until, "until");
  }
}
