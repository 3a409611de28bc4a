package org.tonpayouts.streams.ledger.record;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.streams.ledger.audit.AuditEvent.Level;
import org.tonpayouts.streams.ledger.audit.AuditEvent.Type;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.audit.AuditLog;
import org.tonpayouts.streams.ledger.record.VerdictResult.Applied;
import org.tonpayouts.streams.ledger.record.VerdictResult.Contradicted;
import org.tonpayouts.streams.ledger.record.VerdictResult.GaveUp;
import org.tonpayouts.streams.ledger.record.VerdictResult.Repeated;
import org.tonpayouts.streams.ledger.record.VerdictResult.TooEarly;
import org.tonpayouts.streams.ledger.record.VerdictResult.Unknown;
import org.tonpayouts.streams.ledger.sql.Checks;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.LedgerRows;
import org.tonpayouts.streams.ledger.sql.LedgerSql;
import org.tonpayouts.streams.ledger.sql.LedgerStatus;
import org.tonpayouts.streams.ledger.sql.TransferRow;
import org.tonpayouts.streams.ledger.sql.TransferStatus;

/**
 * Moves messages, and with them their transfers, as the chain decides: sent, confirmed, failed,
 * expired, needs reconciliation. Each verdict is one transaction that locks the message and its
 * transfer, so a repeated or concurrent verdict is a no-op, never a second transition.
 *
 * <p>Every message of a transfer carries the transfer's one seqno, so at most one of them can
 * apply: a confirmation of any of them settles the transfer, and one of an EXPIRED message
 * (the node's time said it could not apply any more) overturns that expiry instead of being a
 * double payout. The transfer's other messages still waiting are closed as EXPIRED then: their
 * seqno is used.
 */
public final class MessageTransitions {
  private static final Logger log = LoggerFactory.getLogger(MessageTransitions.class);

  private final LedgerSql sql;
  private final int maxAttempts;
  /** Seconds past valid_until the node's time must show for an expiry (the poller's clock-skew margin). */
  private final long expiryMarginSeconds;

  public MessageTransitions(LedgerSql sql, int maxAttempts, Duration expiryMargin) {
    this.sql = sql;
    this.maxAttempts = maxAttempts;
    this.expiryMarginSeconds = expiryMargin.toSeconds();
  }

  /**
   * Records sends the API acknowledged: {@code send_count} grows by each message's count,
   * {@code sent_at} keeps the first, and a {@code SIGNED} message becomes {@code SENT}. A settled
   * message keeps its status and gets its counts too (an acknowledgement can arrive after the
   * verdict). Most sends never come here: they are recorded with their verdict ({@link
   * VerdictRecorder}), which saves a row version per message.
   *
   * @return how many of the messages the ledger holds
   */
  public int recordSends(Map<String, Sends> sends) {
    if (sends.isEmpty()) {
      return 0;
    }
    Instant now = sql.now();
    int done = sql.run("record sends of " + sends.size() + " messages", c -> recordSendsIn(c, sends, now));
    if (done < sends.size()) {
      log.warn("ledger sends not recorded for unknown messages count={}", sends.size() - done);
    }
    return done;
  }

  static int recordSendsIn(Connection c, Map<String, Sends> sends, Instant now) throws SQLException {
    if (sends.isEmpty()) {
      return 0;
    }
    List<Map.Entry<String, Sends>> rows = List.copyOf(sends.entrySet());
    try (PreparedStatement ps = c.prepareStatement(
        "update ton_transactions m set status = case when m.status = 'SIGNED' then 'SENT' else m.status end,"
            + " updated_at = case when m.status in ('SIGNED', 'SENT') then ? else m.updated_at end,"
            + " sent_at = coalesce(m.sent_at, v.at), send_count = m.send_count + v.n"
            + " from unnest(?::text[], ?::timestamptz[], ?::int4[]) as v(h, at, n) where m.message_hash = v.h")) {
      ps.setObject(1, LedgerSql.timestamp(now));
      ps.setArray(2, LedgerSql.column(c, "text", rows, e -> Checks.hash(e.getKey(), "messageHash")));
      ps.setArray(3, LedgerSql.column(c, "timestamptz", rows, e -> Sends.firstOf(e.getValue())));
      ps.setArray(4, LedgerSql.column(c, "int4", rows, e -> Sends.countOf(e.getValue())));
      return ps.executeUpdate();
    }
  }

