package org.tonpayouts.devnet.chain;

import java.util.Objects;

/**
 * An external message that passed the wallet's checks against the last applied block, ready to
 * enter the mempool. Passing once does not guarantee it applies: it is checked again when the
 * next block is built.
 */
public final class CheckedMessage {
  private final ExternalMessage message;
  private final long seqno;
  private final long subwalletId;
  /** The key its signature verified with; the block re-check skips the Ed25519 work for it. */
  final byte[] verifiedKey;

  CheckedMessage(ExternalMessage message, long seqno, long subwalletId, byte[] verifiedKey) {
    this.message = Objects.requireNonNull(message, "message");
    this.seqno = seqno;
    this.subwalletId = subwalletId;
    this.verifiedKey = verifiedKey.clone();
  }

  public ExternalMessage message() {
    return message;
  }

  /** The seqno the message was signed with. */
  public long seqno() {
    return seqno;
  }

  public long subwalletId() {
    return subwalletId;
  }

  @Override
  public String toString() {
    return "CheckedMessage[wallet=" + message.destination() + ", seqno=" + seqno + ", hash=" + message.hash() + "]";
  }
}
