package org.tonpayouts.streams.ledger.record;

import java.util.Objects;

/**
 * A stream task's claim on one partition of {@code payout.requests}: the fencing token every
 * intent it records carries. The ledger refuses an intent whose epoch is no longer the
 * partition's current one (a zombie's).
 *
 * @param applicationId the Kafka Streams application id (one set of partitions per application)
 * @param partition the partition the task owns
 * @param epoch the epoch it took when it was assigned
 */
public record Ownership(String applicationId, int partition, long epoch) {
  public Ownership {
    Objects.requireNonNull(applicationId, "applicationId");
    if (partition < 0 || epoch < 1) {
      throw new IllegalArgumentException("partition must be >= 0 and epoch >= 1, got " + partition + "/" + epoch);
    }
  }

  @Override
  public String toString() {
    return applicationId + "-" + partition + "@epoch" + epoch;
  }
}
