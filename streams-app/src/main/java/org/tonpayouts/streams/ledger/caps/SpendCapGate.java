package org.tonpayouts.streams.ledger.caps;

import static org.tonpayouts.streams.ledger.sql.LedgerSql.column;

import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tonpayouts.runtime.caps.SpendCap;
import org.tonpayouts.runtime.caps.SpendCaps;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.audit.AuditLog;
import org.tonpayouts.streams.ledger.sql.LedgerSql;

/**
 * Where the rolling spend caps meet the recording of a transfer's first message, in the database:
 * in the intent's own transaction, so no process's copy of anything can overspend. A transfer
 * counts once, for its amount, when its first message is recorded; its later attempts (same seqno)
 * are neither checked nor counted, so a transfer already in flight is never held.
 *
 * <p>A wallet's own caps need no lock: one task writes a wallet's intents, fenced against zombies.
 * The deployment's caps sum every wallet, so with any configured the check takes one exclusive
 * advisory lock until commit: recordings of first messages take turns across all instances (later
 * attempts and every other ledger write do not). With no cap configured nothing here runs.
 */
public final class SpendCapGate {
  /** The deployment cap's advisory lock: "spend" in ASCII; no other advisory lock of this database uses it. */
  private static final long DEPLOYMENT_LOCK_KEY = 0x7370656e64L;

  private static final String UPSERT_BUCKETS =
      "insert into spend_buckets (subwallet_id, window_seconds, slot, bucket_start, amount_nano)"
          + " select sw, ws, sl, to_timestamp(bs), a::numeric from unnest(?::int8[], ?::int8[], ?::int4[], ?::int8[],"
          + " ?::text[]) as u(sw, ws, sl, bs, a)"
          + " on conflict (subwallet_id, window_seconds, slot) do update set"
          // the slot's bucket again: add; a newer bucket: it takes the slot over; an older one (a clock
          // behind another instance's): add to the newer, so no spend is ever dropped
          + " amount_nano = case when spend_buckets.bucket_start < excluded.bucket_start then excluded.amount_nano"
          + "   else spend_buckets.amount_nano + excluded.amount_nano end,"
          + " bucket_start = greatest(spend_buckets.bucket_start, excluded.bucket_start)";

  private static final String UPSERT_HOLD =
      "insert into spend_holds as h (request_id, transfer_id, subwallet_id, wallet_address, amount_nano, cap_scope,"
          + " window_seconds, cap_nano, spent_nano, frees_at, held_at, checked_at)"
          + " values (?, ?, ?, ?, ?, ?, ?, ?, ?::numeric, ?, ?, ?)"
          + " on conflict (request_id, transfer_id) do update set cap_scope = excluded.cap_scope,"
          + " window_seconds = excluded.window_seconds, cap_nano = excluded.cap_nano, spent_nano = excluded.spent_nano,"
          + " frees_at = excluded.frees_at, checked_at = excluded.checked_at where h.passed_at is null"
          + " returning (xmax = 0) as inserted";

  private final SpendCaps caps;

  public SpendCapGate(SpendCaps caps) {
    this.caps = caps;
  }

  /** Whether any cap is configured; when none is, the recording never calls the gate. */
  public boolean active() {
    return caps.any();
  }

  public SpendCaps caps() {
    return caps;
  }

  /**
   * The candidates whose transfer has no message yet (never bound to a seqno, no attempt counted):
   * their message would be the first, the one that counts. Call after the requests are registered.
   */
  public static List<FirstSpend> unsigned(Connection c, List<FirstSpend> candidates) throws SQLException {
    if (candidates.isEmpty()) {
      return List.of();
    }
    Set<List<String>> unsigned = new HashSet<>();
    try (PreparedStatement ps = c.prepareStatement("select request_id, transfer_id from payout_transfers"
        + " join unnest(?::text[], ?::text[]) as k(request_id, transfer_id) using (request_id, transfer_id)"
        + " where seqno is null and attempts = 0")) {
      ps.setArray(1, column(c, "text", candidates, FirstSpend::requestId));
      ps.setArray(2, column(c, "text", candidates, FirstSpend::transferId));
      for (List<String> key : LedgerSql.read(ps, rs -> List.of(rs.getString(1), rs.getString(2)))) {
        unsigned.add(key);
      }
    }
    return candidates.stream().filter(s -> unsigned.contains(key(s))).toList();
  }

