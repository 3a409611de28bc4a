package org.tonpayouts.streams.ledger.sql;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a pause meets the recording of a new intent, in the database: the intent's transaction
 * takes a shared lock and then reads the active pauses; setting a pause takes the same lock
 * exclusively. So a pause waits for the intents being recorded at that moment (they were recorded
 * before it: in flight, and settled as usual), and once it commits no transaction records another
 * intent for a wallet it covers, whatever any process's copy of the pauses says. (Under READ
 * COMMITTED the check must be a statement of its own after the lock: a statement sees what was
 * committed when it started.)
 */
public final class PauseGate {
  /** The advisory lock's key: "pause" in ASCII; no other advisory lock of this database uses it. */
  private static final long LOCK_KEY = 0x7061757365L;

  private PauseGate() {}

  /** In an intent's transaction: the active pause covering each of {@code subwallets} that has one. */
  public static Map<Long, Pause> covering(Connection c, Collection<Long> subwallets) throws SQLException {
    Map<Long, Pause> covered = new HashMap<>();
    if (subwallets.isEmpty()) {
      return covered;
    }
    LedgerSql.query(c, "select pg_advisory_xact_lock_shared(?)", rs -> null, LOCK_KEY);
    List<Pause> active = LedgerSql.query(c, "select " + Pause.COLUMNS + " from operator_pauses"
            + " where lifted_at is null and (subwallet_id is null or subwallet_id = any(?)) order by id",
        Pause::read, c.createArrayOf("int8", subwallets.stream().distinct().toArray()));
    for (Long subwallet : subwallets) {
      // a wallet's own pause names the operator who stopped it; the deployment's covers the rest
      active.stream().filter(p -> subwallet.equals(p.subwalletId())).findFirst()
          .or(() -> active.stream().filter(Pause::deploymentWide).findFirst())
          .ifPresent(p -> covered.put(subwallet, p));
    }
    return covered;
  }

  /** In a pause's transaction: waits for every intent being recorded now, and holds off new ones until commit. */
  public static void closeForPause(Connection c) throws SQLException {
    LedgerSql.query(c, "select pg_advisory_xact_lock(?)", rs -> null, LOCK_KEY);
  }
}