  /**
   * Notes a send error on the row without changing its status: a send that failed may still have
   * been delivered, so the message stays watched.
   *
   * @return false when no row has this hash
   */
  public boolean recordError(String messageHash, String error) {
    String hash = Checks.hash(messageHash, "messageHash");
    Instant now = sql.now();
    return sql.run("record an error for message " + hash, c -> LedgerSql.update(c,
        "update ton_transactions set last_error = ?, error_count = error_count + 1, updated_at = ?"
            + " where message_hash = ?",
        LedgerSql.truncate(error == null ? "unknown error" : error), now, hash)) == 1;
  }

  /**
   * A transaction applied the message and sent the transfer: the message CONFIRMED, its transfer
   * SETTLED. From a live message, or from an EXPIRED one (an overturned expiry, audited).
   *
   * @return Applied; Repeated for the same confirmation again; Contradicted when the ledger holds
   *     the message as FAILED or RECONCILIATION_REQUIRED, another message claims the transaction,
   *     or the transfer was decided otherwise; Unknown
   */
  public VerdictResult confirm(String messageHash, String txHash, long lt, Long utime, Long feeNano) {
    String hash = Checks.hash(messageHash, "messageHash");
    String tx = Checks.hash(txHash, "txHash");
    if (lt < 0 || (utime != null && utime < 0) || (feeNano != null && feeNano < 0)) {
      throw new IllegalArgumentException("lt, utime and feeNano must not be negative: lt=" + lt + " utime=" + utime
          + " fee=" + feeNano);
    }
    Instant now = sql.now();
    VerdictResult result = sql.transaction("confirm message " + hash, c -> confirmIn(c, hash, tx, lt, utime, feeNano, now));
    logResult("CONFIRMED", hash, result);
    return result;
  }

  /**
   * A transaction applied the message but sent nothing (its seqno is used): the message and its
   * transfer FAILED.
   */
  public VerdictResult fail(String messageHash, String reason, String txHash, Long lt, Long utime, Long feeNano) {
    String hash = Checks.hash(messageHash, "messageHash");
    String tx = Checks.hashOrNull(txHash, "txHash");
    String why = LedgerSql.truncate(Checks.nonBlank(reason, "reason"));
    Instant now = sql.now();
    VerdictResult result = sql.transaction("fail message " + hash, c -> failIn(c, hash, why, tx, lt, utime, feeNano, now));
    logResult("FAILED", hash, result);
    return result;
  }

  /**
   * The message can never apply: by the API node's own time ({@code evidenceUtime}, its
   * {@code sync_utime}) its {@code valid_until} passed, by the clock-skew margin as the poller
   * requires, while the wallet's seqno had not moved past it. The transfer may get another message, with the same seqno, unless it used all its
   * attempts: then it is FAILED ({@link GaveUp}).
   *
   * @return Applied (a next attempt may be signed), GaveUp, TooEarly when the evidence does not
   *     show {@code valid_until} passed, Repeated when the message is settled already, Unknown
   */
  public VerdictResult expire(String messageHash, long evidenceUtime) {
    String hash = Checks.hash(messageHash, "messageHash");
    Instant now = sql.now();
    VerdictResult result = sql.transaction("expire message " + hash, c -> expireIn(c, hash, evidenceUtime, now));
    logResult("EXPIRED", hash, result);
    return result;
  }

