package org.tonpayouts.streams.ledger.record;

import static org.tonpayouts.streams.ledger.sql.LedgerSql.column;
import static org.tonpayouts.streams.ledger.sql.LedgerSql.timestamp;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.audit.AuditLog;
import org.tonpayouts.streams.ledger.caps.CapDecision;
import org.tonpayouts.streams.ledger.caps.FirstSpend;
import org.tonpayouts.streams.ledger.caps.SpendCapGate;
import org.tonpayouts.streams.ledger.record.RecordResult.Recorded;
import org.tonpayouts.streams.ledger.record.RecordResult.Refusal;
import org.tonpayouts.streams.ledger.record.RecordResult.Refused;
import org.tonpayouts.streams.ledger.sql.LedgerException;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.LedgerRows;
import org.tonpayouts.streams.ledger.sql.LedgerSql;
import org.tonpayouts.streams.ledger.sql.Pause;
import org.tonpayouts.streams.ledger.sql.PauseGate;
import org.tonpayouts.streams.ledger.sql.TransferRow;

/**
 * Records signed messages before they are sent: the write-ahead half of the safe-retry rule.
 *
 * <p>One database transaction per batch: refuse intents of wallets an operator paused ({@link
 * PauseGate}: nothing of theirs is registered), register the requests and their transfers (a requestId
 * reused with other content is refused), hold a transfer's first message that would take a rolling
 * spend window over its cap ({@link SpendCapGate}: CAPPED, its hold recorded; a later attempt is
 * never held nor counted again), bind each transfer to its seqno and count the attempt
 * (refused unless the transfer is OPEN, has no message that may still apply, this is its next
 * attempt and within the maximum, and the seqno is the transfer's own or, for a first attempt,
 * no other transfer's), then insert the messages. The database's constraints and triggers hold
 * the same lines for any other writer: a message with a seqno other than its transfer's is refused
 * by a trigger, so no code path can sign a transfer twice with different seqnos.
 */
public final class IntentRecorder {
  private static final Logger log = LoggerFactory.getLogger(IntentRecorder.class);

  private static final String BIND =
      "update payout_transfers t set seqno = u.s, attempts = u.a, updated_at = ?"
          + " from unnest(?::text[], ?::text[], ?::int8[], ?::int4[]) as u(r, tr, s, a)"
          + " where t.request_id = u.r and t.transfer_id = u.tr"
          + " and t.status = 'OPEN' and t.attempts = u.a - 1 and u.a <= ?"
          + " and (t.seqno is null or t.seqno = u.s)"
          + " and not exists (select 1 from ton_transactions m where m.request_id = t.request_id"
          + "   and m.transfer_id = t.transfer_id and m.status in ('SIGNED', 'SENT'))"
          + " and not exists (select 1 from payout_transfers o where o.wallet_address = t.wallet_address"
          + "   and o.seqno = u.s and (o.request_id, o.transfer_id) <> (t.request_id, t.transfer_id)"
          + "   and (o.status <> 'FAILED' or o.tx_hash is not null))"
          + " returning t.request_id, t.transfer_id";

  private static final String INSERT_MESSAGES =
      "insert into ton_transactions (request_id, transfer_id, transfer_index, attempt, subwallet_id,"
          + " wallet_address, destination, amount_nano, seqno, message_hash, normalized_hash, boc,"
          + " valid_until, status, created_at, updated_at)"
          + " select r, t, ti, a, sw, w, d, amt, s, mh, nh, b, to_timestamp(vu), 'SIGNED', ?, ?"
          + " from unnest(?::text[], ?::text[], ?::int4[], ?::int4[], ?::int8[], ?::text[], ?::text[],"
          + " ?::int8[], ?::int8[], ?::text[], ?::text[], ?::text[], ?::int8[])"
          + " as u(r, t, ti, a, sw, w, d, amt, s, mh, nh, b, vu)"
          + " returning " + LedgerRows.MESSAGE_COLUMNS;

  private final LedgerSql sql;
  private final int maxAttempts;
  private final SpendCapGate caps;

  /** @param caps the rolling spend caps every transfer's first message must fit in */
  public IntentRecorder(LedgerSql sql, int maxAttempts, SpendCapGate caps) {
    this.sql = sql;
    this.maxAttempts = maxAttempts;
    this.caps = caps;
  }

  /** {@link #record(List)} for one intent. */
  public RecordResult record(Intent intent) {
    return record(List.of(intent)).get(0);
  }