  /**
   * Decides, in order, whether each first message may be recorded: a spend that passes counts at
   * once toward the ones after it in the batch (even if the recording refuses it for another
   * reason later: the caps err on the side of holding, within one batch).
   */
  public Map<List<String>, CapDecision> check(Connection c, List<FirstSpend> spends, Instant now) throws SQLException {
    Map<List<String>, CapDecision> decisions = new LinkedHashMap<>();
    if (spends.isEmpty()) {
      return decisions;
    }
    if (!caps.perDeployment().isEmpty()) {
      LedgerSql.query(c, "select pg_advisory_xact_lock(?)", rs -> null, DEPLOYMENT_LOCK_KEY);
    }
    Map<List<String>, HoldState> holds = holds(c, spends);
    Map<List<Object>, SpendWindows> windows = windows(c, spends, now);
    for (FirstSpend spend : spends) {
      HoldState hold = holds.get(key(spend));
      CapDecision decision;
      if (hold != null && hold.released()) {
        decision = new CapDecision.Pass(true, true);
      } else {
        CapDecision.Held held = tightest(spend, windows, now);
        decision = held != null ? held : new CapDecision.Pass(false, hold != null);
      }
      if (decision instanceof CapDecision.Pass) {
        forEachWindow(spend, windows, (scoped, w) -> w.add(SpendWindows.bucketOf(scoped.cap(), now),
            BigInteger.valueOf(spend.amountNano())));
      }
      decisions.put(key(spend), decision);
    }
    return decisions;
  }

  /**
   * Counts the first messages recorded (the passed spends that the recording bound), and closes the
   * holds they had: a hold the window let go gets its INFO {@code SPEND_CAP_RELEASED} here (an
   * operator's release was audited when it was made).
   */
  public void count(Connection c, List<FirstSpend> recorded, Map<List<String>, CapDecision> decisions, Instant now)
      throws SQLException {
    if (recorded.isEmpty()) {
      return;
    }
    Map<List<Object>, BigInteger> byBucket = new LinkedHashMap<>();
    for (FirstSpend spend : recorded) {
      for (CapScope scope : CapScope.values()) {
        for (SpendCap cap : capsOf(scope)) {
          long bucket = SpendWindows.bucketOf(cap, now);
          byBucket.merge(List.of(scope.bucketKey(spend.subwalletId()), cap.windowSeconds(), bucket,
              cap.bucketSeconds()), BigInteger.valueOf(spend.amountNano()), BigInteger::add);
        }
      }
    }
    List<Map.Entry<List<Object>, BigInteger>> rows = new ArrayList<>(byBucket.entrySet());
    try (PreparedStatement ps = c.prepareStatement(UPSERT_BUCKETS)) {
      ps.setArray(1, column(c, "int8", rows, e -> e.getKey().get(0)));
      ps.setArray(2, column(c, "int8", rows, e -> e.getKey().get(1)));
      ps.setArray(3, column(c, "int4", rows, e -> (int) Math.floorMod((long) e.getKey().get(2), SpendWindows.SLOTS)));
      ps.setArray(4, column(c, "int8", rows, e -> (long) e.getKey().get(2) * (long) e.getKey().get(3)));
      ps.setArray(5, column(c, "text", rows, e -> e.getValue().toString()));
      ps.executeUpdate();
    }
    for (FirstSpend spend : recorded) {
      if (decisions.get(key(spend)) instanceof CapDecision.Pass pass && pass.wasHeld()) {
        int closed = LedgerSql.update(c, "update spend_holds set passed_at = ? where request_id = ? and transfer_id = ?"
            + " and passed_at is null", now, spend.requestId(), spend.transferId());
        if (closed == 1 && !pass.released()) {
          AuditLog.insert(c, event(spend, AuditEvent.Level.INFO, AuditEvent.Type.SPEND_CAP_RELEASED,
              "the spend caps' windows have room again: the held transfer's first message is recorded"), now);
        }
      }
    }
  }

  /**
   * Records that {@code spend} is held: the first time with a WARNING {@code SPEND_CAP_HELD} audit
   * event, afterwards only the latest check's numbers.
   *
   * @return whether this is the transfer's first hold
   */
  public boolean hold(Connection c, FirstSpend spend, CapDecision.Held held, Instant now) throws SQLException {
    List<Boolean> inserted = LedgerSql.query(c, UPSERT_HOLD, rs -> rs.getBoolean("inserted"), spend.requestId(),
        spend.transferId(), spend.subwalletId(), spend.walletAddress(), spend.amountNano(), held.scope().name(),
        held.cap().windowSeconds(), held.cap().capNano(), held.spent().toString(), held.freesAt(), now, now);
    boolean first = !inserted.isEmpty() && inserted.get(0);
    if (first) {
      AuditLog.insert(c, event(spend, AuditEvent.Level.WARNING, AuditEvent.Type.SPEND_CAP_HELD,
          "transfer of " + spend.amountNano() + " nanotons held, not signed: " + held.describe(spend.subwalletId())),
          now);
    }
    return first;
  }

