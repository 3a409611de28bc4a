package org.tonpayouts.streams.ledger.record;

import static org.tonpayouts.streams.ledger.sql.LedgerSql.column;
import static org.tonpayouts.streams.ledger.sql.LedgerSql.timestamp;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.ConfirmationStatus;
import org.tonpayouts.streams.ledger.sql.Checks;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.LedgerRows;
import org.tonpayouts.streams.ledger.sql.LedgerSql;
import org.tonpayouts.streams.ledger.sql.TransferRow;

/**
 * Settles, in three statements whatever their number, the confirmations of a batch that need no
 * judgement: the message is live (SIGNED or SENT) and of the transfer the verdict names, its
 * transfer OPEN, and no CONFIRMED message claims the transaction. That is nearly every verdict, and it is exactly what
 * {@link MessageTransitions#confirmIn} would do with them one by one in about eight round trips
 * each: the message CONFIRMED (with the sends the API acknowledged, in the same row version), the
 * transfer SETTLED. Nothing else of the transfer needs closing:
 * the ledger holds one live message per transfer ({@code ton_transactions_live_transfer}).
 *
 * <p>Everything else (an unknown or settled message, a decided transfer, a claimed transaction,
 * an expiry to overturn, a verdict sharing a message, transaction or transfer with another of the
 * batch) is left to the caller, one by one. The rows are locked before they are judged, and the
 * database's triggers and unique indexes hold the same lines for any concurrent writer.
 */
public final class ConfirmBatch {
  private static final String LOCK_SETTLEABLE =
      "select " + LedgerRows.messageColumns("m")
          + " from unnest(?::text[], ?::text[], ?::text[], ?::text[]) as v(h, tx, r, tr)"
          + " join ton_transactions m on m.message_hash = v.h and m.request_id = v.r and m.transfer_id = v.tr"
          + " join payout_transfers t on t.request_id = m.request_id and t.transfer_id = m.transfer_id"
          + " where m.status in ('SIGNED', 'SENT') and t.status = 'OPEN'"
          + " and not exists (select 1 from ton_transactions x where x.tx_hash = v.tx and x.status = 'CONFIRMED')"
          + " for update of m, t";

  private static final String CONFIRM_MESSAGES =
      "update ton_transactions m set status = 'CONFIRMED', tx_hash = v.tx, lt = v.lt, utime = v.ut, fee_nano = v.fee,"
          + " updated_at = ?, settled_at = ?, sent_at = coalesce(m.sent_at, v.sent), send_count = m.send_count + v.n"
          + " from unnest(?::int8[], ?::text[], ?::int8[], ?::int8[], ?::int8[], ?::timestamptz[], ?::int4[])"
          + " as v(id, tx, lt, ut, fee, sent, n)"
          + " where m.id = v.id and m.status in ('SIGNED', 'SENT')"
          + " returning " + LedgerRows.messageColumns("m");

  private static final String SETTLE_TRANSFERS =
      "update payout_transfers t set status = 'SETTLED', reason = null, message_hash = v.h, tx_hash = v.tx,"
          + " updated_at = ?, settled_at = ?"
          + " from unnest(?::text[], ?::text[], ?::text[], ?::text[]) as v(r, tr, h, tx)"
          + " where t.request_id = v.r and t.transfer_id = v.tr and t.status = 'OPEN'"
          + " returning " + LedgerRows.transferColumns("t");

  private ConfirmBatch() {}

