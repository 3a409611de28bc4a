package org.tonpayouts.streams.ledger.record;

import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.streams.ledger.sql.LedgerSql;

/**
 * Hands out fencing epochs: a stream task takes the next epoch of its partition when it is
 * assigned, and from then on any older holder's intents are refused ({@link IntentRecorder}).
 */
public final class PartitionOwners {
  private static final Logger log = LoggerFactory.getLogger(PartitionOwners.class);

  private final LedgerSql sql;

  public PartitionOwners(LedgerSql sql) {
    this.sql = sql;
  }

  /**
   * Takes the partition for {@code owner}: its epoch is incremented (1 for the first owner), and
   * every earlier holder is fenced from that commit on.
   */
  public Ownership take(String applicationId, int partition, String owner) {
    Instant now = sql.now();
    long epoch = sql.run("take partition " + partition + " of " + applicationId, c -> LedgerSql.query(c,
        "insert into partition_owners (application_id, partition, epoch, owner, taken_at) values (?, ?, 1, ?, ?)"
            + " on conflict (application_id, partition) do update set epoch = partition_owners.epoch + 1,"
            + " owner = excluded.owner, taken_at = excluded.taken_at returning epoch",
        rs -> rs.getLong(1), applicationId, partition, owner, now).get(0));
    Ownership ownership = new Ownership(applicationId, partition, epoch);
    log.info("partition taken application={} partition={} epoch={} owner={}", applicationId, partition, epoch, owner);
    return ownership;
  }

  /** The partition's current epoch and owner, if it was ever taken. */
  public List<String> current(String applicationId, int partition) {
    return sql.run("read the owner of partition " + partition, c -> LedgerSql.query(c,
        "select epoch, owner from partition_owners where application_id = ? and partition = ?",
        rs -> rs.getLong(1) + " " + rs.getString(2), applicationId, partition));
  }
}
