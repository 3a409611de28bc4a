package org.tonpayouts.streams.wallet;

/**
 * Decides whether a fresh seqno read may be signed with (DESIGN.md, the safe-retry rule).
 *
 * <p>Once our message with seqno N applied, the wallet's seqno is at least N+1. A lagging API node
 * can still report N or less: signing with it would produce a message that is silently dropped at
 * best, so such a read is {@link Verdict#STALE} and re-read in a later round. A read above N+1
 * means another signer used the wallet: the chain is the truth, so it is used, but counted and
 * audited ({@link Verdict#MOVED_AHEAD}).
 */
public final class SeqnoGuard {
  private SeqnoGuard() {}

  public enum Verdict { USE, STALE, MOVED_AHEAD }

  public static Verdict check(long read, Long lastAppliedSeqno) {
    if (lastAppliedSeqno == null) {
      return Verdict.USE;
    }
    long expected = lastAppliedSeqno + 1;
    if (read < expected) {
      return Verdict.STALE;
    }
    return read == expected ? Verdict.USE : Verdict.MOVED_AHEAD;
  }
}
