package org.tonpayouts.streams.wallet;

import org.tonpayouts.ton.api.WalletSnapshot;

/**
 * Decides which seqno a fresh wallet read lets us sign with (DESIGN.md, the safe-retry rule).
 *
 * <p>A transfer's first message takes the wallet's seqno; every later one reuses it, so the
 * wallet applies at most one of them whatever any verdict said. A read below what we know the
 * wallet reached is stale (a lagging node): never signed with, re-read later. A first read above
 * it means another signer used the wallet: trusted, but counted and audited. A read past a bound
 * transfer's seqno means that seqno was used while all the transfer's messages were judged
 * expired: the transfer is never signed with another seqno; the poller must establish what applied.
 */
public final class SeqnoGuard {
  private SeqnoGuard() {}

  /** What a read allows. */
  public sealed interface Verdict {}

  /** Sign with {@code seqno}; {@code movedAhead} when another signer must have used the wallet. */
  public record Sign(long seqno, boolean movedAhead) implements Verdict {}

  /** The read is behind what we know: re-read later, sign nothing. */
  public record Stale(String why) implements Verdict {}

  /** The wallet's seqno is past the transfer's bound seqno: never sign it again; re-check it. */
  public record SeqnoPassed(long bound, long read) implements Verdict {}

  /**
   * @param read the fresh, synced read
   * @param bound the transfer's seqno when one of its messages was signed before; null for a first attempt
   * @param floor seqno of our newest message known to have applied; null when unknown
   */
  public static Verdict check(WalletSnapshot read, Long bound, Long floor) {
    long seqno = read.seqno();
    if (bound != null) {
      if (seqno < bound) {
        return new Stale("read seqno " + seqno + " is below the transfer's seqno " + bound);
      }
      return seqno == bound ? new Sign(bound, false) : new SeqnoPassed(bound, seqno);
    }
    if (floor == null) {
      return new Sign(seqno, false);
    }
    long expected = floor + 1;
    if (seqno < expected) {
      return new Stale("read seqno " + seqno + ", expected at least " + expected);
    }
    return new Sign(seqno, seqno > expected);
  }
}