  /**
   * The chain cannot tell whether the transfer was paid (its seqno moved past it without any of
   * its messages): the transfer is RECONCILIATION_REQUIRED, and so is the message unless it is
   * already EXPIRED. No completion is claimed; an operator decides.
   */
  public VerdictResult reconcile(String messageHash, String reason) {
    String hash = Checks.hash(messageHash, "messageHash");
    String why = LedgerSql.truncate(Checks.nonBlank(reason, "reason"));
    Instant now = sql.now();
    VerdictResult result = sql.transaction("flag message " + hash + " for reconciliation", c -> reconcileIn(c, hash, why, now));
    logResult("RECONCILIATION_REQUIRED", hash, result);
    return result;
  }

  VerdictResult confirmIn(Connection c, String hash, String tx, long lt, Long utime, Long feeNano, Instant now)
      throws SQLException {
    LedgerRow row = lockMessage(c, hash);
    if (row == null) {
      return new Unknown(hash);
    }
    TransferRow transfer = lockTransfer(c, row);
    if (row.status() == LedgerStatus.CONFIRMED) {
      return tx.equals(row.txHash()) ? new Repeated(row, transfer)
          : contradicted(c, row, transfer, tx, "confirmed with tx " + row.txHash() + ", reported tx " + tx, now);
    }
    if (row.status() == LedgerStatus.FAILED || row.status() == LedgerStatus.RECONCILIATION_REQUIRED) {
      return contradicted(c, row, transfer, tx, "the ledger holds the message as " + row.status(), now);
    }
    if (!transfer.status().isOpen()) {
      return contradicted(c, row, transfer, tx, "the transfer is already " + transfer.status(), now);
    }
    List<Long> claimed = LedgerSql.query(c, "select id from ton_transactions where tx_hash = ? and status = 'CONFIRMED'",
        rs -> rs.getLong(1), tx);
    if (!claimed.isEmpty()) {
      return contradicted(c, row, transfer, tx, "transaction " + tx + " already confirms another message", now);
    }
    supersedeOthers(c, row, now);
    LedgerRow confirmed = LedgerSql.query(c, "update ton_transactions set status = 'CONFIRMED', tx_hash = ?, lt = ?,"
            + " utime = ?, fee_nano = ?, updated_at = ?, settled_at = ? where id = ? returning "
            + LedgerRows.MESSAGE_COLUMNS,
        LedgerRows::message, tx, lt, utime, feeNano, now, now, row.id()).get(0);
    TransferRow settled = settleTransfer(c, transfer, TransferStatus.SETTLED, null, hash, tx, now);
    if (row.status() == LedgerStatus.EXPIRED) {
      AuditLog.insert(c, AuditEvent.about(confirmed, Level.WARNING, Type.EXPIRY_OVERTURNED, tx,
          "message judged expired (node time " + row.evidenceUtime() + ") applied after all in tx " + tx
              + "; the transfer is paid once: all its messages carry seqno " + row.seqno()), now);
    }
    return new Applied(confirmed, settled);
  }

  VerdictResult failIn(Connection c, String hash, String why, String tx, Long lt, Long utime, Long feeNano, Instant now)
      throws SQLException {
    LedgerRow row = lockMessage(c, hash);
    if (row == null) {
      return new Unknown(hash);
    }
    TransferRow transfer = lockTransfer(c, row);
    if (row.status() == LedgerStatus.FAILED) {
      return new Repeated(row, transfer);
    }
    if (row.status() == LedgerStatus.CONFIRMED || row.status() == LedgerStatus.RECONCILIATION_REQUIRED) {
      return contradicted(c, row, transfer, tx, "the ledger holds the message as " + row.status(), now);
    }
    if (!transfer.status().isOpen()) {
      return contradicted(c, row, transfer, tx, "the transfer is already " + transfer.status(), now);
    }
    supersedeOthers(c, row, now);
    LedgerRow failed = LedgerSql.query(c, "update ton_transactions set status = 'FAILED', last_error = ?, tx_hash = ?,"
            + " lt = ?, utime = ?, fee_nano = ?, updated_at = ?, settled_at = ? where id = ? returning "
            + LedgerRows.MESSAGE_COLUMNS,
        LedgerRows::message, why, tx, lt, utime, feeNano, now, now, row.id()).get(0);
    return new Applied(failed, settleTransfer(c, transfer, TransferStatus.FAILED, why, hash, tx, now));
  }