  /**
   * Records the intents in one transaction and says, per intent in the given order, whether it
   * was recorded (send it) or refused (send nothing).
   *
   * @throws LedgerException if the database fails: send nothing of this batch; nothing of it was
   *     recorded
   */
  public List<RecordResult> record(List<Intent> intents) {
    if (intents.isEmpty()) {
      return List.of();
    }
    Instant now = sql.now();
    List<RecordResult> results = sql.transaction("record " + intents.size() + " intents", c -> {
      Map<Ownership, String> fenced = staleFences(c, intents);
      List<Intent> unfenced = intents.stream().filter(i -> i.fence() == null || !fenced.containsKey(i.fence())).toList();
      Map<Long, Pause> paused = PauseGate.covering(c, unfenced.stream().map(Intent::subwalletId).toList());
      List<Intent> owned = unfenced.stream().filter(i -> !paused.containsKey(i.subwalletId())).toList();
      List<RequestRegistry.Registration> requests = owned.stream()
          .map(i -> new RequestRegistry.Registration(i.request(), i.walletAddress(), i.origin())).toList();
      Map<String, RequestConflict> conflicts = RequestRegistry.register(c, requests, now);

      List<Intent> registered = owned.stream().filter(i -> !conflicts.containsKey(i.requestId())).toList();
      List<Intent> firsts = firstPerTransferAndSeqno(registered);
      Map<List<String>, FirstSpend> firstSpends = firstSpends(c, firsts);
      Map<List<String>, CapDecision> capped = caps.check(c, List.copyOf(firstSpends.values()), now);
      List<Intent> candidates = firsts.stream()
          .filter(i -> !(capped.get(key(i)) instanceof CapDecision.Held)).toList();
      Set<List<String>> bound = bind(c, candidates, now);
      List<Intent> toInsert = candidates.stream().filter(i -> bound.contains(key(i))).toList();
      Map<String, LedgerRow> inserted = insert(c, toInsert, now);
      caps.count(c, toInsert.stream().map(i -> firstSpends.get(key(i))).filter(java.util.Objects::nonNull).toList(),
          capped, now);

      Map<List<String>, TransferRow> transfers = refusedTransfers(c, registered, bound);
      List<RecordResult> out = new ArrayList<>();
      for (Intent intent : intents) {
        RequestConflict conflict = conflicts.get(intent.requestId());
        if (intent.fence() != null && fenced.containsKey(intent.fence())) {
          out.add(new Refused(intent, Refusal.FENCED, fenced.get(intent.fence())));
          AuditLog.insert(c, new AuditEvent(0, null, AuditEvent.Level.WARNING, AuditEvent.Type.FENCED_WRITE_REFUSED,
              intent.subwalletId(), intent.walletAddress(), intent.requestId(), intent.transferId(), intent.seqno(),
              intent.messageHash(), null, fenced.get(intent.fence()) + "; message not recorded, not sent"), now);
        } else if (paused.containsKey(intent.subwalletId())) {
          out.add(new Refused(intent, Refusal.PAUSED, paused.get(intent.subwalletId()).describe()
              + "; message not recorded, not sent"));
        } else if (conflict != null) {
          out.add(new Refused(intent, Refusal.REQUEST_CONFLICT, conflict.reason()));
        } else if (capped.get(key(intent)) instanceof CapDecision.Held held && firsts.contains(intent)) {
          caps.hold(c, firstSpends.get(key(intent)), held, now);
          out.add(new Refused(intent, Refusal.CAPPED, held.describe(intent.subwalletId())
              + "; message not recorded, not sent", held.freesAt()));
        } else if (bound.contains(key(intent))) {
          out.add(new Recorded(intent, inserted.get(intent.messageHash())));
        } else {
          out.add(refusal(c, intent, transfers.get(key(intent))));
        }
      }
      return out;
    });
    results.forEach(IntentRecorder::logResult);
    return results;
  }

  /**
   * The spends the caps must check: the transfers among {@code firsts} whose message would be their
   * first (attempt 1, and the ledger has none of theirs yet). Empty when no cap is configured.
   */
  private Map<List<String>, FirstSpend> firstSpends(Connection c, List<Intent> firsts) throws SQLException {
    Map<List<String>, FirstSpend> spends = new java.util.LinkedHashMap<>();
    if (!caps.active()) {
      return spends;
    }
    List<FirstSpend> candidates = firsts.stream().filter(i -> i.attempt() == 1)
        .map(i -> new FirstSpend(i.requestId(), i.transferId(), i.subwalletId(), i.walletAddress(), i.amountNano()))
        .toList();
    for (FirstSpend spend : SpendCapGate.unsigned(c, candidates)) {
      spends.put(List.of(spend.requestId(), spend.transferId()), spend);
    }
    return spends;
  }

