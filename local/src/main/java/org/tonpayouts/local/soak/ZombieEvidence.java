package org.tonpayouts.local.soak;

import java.util.List;
import java.util.OptionalDouble;

/**
 * What one zombie episode showed: a streams-app instance paused past its session timeout, its
 * partitions taken by another instance, then resumed. Read from the ledger (partition owners,
 * fencing refusals), the zombie's own log and its metrics.
 *
 * @param child the paused instance
 * @param pid its process id
 * @param partitionsHeld partitions of payout.requests it held (by the ledger's partition owners) when paused
 * @param pausedSeconds how long it was stopped
 * @param roundWaitingWhenPaused one of its issuing rounds waited for a wallet read at its API node
 *     when it was paused, so it had a signed message to record once resumed
 * @param takenOver every partition it held had a newer epoch with another owner before it was resumed
 * @param intentsBeforeRetake messages its log shows recorded after the resume and before it took
 *     any partition again, whose recording began after the pause (the ledger's {@code created_at}):
 *     a zombie's writes, which fencing must make impossible (must be 0). A recording that began
 *     before the SIGSTOP committed while the process stood still, before the takeover (which waits
 *     for it on the owners' row lock); only its log line comes after the resume, and it is not one.
 * @param fencedInLog intents its log shows refused with {@code refusal=FENCED} after the resume
 * @param fencedMetric its {@code ton_tx_fenced_total} after the resume, when it could be scraped
 * @param refusedHashes messages the ledger's audit log shows refused as FENCED_WRITE_REFUSED since
 *     the pause: never recorded for the zombie, never sent by it (the auditor checks none is on chain
 *     unless the new owner recorded the very same bytes: signatures are deterministic, so the new
 *     owner signing the same transfer with the same seqno in the same second makes the same message)
 */
public record ZombieEvidence(String child, long pid, List<Integer> partitionsHeld, double pausedSeconds,
                             boolean roundWaitingWhenPaused,
                             boolean takenOver, int intentsBeforeRetake, int fencedInLog,
                             OptionalDouble fencedMetric, List<String> refusedHashes) {
  public ZombieEvidence {
    partitionsHeld = List.copyOf(partitionsHeld);
    refusedHashes = List.copyOf(refusedHashes);
  }

  /** Whether the zombie tried to write at all once resumed (it may also have had nothing in flight). */
  public boolean attemptedWrites() {
    return fencedInLog > 0 || !refusedHashes.isEmpty();
  }
}