  VerdictResult expireIn(Connection c, String hash, long evidenceUtime, Instant now) throws SQLException {
    LedgerRow row = lockMessage(c, hash);
    if (row == null) {
      return new Unknown(hash);
    }
    TransferRow transfer = lockTransfer(c, row);
    if (!row.status().isLive()) {
      return new Repeated(row, transfer);
    }
    // The wallet refuses a message once valid_until <= now (exit code 36), "now" being the block's
    // time; the evidence must show the margin the poller waits for too, whoever sent the verdict.
    if (evidenceUtime < row.validUntil().getEpochSecond() + expiryMarginSeconds) {
      return new TooEarly(row, evidenceUtime);
    }
    LedgerRow expired = LedgerSql.query(c, "update ton_transactions set status = 'EXPIRED', evidence_utime = ?,"
            + " updated_at = ?, settled_at = ? where id = ? returning " + LedgerRows.MESSAGE_COLUMNS,
        LedgerRows::message, evidenceUtime, now, now, row.id()).get(0);
    if (transfer.status().isOpen() && transfer.attempts() >= maxAttempts) {
      String why = "gave up after " + transfer.attempts() + " attempts: every message expired unapplied (seqno "
          + row.seqno() + ", last valid_until " + row.validUntil().getEpochSecond() + ", node time " + evidenceUtime
          + "); the wallet may be underfunded or the API unreachable";
      TransferRow failed = settleTransfer(c, transfer, TransferStatus.FAILED, why, null, null, now);
      AuditLog.insert(c, AuditEvent.about(failed, Level.WARNING, Type.TRANSFER_GIVEN_UP, why), now);
      return new GaveUp(expired, failed);
    }
    return new Applied(expired, transfer);
  }

  VerdictResult reconcileIn(Connection c, String hash, String why, Instant now) throws SQLException {
    LedgerRow row = lockMessage(c, hash);
    if (row == null) {
      return new Unknown(hash);
    }
    TransferRow transfer = lockTransfer(c, row);
    if (!transfer.status().isOpen()) {
      return new Repeated(row, transfer);
    }
    LedgerRow flagged = row;
    if (row.status().isLive()) {
      flagged = LedgerSql.query(c, "update ton_transactions set status = 'RECONCILIATION_REQUIRED', last_error = ?,"
              + " updated_at = ?, settled_at = ? where id = ? returning " + LedgerRows.MESSAGE_COLUMNS,
          LedgerRows::message, why, now, now, row.id()).get(0);
    }
    TransferRow open = settleTransfer(c, transfer, TransferStatus.RECONCILIATION_REQUIRED, why, null, null, now);
    AuditLog.insert(c, AuditEvent.about(flagged, Level.ERROR, Type.RECONCILIATION_REQUIRED, null, why), now);
    return new Applied(flagged, open);
  }

  /** The message with this hash, if the ledger holds it (not locked). */
  Optional<LedgerRow> messageIn(Connection c, String hash) throws SQLException {
    return LedgerSql.query(c, "select " + LedgerRows.MESSAGE_COLUMNS + " from ton_transactions where message_hash = ?",
        LedgerRows::message, hash).stream().findFirst();
  }

  /** The hash of the transfer's newest message, if the ledger holds any. */
  Optional<String> newestMessageIn(Connection c, String requestId, String transferId) throws SQLException {
    return LedgerSql.query(c, "select message_hash from ton_transactions where request_id = ? and transfer_id = ?"
        + " order by attempt desc, id desc limit 1", rs -> rs.getString(1), requestId, transferId).stream().findFirst();
  }