  /**
   * The fences among the intents that are no longer their partition's current epoch, with what
   * holds the partition now. The owners' rows are share-locked to the end of the transaction, so
   * a new owner's take waits for this recording to commit, and then finds its rows in the ledger.
   */
  private static Map<Ownership, String> staleFences(Connection c, List<Intent> intents) throws SQLException {
    List<Ownership> fences = intents.stream().map(Intent::fence).filter(java.util.Objects::nonNull).distinct().toList();
    Map<Ownership, String> stale = new HashMap<>();
    if (fences.isEmpty()) {
      return stale;
    }
    Map<List<Object>, String[]> current = new HashMap<>();
    try (PreparedStatement ps = c.prepareStatement("select application_id, partition, epoch, owner from partition_owners"
        + " where (application_id, partition) in (select * from unnest(?::text[], ?::int4[])) for share")) {
      ps.setArray(1, column(c, "text", fences, Ownership::applicationId));
      ps.setArray(2, column(c, "int4", fences, Ownership::partition));
      for (String[] row : LedgerSql.read(ps, rs -> new String[] {rs.getString(1), rs.getString(2), rs.getString(3),
          rs.getString(4)})) {
        current.put(List.of(row[0], Integer.parseInt(row[1])), row);
      }
    }
    for (Ownership fence : fences) {
      String[] row = current.get(List.of(fence.applicationId(), fence.partition()));
      if (row == null || Long.parseLong(row[2]) != fence.epoch()) {
        stale.put(fence, "partition " + fence.partition() + " of " + fence.applicationId() + " is held by "
            + (row == null ? "nobody" : "epoch " + row[2] + " (" + row[3] + ")") + ", this task holds epoch "
            + fence.epoch() + ": not the owner any more");
      }
    }
    return stale;
  }

  /**
   * The intents the bind step may consider: the first of each transfer and of each (wallet,
   * seqno) in the batch (one statement cannot see its own rows, so two intents of the batch
   * competing for one would break the unique index and the whole batch); the others are refused.
   */
  private static List<Intent> firstPerTransferAndSeqno(List<Intent> intents) {
    Set<List<String>> transfers = new HashSet<>();
    Set<List<Object>> seqnos = new HashSet<>();
    List<Intent> first = new ArrayList<>();
    for (Intent i : intents) {
      if (transfers.add(key(i)) & seqnos.add(List.of(i.walletAddress(), i.seqno()))) {
        first.add(i);
      }
    }
    return first;
  }

  private static List<String> key(Intent i) {
    return List.of(i.requestId(), i.transferId());
  }

  /** Binds and counts every attempt the rules allow; returns the transfers that passed. */
  private Set<List<String>> bind(Connection c, List<Intent> intents, Instant now) throws SQLException {
    Set<List<String>> bound = new HashSet<>();
    if (intents.isEmpty()) {
      return bound;
    }
    try (PreparedStatement ps = c.prepareStatement(BIND)) {
      ps.setObject(1, timestamp(now));
      ps.setArray(2, column(c, "text", intents, Intent::requestId));
      ps.setArray(3, column(c, "text", intents, Intent::transferId));
      ps.setArray(4, column(c, "int8", intents, Intent::seqno));
      ps.setArray(5, column(c, "int4", intents, Intent::attempt));
      ps.setInt(6, maxAttempts);
      for (String[] row : LedgerSql.read(ps, rs -> new String[] {rs.getString(1), rs.getString(2)})) {
        bound.add(List.of(row[0], row[1]));
      }
    }
    return bound;
  }

