package org.tonpayouts.streams.ledger.record;

import static org.tonpayouts.streams.ledger.sql.LedgerSql.column;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.tonpayouts.schemas.Json;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.RequestContent;
import org.tonpayouts.streams.ledger.sql.Checks;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.LedgerRows;
import org.tonpayouts.streams.ledger.sql.LedgerSql;
import org.tonpayouts.streams.ledger.sql.TransferRow;

/** Reads of the ledger: transfer histories for issuing rounds, single messages, and wallet figures. */
public final class LedgerQueries {
  private final LedgerSql sql;

  public LedgerQueries(LedgerSql sql) {
    this.sql = sql;
  }

  /** A transfer named by its request and index: what an issuing round asks about. */
  public record TransferRef(PayoutRequest request, int transferIndex) {
    public String requestId() {
      return request.requestId();
    }

    public String transferId() {
      return request.transfer(transferIndex).transferId();
    }
  }

  /**
   * The histories of many transfers in one connection and three statements, whatever their
   * number: requests (for id conflicts), transfers, and their messages.
   */
  public Map<TransferRef, TransferHistory> histories(List<TransferRef> refs) {
    if (refs.isEmpty()) {
      return Map.of();
    }
    // distinct transfers: two copies of a request (or a reused id) must not double the rows
    List<TransferRef> keys = new ArrayList<>(refs.stream()
        .collect(java.util.stream.Collectors.toMap(r -> List.of(r.requestId(), r.transferId()), r -> r, (a, b) -> a,
            java.util.LinkedHashMap::new)).values());
    return sql.run("read " + refs.size() + " transfer histories", c -> {
      Map<String, String[]> requests = new HashMap<>();
      for (String[] row : LedgerSql.query(c, "select request_id, fingerprint, content::text, origin from payout_requests"
              + " where request_id = any(?)",
          rs -> new String[] {rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)},
          (Object) c.createArrayOf("text", refs.stream().map(TransferRef::requestId).distinct().toArray()))) {
        requests.put(row[0], row);
      }
      Map<List<String>, TransferRow> transfers = new HashMap<>();
      Map<List<String>, List<LedgerRow>> messages = new HashMap<>();
      try (PreparedStatement ps = c.prepareStatement("select " + LedgerRows.TRANSFER_COLUMNS + " from payout_transfers"
          + " join unnest(?::text[], ?::text[]) as k(request_id, transfer_id) using (request_id, transfer_id)")) {
        ps.setArray(1, column(c, "text", keys, TransferRef::requestId));
        ps.setArray(2, column(c, "text", keys, TransferRef::transferId));
        for (TransferRow row : LedgerSql.read(ps, LedgerRows::transfer)) {
          transfers.put(List.of(row.requestId(), row.transferId()), row);
        }
      }
      try (PreparedStatement ps = c.prepareStatement("select " + LedgerRows.MESSAGE_COLUMNS + " from ton_transactions"
          + " join unnest(?::text[], ?::text[]) as k(request_id, transfer_id) using (request_id, transfer_id)"
          + " order by attempt, id")) {
        ps.setArray(1, column(c, "text", keys, TransferRef::requestId));
        ps.setArray(2, column(c, "text", keys, TransferRef::transferId));
        for (LedgerRow row : LedgerSql.read(ps, LedgerRows::message)) {
          messages.computeIfAbsent(List.of(row.requestId(), row.transferId()), k -> new ArrayList<>()).add(row);
        }
      }
      Map<TransferRef, TransferHistory> out = new HashMap<>();
      for (TransferRef ref : refs) {
        List<String> key = List.of(ref.requestId(), ref.transferId());
        String[] request = requests.get(ref.requestId());
        out.put(ref, new TransferHistory(conflict(ref.request(), request), request == null ? null : request[3],
            transfers.get(key), messages.getOrDefault(key, List.of())));
      }
      return out;
    });
  }

  private static RequestConflict conflict(PayoutRequest ours, String[] recorded) {
    if (recorded == null || recorded[1] == null || recorded[1].equals(RequestContent.fingerprint(ours))) {
      return null;
    }
    try {
      PayoutRequest first = Json.mapper().readValue(recorded[2], PayoutRequest.class);
      return new RequestConflict(ours.requestId(), first, RequestContent.differences(first, ours));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("the ledger holds a request it cannot read back: " + e.getMessage(), e);
    }
  }

  public Optional<LedgerRow> findByMessageHash(String messageHash) {
    String hash = Checks.hash(messageHash, "messageHash");
    return sql.run("find message " + hash, c -> LedgerSql.query(c, "select " + LedgerRows.MESSAGE_COLUMNS
        + " from ton_transactions where message_hash = ?", LedgerRows::message, hash)).stream().findFirst();
  }

  /** Every message signed for the transfer, oldest attempt first. */
  public List<LedgerRow> attempts(String requestId, String transferId) {
    return sql.run("read the attempts of " + requestId + "/" + transferId, c -> LedgerSql.query(c,
        "select " + LedgerRows.MESSAGE_COLUMNS + " from ton_transactions where request_id = ? and transfer_id = ?"
            + " order by attempt, id", LedgerRows::message, requestId, transferId));
  }

  public Optional<TransferRow> transfer(String requestId, String transferId) {
    return sql.run("read transfer " + requestId + "/" + transferId, c -> LedgerSql.query(c,
        "select " + LedgerRows.TRANSFER_COLUMNS + " from payout_transfers where request_id = ? and transfer_id = ?",
        LedgerRows::transfer, requestId, transferId)).stream().findFirst();
  }

  /** The request's transfers in order; empty when the ledger never saw it. */
  public List<TransferRow> transfersOf(String requestId) {
    return sql.run("read the transfers of " + requestId, c -> LedgerSql.query(c,
        "select " + LedgerRows.TRANSFER_COLUMNS + " from payout_transfers where request_id = ? order by transfer_index",
        LedgerRows::transfer, requestId));
  }

  /**
   * The highest seqno the wallet is known to have used for one of our messages: CONFIRMED or
   * FAILED (both applied on chain). The stale-read guard's floor: a fresh read must be above it.
   */
  public Optional<Long> highestAppliedSeqno(String walletAddress) {
    String wallet = Checks.rawAddress(walletAddress, "walletAddress");
    return Optional.ofNullable(sql.run("read the highest seqno of " + wallet, c -> LedgerSql.query(c,
        "select max(seqno) from ton_transactions where wallet_address = ? and status in ('CONFIRMED', 'FAILED')",
        rs -> LedgerSql.nullableLong(rs, "max"), wallet).get(0)));
  }

  /** {@link #highestAppliedSeqno} of many wallets in one statement; wallets without one are absent. */
  public Map<String, Long> highestAppliedSeqnos(List<String> walletAddresses) {
    if (walletAddresses.isEmpty()) {
      return Map.of();
    }
    List<String> wallets = walletAddresses.stream().map(w -> Checks.rawAddress(w, "walletAddress")).distinct().toList();
    Map<String, Long> out = new HashMap<>();
    sql.run("read the highest seqnos of " + wallets.size() + " wallets", c -> LedgerSql.query(c,
        "select wallet_address, max(seqno) from ton_transactions where wallet_address = any(?)"
            + " and status in ('CONFIRMED', 'FAILED') group by wallet_address",
        rs -> out.put(rs.getString(1), rs.getLong(2)), (Object) c.createArrayOf("text", wallets.toArray())));
    return out;
  }

  /** Messages still waiting for the chain (SIGNED or SENT), by wallet and seqno: for recovery and audits. */
  public List<LedgerRow> unsettled() {
    return sql.run("read unsettled messages", c -> LedgerSql.query(c, "select " + LedgerRows.MESSAGE_COLUMNS
        + " from ton_transactions where status in ('SIGNED', 'SENT') order by wallet_address, seqno, id",
        LedgerRows::message));
  }
}