  private static LedgerRow lockMessage(Connection c, String hash) throws SQLException {
    List<LedgerRow> rows = LedgerSql.query(c, "select " + LedgerRows.MESSAGE_COLUMNS
        + " from ton_transactions where message_hash = ? for update", LedgerRows::message, hash);
    return rows.isEmpty() ? null : rows.get(0);
  }

  private static TransferRow lockTransfer(Connection c, LedgerRow row) throws SQLException {
    return LedgerSql.query(c, "select " + LedgerRows.TRANSFER_COLUMNS
            + " from payout_transfers where request_id = ? and transfer_id = ? for update", LedgerRows::transfer,
        row.requestId(), row.transferId()).get(0);
  }

  /** Closes the transfer's other live messages: the seqno they carry is used by {@code applied}. */
  private static void supersedeOthers(Connection c, LedgerRow applied, Instant now) throws SQLException {
    LedgerSql.update(c, "update ton_transactions set status = 'EXPIRED', last_error = ?, updated_at = ?, settled_at = ?"
            + " where request_id = ? and transfer_id = ? and id <> ? and status in ('SIGNED', 'SENT')",
        "superseded: message " + applied.messageHash() + " of the same transfer used seqno " + applied.seqno(),
        now, now, applied.requestId(), applied.transferId(), applied.id());
  }

  static TransferRow settleTransfer(Connection c, TransferRow transfer, TransferStatus to, String reason,
      String messageHash, String txHash, Instant now) throws SQLException {
    return LedgerSql.query(c, "update payout_transfers set status = ?, reason = ?, message_hash = coalesce(?, message_hash),"
            + " tx_hash = coalesce(?, tx_hash), updated_at = ?, settled_at = ? where request_id = ? and transfer_id = ?"
            + " returning " + LedgerRows.TRANSFER_COLUMNS,
        LedgerRows::transfer, to.name(), reason, messageHash, txHash, now, now, transfer.requestId(),
        transfer.transferId()).get(0);
  }

  private static Contradicted contradicted(Connection c, LedgerRow row, TransferRow transfer, String tx, String why,
      Instant now) throws SQLException {
    AuditLog.insert(c, AuditEvent.about(row, Level.ERROR, Type.LEDGER_CONFLICT, tx, why), now);
    return new Contradicted(row, transfer, why);
  }

  static void logResult(String verdict, String hash, VerdictResult result) {
    if (result instanceof Applied a) {
      log.info("ledger verdict={} applied subwallet={} request={} transfer={} attempt={} seqno={} hash={} transfer_status={}",
          verdict, a.message().subwalletId(), a.message().requestId(), a.message().transferId(), a.message().attempt(),
          a.message().seqno(), hash, a.transfer().status());
    } else if (result instanceof GaveUp g) {
      log.warn("ledger verdict={} transfer given up subwallet={} request={} transfer={} attempts={} seqno={} hash={}",
          verdict, g.transfer().subwalletId(), g.transfer().requestId(), g.transfer().transferId(),
          g.transfer().attempts(), g.transfer().seqno(), hash);
    } else if (result instanceof Contradicted x) {
      log.error("ledger verdict={} contradicts the ledger subwallet={} request={} transfer={} hash={} why={}",
          verdict, x.message().subwalletId(), x.message().requestId(), x.message().transferId(), hash, x.why());
    } else if (result instanceof TooEarly t) {
      log.warn("ledger verdict={} refused: node time {} is before valid_until {} hash={}", verdict, t.evidenceUtime(),
          t.message().validUntil().getEpochSecond(), hash);
    } else if (result instanceof VerdictResult.OtherTransfer o) {
      log.error("ledger verdict={} refused: it names another transfer's message hash={} why={}", verdict, hash,
          o.why());
    } else if (result instanceof Unknown) {
      log.warn("ledger verdict={} for an unknown message hash={}", verdict, hash);
    } else {
      log.debug("ledger verdict={} repeated hash={}", verdict, hash);
    }
  }
}