  /**
   * Settles what it can of {@code commands} and says, by position in the list, what became of
   * each it settled; the others are neither changed nor locked, and go one by one. The settled
   * messages' {@code sends} not yet in the ledger are recorded in the same statement.
   *
   * @throws SQLException when a statement fails: the caller rolls back to before the call and
   *     takes every verdict one by one
   */
  public static Map<Integer, VerdictResult.Applied> settle(Connection c, List<VerdictCommand> commands,
      Map<String, Sends> sends, Instant now) throws SQLException {
    Map<String, Integer> candidates = candidates(commands);
    Map<Integer, VerdictResult.Applied> out = new HashMap<>();
    if (candidates.isEmpty()) {
      return out;
    }
    List<Confirmation> verdicts = candidates.values().stream().map(i -> commands.get(i).verdict()).toList();
    List<LedgerRow> locked;
    try (PreparedStatement ps = c.prepareStatement(LOCK_SETTLEABLE)) {
      ps.setArray(1, column(c, "text", verdicts, Confirmation::messageHash));
      ps.setArray(2, column(c, "text", verdicts, Confirmation::txHash));
      ps.setArray(3, column(c, "text", verdicts, Confirmation::requestId));
      ps.setArray(4, column(c, "text", verdicts, Confirmation::transferId));
      locked = LedgerSql.read(ps, LedgerRows::message);
    }
    if (locked.isEmpty()) {
      return out;
    }
    Map<Long, Confirmation> byId = new HashMap<>();
    for (LedgerRow row : locked) {
      byId.put(row.id(), commands.get(candidates.get(row.messageHash())).verdict());
    }
    List<LedgerRow> confirmed;
    try (PreparedStatement ps = c.prepareStatement(CONFIRM_MESSAGES)) {
      ps.setObject(1, timestamp(now));
      ps.setObject(2, timestamp(now));
      ps.setArray(3, column(c, "int8", locked, LedgerRow::id));
      ps.setArray(4, column(c, "text", locked, r -> byId.get(r.id()).txHash()));
      ps.setArray(5, column(c, "int8", locked, r -> byId.get(r.id()).lt()));
      ps.setArray(6, column(c, "int8", locked, r -> byId.get(r.id()).utime()));
      ps.setArray(7, column(c, "int8", locked, r -> byId.get(r.id()).feeNano()));
      ps.setArray(8, column(c, "timestamptz", locked, r -> Sends.firstOf(sends.get(r.messageHash()))));
      ps.setArray(9, column(c, "int4", locked, r -> Sends.countOf(sends.get(r.messageHash()))));
      confirmed = LedgerSql.read(ps, LedgerRows::message);
    }
    Map<List<String>, TransferRow> settled = new HashMap<>();
    try (PreparedStatement ps = c.prepareStatement(SETTLE_TRANSFERS)) {
      ps.setObject(1, timestamp(now));
      ps.setObject(2, timestamp(now));
      ps.setArray(3, column(c, "text", confirmed, LedgerRow::requestId));
      ps.setArray(4, column(c, "text", confirmed, LedgerRow::transferId));
      ps.setArray(5, column(c, "text", confirmed, LedgerRow::messageHash));
      ps.setArray(6, column(c, "text", confirmed, LedgerRow::txHash));
      for (TransferRow row : LedgerSql.read(ps, LedgerRows::transfer)) {
        settled.put(List.of(row.requestId(), row.transferId()), row);
      }
    }
    if (confirmed.size() != locked.size() || settled.size() != confirmed.size()) {
      // the rows were locked and judged settleable above: anything else is a bug, not a race
      throw new SQLException("settled " + settled.size() + " transfers and " + confirmed.size() + " messages of "
          + locked.size() + " locked");
    }
    for (LedgerRow row : confirmed) {
      out.put(candidates.get(row.messageHash()),
          new VerdictResult.Applied(row, settled.get(List.of(row.requestId(), row.transferId()))));
    }
    return out;
  }

  /**
   * The CONFIRMED verdicts that share no message, transaction or transfer with any other verdict
   * of the batch (those are judged one by one, in order), by message hash to their position.
   */
  private static Map<String, Integer> candidates(List<VerdictCommand> commands) {
    Map<Object, Integer> uses = new HashMap<>();
    for (VerdictCommand command : commands) {
      for (Object key : keys(command.verdict())) {
        uses.merge(key, 1, Integer::sum);
      }
    }
    Map<String, Integer> candidates = new HashMap<>();
    for (int i = 0; i < commands.size(); i++) {
      Confirmation v = commands.get(i).verdict();
      if (v.status() == ConfirmationStatus.CONFIRMED && v.lt() != null && v.txHash() != null
          && isHash(v.messageHash()) && isHash(v.txHash())
          && keys(v).stream().allMatch(k -> uses.get(k) == 1)) {
        candidates.put(v.messageHash(), i);
      }
    }
    return candidates;
  }

  private static Set<Object> keys(Confirmation v) {
    Set<Object> keys = new HashSet<>();
    keys.add(List.of("message", String.valueOf(v.messageHash())));
    keys.add(List.of("transfer", String.valueOf(v.requestId()), String.valueOf(v.transferId())));
    if (v.txHash() != null) {
      keys.add(List.of("tx", v.txHash()));
    }
    return keys;
  }

  /** The ledger's form of a hash (what {@link Checks#hash} accepts unchanged); anything else goes one by one. */
  private static boolean isHash(String value) {
    try {
      return Checks.hash(value, "hash").equals(value);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
