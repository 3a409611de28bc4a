package org.tonpayouts.streams.ledger.record;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.streams.ledger.audit.AuditEvent.Level;
import org.tonpayouts.streams.ledger.audit.AuditEvent.Type;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.audit.AuditLog;
import org.tonpayouts.streams.ledger.record.TransferDecision.AlreadyDecided;
import org.tonpayouts.streams.ledger.record.TransferDecision.Conflict;
import org.tonpayouts.streams.ledger.record.TransferDecision.Decided;
import org.tonpayouts.streams.ledger.record.TransferDecision.Refused;
import org.tonpayouts.streams.ledger.sql.Checks;
import org.tonpayouts.streams.ledger.sql.LedgerRows;
import org.tonpayouts.streams.ledger.sql.LedgerSql;
import org.tonpayouts.streams.ledger.sql.TransferRow;
import org.tonpayouts.streams.ledger.sql.TransferStatus;

/**
 * Transfer outcomes that are not a verdict on a message: a transfer failed before anything was
 * signed for it (the wallet cannot pay it), the rest of a request aborted, a payout that bounced
 * back. Each is one transaction; a request is registered on its first write.
 */
public final class TransferBook {
  private static final Logger log = LoggerFactory.getLogger(TransferBook.class);

  private final LedgerSql sql;

  public TransferBook(LedgerSql sql) {
    this.sql = sql;
  }

  /**
   * Fails the transfer without signing (anything more): e.g. the wallet's balance cannot pay it.
   * Allowed while the transfer is OPEN and none of its messages may still apply; earlier attempts,
   * if any, all provably expired, so its seqno is released for the next transfer.
   */
  public TransferDecision failBeforeSigning(PayoutRequest request, String origin, String walletAddress,
      int transferIndex, String reason) {
    String wallet = Checks.rawAddress(walletAddress, "walletAddress");
    String why = LedgerSql.truncate(Checks.nonBlank(reason, "reason"));
    String transferId = request.transfer(transferIndex).transferId();
    Instant now = sql.now();
    TransferDecision decision = sql.transaction("fail transfer " + request.requestId() + "/" + transferId, c -> {
      Map<String, RequestConflict> conflicts =
          RequestRegistry.register(c, List.of(new RequestRegistry.Registration(request, wallet, origin)), now);
      if (!conflicts.isEmpty()) {
        return new Conflict(conflicts.get(request.requestId()));
      }
      TransferRow transfer = LedgerSql.query(c, "select " + LedgerRows.TRANSFER_COLUMNS + " from payout_transfers"
          + " where request_id = ? and transfer_id = ? for update", LedgerRows::transfer, request.requestId(),
          transferId).get(0);
      if (!transfer.status().isOpen()) {
        return new AlreadyDecided(transfer);
      }
      long live = LedgerSql.query(c, "select count(*) from ton_transactions where request_id = ? and transfer_id = ?"
          + " and status in ('SIGNED', 'SENT')", rs -> rs.getLong(1), request.requestId(), transferId).get(0);
      if (live > 0) {
        return new Refused("a message of the transfer may still apply");
      }
      TransferRow failed = MessageTransitions.settleTransfer(c, transfer, TransferStatus.FAILED, why, null, null, now);
      AuditLog.insert(c, AuditEvent.about(failed, Level.WARNING, Type.TRANSFER_REFUSED, why), now);
      return new Decided(failed);
    });
    log.info("ledger transfer failed before signing request={} transfer={} decision={} reason={}",
        request.requestId(), transferId, decision.getClass().getSimpleName(), why);
    return decision;
  }

  /**
   * Aborts the request's transfers from {@code fromIndex} on that were never attempted (an
   * earlier transfer did not settle). Transfers of a request the ledger never saw are registered
   * first, so a request's lifecycle is complete in the ledger.
   *
   * @return the transfers aborted now
   */
  public List<TransferRow> abortRest(PayoutRequest request, String origin, String walletAddress, int fromIndex,
      String reason) {
    String wallet = Checks.rawAddress(walletAddress, "walletAddress");
    String why = LedgerSql.truncate(Checks.nonBlank(reason, "reason"));
    Instant now = sql.now();
    if (fromIndex >= request.transfers().size()) {
      return List.of();
    }
    return sql.transaction("abort transfers of " + request.requestId(),
        c -> abortRestIn(c, request, origin, wallet, fromIndex, why, now));
  }

