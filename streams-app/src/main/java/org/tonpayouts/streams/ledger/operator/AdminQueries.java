package org.tonpayouts.streams.ledger.operator;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.audit.AuditLog;
import org.tonpayouts.streams.ledger.audit.PendingSettlement;
import org.tonpayouts.streams.ledger.sql.Checks;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.LedgerRows;
import org.tonpayouts.streams.ledger.sql.LedgerSql;
import org.tonpayouts.streams.ledger.sql.TransferRow;

/**
 * The ledger's reads for operators (the admin API): a request's whole lifecycle, and the transfers
 * waiting for a reconciliation with their evidence. Each read is one connection, and none locks.
 */
public final class AdminQueries {
  private final LedgerSql sql;
  private final AuditLog audit;

  public AdminQueries(LedgerSql sql, AuditLog audit) {
    this.sql = sql;
    this.audit = audit;
  }

  /** The {@code payout_requests} row: when and where the ledger first saw the request. */
  public record RequestRow(String requestId, long subwalletId, int transferCount, String origin, Instant createdAt) {}

  /** One transfer with every message signed for it (oldest attempt first) and its resolution settlements. */
  public record TransferLifecycle(TransferRow transfer, List<LedgerRow> attempts,
                                  List<PendingSettlement> resolutions) {}

  /** A request as the ledger knows it: its row, its transfers in order and its audit events. */
  public record RequestLifecycle(RequestRow request, List<TransferLifecycle> transfers, List<AuditEvent> audit) {}

  /** A transfer an operator must decide, with what the ledger knows about it. */
  public record Reconciliation(TransferRow transfer, List<LedgerRow> attempts, List<AuditEvent> audit) {}

  /** The request's lifecycle; empty when the ledger never saw the request. */
  public Optional<RequestLifecycle> lifecycle(String requestId) {
    Checks.nonBlank(requestId, "requestId");
    return sql.run("read the lifecycle of request " + requestId, c -> {
      List<RequestRow> requests = LedgerSql.query(c, "select request_id, subwallet_id, transfer_count, origin,"
              + " created_at from payout_requests where request_id = ?",
          rs -> new RequestRow(rs.getString(1), rs.getLong(2), rs.getInt(3), rs.getString(4),
              LedgerSql.instant(rs, "created_at")), requestId);
      if (requests.isEmpty()) {
        return Optional.empty();
      }
      List<TransferRow> transfers = LedgerSql.query(c, "select " + LedgerRows.TRANSFER_COLUMNS
          + " from payout_transfers where request_id = ? order by transfer_index", LedgerRows::transfer, requestId);
      Map<String, List<LedgerRow>> attempts = groupByTransfer(LedgerSql.query(c, "select "
          + LedgerRows.MESSAGE_COLUMNS + " from ton_transactions where request_id = ? order by attempt, id",
          LedgerRows::message, requestId), LedgerRow::transferId);
      Map<String, List<PendingSettlement>> resolutions = groupByTransfer(LedgerSql.query(c, "select "
          + PendingSettlement.COLUMNS + " from settlement_outbox where request_id = ? order by id",
          PendingSettlement::read, requestId), p -> p.settlement().transferId());
      List<TransferLifecycle> lifecycles = transfers.stream().map(t -> new TransferLifecycle(t,
          attempts.getOrDefault(t.transferId(), List.of()), resolutions.getOrDefault(t.transferId(), List.of())))
          .toList();
      return Optional.of(new RequestLifecycle(requests.get(0), lifecycles, audit.forRequest(requestId)));
    });
  }

  /** Transfers in RECONCILIATION_REQUIRED, oldest first, at most {@code limit}, each with its evidence. */
  public List<Reconciliation> reconciliationRequired(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, got " + limit);
    }
    return sql.run("read the transfers waiting for a reconciliation", c -> {
      List<TransferRow> transfers = LedgerSql.query(c, "select " + LedgerRows.TRANSFER_COLUMNS
          + " from payout_transfers where status = 'RECONCILIATION_REQUIRED' order by updated_at, request_id,"
          + " transfer_index limit ?", LedgerRows::transfer, limit);
      List<Reconciliation> out = new ArrayList<>();
      for (TransferRow t : transfers) {
        List<LedgerRow> attempts = LedgerSql.query(c, "select " + LedgerRows.MESSAGE_COLUMNS + " from ton_transactions"
                + " where request_id = ? and transfer_id = ? order by attempt, id", LedgerRows::message,
            t.requestId(), t.transferId());
        List<AuditEvent> events = audit.forRequest(t.requestId()).stream()
            .filter(e -> e.transferId() == null || e.transferId().equals(t.transferId())).toList();
        out.add(new Reconciliation(t, attempts, events));
      }
      return out;
    });
  }

  private static <T> Map<String, List<T>> groupByTransfer(List<T> rows, java.util.function.Function<T, String> key) {
    Map<String, List<T>> out = new LinkedHashMap<>();
    rows.forEach(r -> out.computeIfAbsent(key.apply(r), k -> new ArrayList<>()).add(r));
    return out;
  }
}
