package org.tonpayouts.streams.ledger.audit;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.streams.ledger.sql.Checks;
import org.tonpayouts.streams.ledger.sql.LedgerSql;

/**
 * The audit log ({@code audit_log}): unusual events, written in the same transaction as the
 * ledger change they explain when there is one, and logged at their level.
 */
public final class AuditLog {
  private static final Logger log = LoggerFactory.getLogger(AuditLog.class);

  /** {@code audit_log}'s columns, also what {@link Outbox#audit} publishes. */
  static final String COLUMNS =
      "id, at, level, event, subwallet_id, wallet_address, request_id, transfer_id, seqno, message_hash, tx_hash, detail,"
          + " actor, actor_address, approved_by, approved_by_address";

  private final LedgerSql sql;

  public AuditLog(LedgerSql sql) {
    this.sql = sql;
  }

  /** Records {@code event} on its own. */
  public AuditEvent record(AuditEvent event) {
    Instant now = sql.now();
    return sql.run("record an audit event", c -> insert(c, event, now));
  }

  /** Records {@code event} inside the caller's transaction. */
  public static AuditEvent insert(Connection c, AuditEvent e, Instant now) throws SQLException {
    long id = LedgerSql.query(c, "insert into audit_log (at, level, event, subwallet_id, wallet_address, request_id,"
            + " transfer_id, seqno, message_hash, tx_hash, detail, actor, actor_address, approved_by,"
            + " approved_by_address) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning id",
        rs -> rs.getLong(1), now, e.level().name(), e.event().name(), e.subwalletId(), e.walletAddress(),
        e.requestId(), e.transferId(), e.seqno(), e.messageHash(), e.txHash(), LedgerSql.truncate(e.detail()),
        e.actor() == null ? null : e.actor().name(), e.actor() == null ? null : e.actor().address(),
        e.approver() == null ? null : e.approver().name(), e.approver() == null ? null : e.approver().address()).get(0);
    String line = "audit event={} level={} subwallet={} request={} transfer={} seqno={} hash={} tx={} actor={}"
        + " approver={} detail={}";
    Object[] args = {e.event(), e.level(), e.subwalletId(), e.requestId(), e.transferId(), e.seqno(),
        e.messageHash(), e.txHash(), e.actor() == null ? null : e.actor().describe(),
        e.approver() == null ? null : e.approver().describe(), e.detail()};
    switch (e.level()) {
      case ERROR -> log.error(line, args);
      case WARNING -> log.warn(line, args);
      case INFO -> log.info(line, args);
    }
    return new AuditEvent(id, now, e.level(), e.event(), e.subwalletId(), e.walletAddress(), e.requestId(),
        e.transferId(), e.seqno(), e.messageHash(), e.txHash(), e.detail(), e.actor(), e.approver());
  }

  /** The wallet's audit events, oldest first. */
  public List<AuditEvent> forWallet(String walletAddress) {
    String wallet = Checks.rawAddress(walletAddress, "walletAddress");
    return sql.run("read the audit log of " + wallet, c -> LedgerSql.query(c,
        "select " + COLUMNS + " from audit_log where wallet_address = ? order by at, id", AuditLog::read, wallet));
  }

  /** The request's audit events, oldest first. */
  public List<AuditEvent> forRequest(String requestId) {
    return sql.run("read the audit log of request " + requestId, c -> LedgerSql.query(c,
        "select " + COLUMNS + " from audit_log where request_id = ? order by at, id", AuditLog::read, requestId));
  }

  /** Every event since {@code from} (inclusive), oldest first, at most {@code limit}. */
  public List<AuditEvent> since(Instant from, int limit) {
    return sql.run("read the audit log", c -> LedgerSql.query(c,
        "select " + COLUMNS + " from audit_log where at >= ? order by at, id limit ?", AuditLog::read, from, limit));
  }

  private static AuditEvent read(ResultSet rs) throws SQLException {
    return new AuditEvent(rs.getLong("id"), LedgerSql.instant(rs, "at"),
        AuditEvent.Level.valueOf(rs.getString("level")), AuditEvent.Type.valueOf(rs.getString("event")),
        LedgerSql.nullableLong(rs, "subwallet_id"), rs.getString("wallet_address"), rs.getString("request_id"),
        rs.getString("transfer_id"), LedgerSql.nullableLong(rs, "seqno"), rs.getString("message_hash"),
        rs.getString("tx_hash"), rs.getString("detail"), actor(rs, "actor", "actor_address"),
        actor(rs, "approved_by", "approved_by_address"));
  }

  private static Actor actor(ResultSet rs, String nameColumn, String addressColumn) throws SQLException {
    String name = rs.getString(nameColumn);
    return name == null ? null : new Actor(name, rs.getString(addressColumn));
  }
}