  /** {@link #abortRest} inside the caller's transaction. */
  List<TransferRow> abortRestIn(Connection c, PayoutRequest request, String origin, String wallet, int fromIndex,
      String why, Instant now) throws SQLException {
    if (fromIndex >= request.transfers().size()) {
      return List.of();
    }
    if (!RequestRegistry.register(c, List.of(new RequestRegistry.Registration(request, wallet, origin)), now)
        .isEmpty()) {
      return List.of(); // the id belongs to another request: nothing of this one is recorded
    }
    return LedgerSql.query(c, "update payout_transfers set status = 'ABORTED', reason = ?, updated_at = ?,"
            + " settled_at = ? where request_id = ? and transfer_index >= ? and status = 'OPEN' and seqno is null"
            + " returning " + LedgerRows.TRANSFER_COLUMNS,
        LedgerRows::transfer, why, now, now, request.requestId(), fromIndex);
  }

  /** {@link #recordBounce} inside the caller's transaction. */
  TransferDecision recordBounceIn(Connection c, String requestId, String transferId, String tx, long returnedNano,
      String detail, Instant now) throws SQLException {
    List<TransferRow> rows = LedgerSql.query(c, "select " + LedgerRows.TRANSFER_COLUMNS + " from payout_transfers"
        + " where request_id = ? and transfer_id = ? for update", LedgerRows::transfer, requestId, transferId);
    if (rows.isEmpty()) {
      return new Refused("no such transfer");
    }
    TransferRow transfer = rows.get(0);
    if (transfer.bounceTxHash() != null) {
      return new AlreadyDecided(transfer);
    }
    if (transfer.status() != TransferStatus.SETTLED) {
      return new Refused("the transfer is " + transfer.status() + ", not SETTLED");
    }
    List<TransferRow> holder = LedgerSql.query(c, "select " + LedgerRows.TRANSFER_COLUMNS + " from payout_transfers"
        + " where bounce_tx_hash = ?", LedgerRows::transfer, tx);
    if (!holder.isEmpty()) {
      // a bounce returns one payout (payout_transfers_bounce_tx): never credit it to a second one
      String why = "bounce " + tx + " is credited to transfer " + holder.get(0).requestId() + "/"
          + holder.get(0).transferId() + " already; not credited to this one";
      AuditLog.insert(c, AuditEvent.about(transfer, Level.ERROR, Type.LEDGER_CONFLICT, why), now);
      return new Refused(why);
    }
    TransferRow bounced = LedgerSql.query(c, "update payout_transfers set bounce_tx_hash = ?, returned_nano = ?,"
            + " bounced_at = ?, updated_at = ? where request_id = ? and transfer_id = ? returning "
            + LedgerRows.TRANSFER_COLUMNS,
        LedgerRows::transfer, tx, returnedNano, now, now, requestId, transferId).get(0);
    AuditLog.insert(c, new AuditEvent(0, null, Level.WARNING, Type.BOUNCE, bounced.subwalletId(),
        bounced.walletAddress(), requestId, transferId, bounced.seqno(), bounced.messageHash(), tx,
        detail == null ? "payout bounced back: " + returnedNano + " nanotons returned" : detail), now);
    return new Decided(bounced);
  }

  /**
   * Records that a SETTLED payout bounced back ({@code bounceTxHash} received {@code
   * returnedNano}), with an audit event. The transfer stays SETTLED: it was paid, and came back.
   */
  public TransferDecision recordBounce(String requestId, String transferId, String bounceTxHash, long returnedNano,
      String detail) {
    String tx = Checks.hash(bounceTxHash, "bounceTxHash");
    Instant now = sql.now();
    TransferDecision decision = sql.transaction("record a bounce of " + requestId + "/" + transferId,
        c -> recordBounceIn(c, requestId, transferId, tx, returnedNano, detail, now));
    log.info("ledger bounce request={} transfer={} tx={} returned={} decision={}", requestId, transferId, tx,
        returnedNano, decision.getClass().getSimpleName());
    return decision;
  }
}