  /** The hold among all caps that keeps the spend longest: one its amount alone is over, else the latest to free. */
  private CapDecision.Held tightest(FirstSpend spend, Map<List<Object>, SpendWindows> windows, Instant now) {
    List<CapDecision.Held> helds = new ArrayList<>();
    forEachWindow(spend, windows, (scoped, w) -> {
      CapDecision.Held held = w.check(scoped.scope(), spend.amountNano(), now);
      if (held != null) {
        helds.add(held);
      }
    });
    return helds.stream().max(Comparator.comparing(CapDecision.Held::freesAt,
        Comparator.nullsLast(Comparator.naturalOrder()))).orElse(null);
  }

  /** A cap with the list it came from (the same window may be configured in both). */
  private record ScopedCap(CapScope scope, SpendCap cap) {}

  @FunctionalInterface
  private interface WindowVisitor {
    void visit(ScopedCap cap, SpendWindows windows);
  }

  private void forEachWindow(FirstSpend spend, Map<List<Object>, SpendWindows> windows, WindowVisitor visitor) {
    for (CapScope scope : CapScope.values()) {
      for (SpendCap cap : capsOf(scope)) {
        List<Object> key = List.of(scope.bucketKey(spend.subwalletId()), cap.windowSeconds());
        visitor.visit(new ScopedCap(scope, cap), windows.computeIfAbsent(key, k -> new SpendWindows(cap)));
      }
    }
  }

  private List<SpendCap> capsOf(CapScope scope) {
    return scope == CapScope.WALLET ? caps.perWallet() : caps.perDeployment();
  }

  /** The spend buckets of every scope and window the spends touch, as the ledger holds them now. */
  private Map<List<Object>, SpendWindows> windows(Connection c, List<FirstSpend> spends, Instant now)
      throws SQLException {
    Map<List<Object>, SpendWindows> windows = new HashMap<>();
    Set<Long> keys = new HashSet<>();
    if (!caps.perDeployment().isEmpty()) {
      keys.add(-1L);
    }
    if (!caps.perWallet().isEmpty()) {
      spends.forEach(s -> keys.add(s.subwalletId()));
    }
    Map<List<Object>, SpendCap> capByKey = new HashMap<>();
    for (CapScope scope : CapScope.values()) {
      for (SpendCap cap : capsOf(scope)) {
        for (Long key : keys) {
          if ((key == -1L) == (scope == CapScope.DEPLOYMENT)) {
            capByKey.put(List.of(key, cap.windowSeconds()), cap);
          }
        }
      }
    }
    SpendCap longest = caps.longest().orElseThrow();
    Instant oldest = now.minus(longest.window()).minusSeconds(2 * longest.bucketSeconds());
    List<Object[]> rows = LedgerSql.query(c, "select subwallet_id, window_seconds, bucket_start, amount_nano::text"
            + " from spend_buckets where subwallet_id = any(?) and bucket_start >= ?",
        rs -> new Object[] {rs.getLong(1), rs.getLong(2), LedgerSql.instant(rs, "bucket_start"), rs.getString(4)},
        c.createArrayOf("int8", keys.toArray()), now.isBefore(oldest) ? now : oldest);
    for (Object[] row : rows) {
      List<Object> key = List.of(row[0], row[1]);
      SpendCap cap = capByKey.get(key);
      if (cap == null) {
        continue; // a window no longer configured
      }
      windows.computeIfAbsent(key, k -> new SpendWindows(cap))
          .add(SpendWindows.bucketOf(cap, (Instant) row[2]), new BigInteger((String) row[3]));
    }
    return windows;
  }

  private record HoldState(boolean released) {}

  /** The waiting holds of these transfers: whether an operator released each. */
  private static Map<List<String>, HoldState> holds(Connection c, List<FirstSpend> spends) throws SQLException {
    Map<List<String>, HoldState> holds = new HashMap<>();
    try (PreparedStatement ps = c.prepareStatement("select request_id, transfer_id, released_at is not null"
        + " from spend_holds join unnest(?::text[], ?::text[]) as k(request_id, transfer_id)"
        + " using (request_id, transfer_id) where passed_at is null")) {
      ps.setArray(1, column(c, "text", spends, FirstSpend::requestId));
      ps.setArray(2, column(c, "text", spends, FirstSpend::transferId));
      for (Object[] row : LedgerSql.read(ps, rs -> new Object[] {rs.getString(1), rs.getString(2), rs.getBoolean(3)})) {
        holds.put(List.of((String) row[0], (String) row[1]), new HoldState((Boolean) row[2]));
      }
    }
    return holds;
  }

  static List<String> key(FirstSpend s) {
    return List.of(s.requestId(), s.transferId());
  }

  private static AuditEvent event(FirstSpend s, AuditEvent.Level level, AuditEvent.Type type, String detail) {
    return new AuditEvent(0, null, level, type, s.subwalletId(), s.walletAddress(), s.requestId(), s.transferId(),
        null, null, null, detail);
  }
}
