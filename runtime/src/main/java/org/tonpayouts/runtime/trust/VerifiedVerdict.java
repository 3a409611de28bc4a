package org.tonpayouts.runtime.trust;

import org.tonpayouts.schemas.Confirmation;

/** A record of {@code payout.confirmations} as streams-app reads it: chain-poller's verdict, or a record it refuses. */
public sealed interface VerifiedVerdict {

  /** A verdict chain-poller signed with the key {@code keyId}. */
  record Authentic(Confirmation verdict, String keyId) implements VerifiedVerdict {}

  /**
   * A record no verdict key verifies (no MAC, a wrong one, an unknown key): not chain-poller's, so
   * nothing of it is applied or even parsed.
   *
   * @param why what was wrong with its MAC
   * @param bytes the value's length
   * @param sha256 the value's SHA-256 (hex), to find the record again
   */
  record Refused(String why, int bytes, String sha256) implements VerifiedVerdict {}
}
