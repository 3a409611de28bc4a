package org.tonpayouts.local.bench;

import org.tonpayouts.devnet.Faults;

/**
 * The benchmark's fault mode: a share of the children's sends fail, half with HTTP 429 (the message
 * is not processed) and half dropped silently (sendBoc answers ok, the message never applies), on
 * devnet's default node, the one the children use. Reads are left alone (a send-only rate limit), so
 * the rate is exactly the share of failed sends.
 *
 * @param rate share of sends that fail, 0 to 1
 */
public record SendFaults(double rate) {
  public SendFaults {
    if (!(rate >= 0 && rate <= 1)) {
      throw new IllegalArgumentException("--send-fault-rate must be within 0..1, got " + rate);
    }
  }

  public boolean on() {
    return rate > 0;
  }

  /** Probability that a send is answered 429. */
  public double rateLimitProbability() {
    return rate / 2;
  }

  /**
   * Probability that a send that got past the rate limit is dropped: chosen so that 429s and drops
   * are each half of {@code rate} of all sends.
   */
  public double dropProbability() {
    double limited = rateLimitProbability();
    return limited >= 1 ? 0 : (rate / 2) / (1 - limited);
  }

  /** The faults that fired between two readings of a node's counts. */
  public static Faults.Counts fired(Faults.Counts before, Faults.Counts after) {
    return new Faults.Counts(after.delayed() - before.delayed(), after.rateLimited() - before.rateLimited(),
        after.transportErrors() - before.transportErrors(), after.dropped() - before.dropped(),
        after.staleReads() - before.staleReads(), after.laggedReads() - before.laggedReads());
  }

  /** Turns the faults on (other fault settings of the node are replaced). */
  public void apply(Faults faults) {
    faults.apply(Faults.Settings.none()
        .withRateLimit(rateLimitProbability(), 0)
        .withRateLimitScope(Faults.RateLimitScope.SENDS)
        .withDrop(dropProbability(), 0));
  }
}