  private static Map<String, LedgerRow> insert(Connection c, List<Intent> intents, Instant now) throws SQLException {
    Map<String, LedgerRow> byHash = new HashMap<>();
    if (intents.isEmpty()) {
      return byHash;
    }
    try (PreparedStatement ps = c.prepareStatement(INSERT_MESSAGES)) {
      int p = 1;
      ps.setObject(p++, timestamp(now));
      ps.setObject(p++, timestamp(now));
      ps.setArray(p++, column(c, "text", intents, Intent::requestId));
      ps.setArray(p++, column(c, "text", intents, Intent::transferId));
      ps.setArray(p++, column(c, "int4", intents, Intent::transferIndex));
      ps.setArray(p++, column(c, "int4", intents, Intent::attempt));
      ps.setArray(p++, column(c, "int8", intents, Intent::subwalletId));
      ps.setArray(p++, column(c, "text", intents, Intent::walletAddress));
      ps.setArray(p++, column(c, "text", intents, Intent::destination));
      ps.setArray(p++, column(c, "int8", intents, Intent::amountNano));
      ps.setArray(p++, column(c, "int8", intents, Intent::seqno));
      ps.setArray(p++, column(c, "text", intents, Intent::messageHash));
      ps.setArray(p++, column(c, "text", intents, Intent::normalizedHash));
      ps.setArray(p++, column(c, "text", intents, Intent::boc));
      ps.setArray(p, column(c, "int8", intents, i -> i.validUntil().getEpochSecond()));
      for (LedgerRow row : LedgerSql.read(ps, LedgerRows::message)) {
        byHash.put(row.messageHash(), row);
      }
    }
    if (byHash.size() != intents.size()) {
      // The bind step holds the transfer; a message row can only be missing through a bug.
      throw new LedgerException("recorded " + byHash.size() + " of " + intents.size() + " bound messages");
    }
    return byHash;
  }

  private static Map<List<String>, TransferRow> refusedTransfers(Connection c, List<Intent> registered,
      Set<List<String>> bound) throws SQLException {
    List<Intent> refused = registered.stream().filter(i -> !bound.contains(key(i))).toList();
    Map<List<String>, TransferRow> rows = new HashMap<>();
    if (refused.isEmpty()) {
      return rows;
    }
    try (PreparedStatement ps = c.prepareStatement("select " + LedgerRows.TRANSFER_COLUMNS
        + " from payout_transfers join unnest(?::text[], ?::text[]) as k(request_id, transfer_id)"
        + " using (request_id, transfer_id)")) {
      ps.setArray(1, column(c, "text", refused, Intent::requestId));
      ps.setArray(2, column(c, "text", refused, Intent::transferId));
      for (TransferRow row : LedgerSql.read(ps, LedgerRows::transfer)) {
        rows.put(List.of(row.requestId(), row.transferId()), row);
      }
    }
    return rows;
  }

  /** Says why the bind step passed an intent over, from its transfer's row as it is now. */
  private RecordResult refusal(Connection c, Intent intent, TransferRow transfer) throws SQLException {
    if (transfer == null) {
      throw new LedgerException("transfer " + intent.requestId() + "/" + intent.transferId() + " was not registered");
    }
    if (!transfer.status().isOpen()) {
      return new Refused(intent, Refusal.TRANSFER_DECIDED, "transfer is " + transfer.status());
    }
    if (transfer.seqno() != null && transfer.seqno() != intent.seqno()) {
      return new Refused(intent, Refusal.SEQNO_BOUND, "transfer is bound to seqno " + transfer.seqno());
    }
    if (intent.attempt() > maxAttempts) {
      return new Refused(intent, Refusal.MAX_ATTEMPTS, "attempt " + intent.attempt() + " exceeds " + maxAttempts);
    }
    long live = LedgerSql.query(c, "select count(*) from ton_transactions where request_id = ? and transfer_id = ?"
        + " and status in ('SIGNED', 'SENT')", rs -> rs.getLong(1), intent.requestId(), intent.transferId()).get(0);
    if (live > 0) {
      return new Refused(intent, Refusal.LIVE_MESSAGE, "the transfer has a message that may still apply");
    }
    if (transfer.attempts() != intent.attempt() - 1) {
      return new Refused(intent, Refusal.ATTEMPT_TAKEN,
          "the transfer has " + transfer.attempts() + " attempts, this is attempt " + intent.attempt());
    }
    return new Refused(intent, Refusal.SEQNO_TAKEN, "another transfer of the wallet holds seqno " + intent.seqno());
  }

  private static void logResult(RecordResult r) {
    Intent i = r.intent();
    if (r instanceof Recorded recorded) {
      LedgerRow row = recorded.row();
      log.info("ledger intent recorded status=SIGNED subwallet={} request={} transfer={} attempt={} seqno={} hash={}"
              + " valid_until={}", row.subwalletId(), row.requestId(), row.transferId(), row.attempt(), row.seqno(),
          row.messageHash(), row.validUntil());
    } else if (r instanceof Refused refused) {
      log.info("ledger intent refused refusal={} subwallet={} request={} transfer={} attempt={} seqno={} hash={}"
              + " detail={}", refused.refusal(), i.subwalletId(), i.requestId(), i.transferId(), i.attempt(), i.seqno(),
          i.messageHash(), refused.detail());
    }
  }
}
