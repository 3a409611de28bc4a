package org.tonpayouts.streams.ledger.record;

import static org.tonpayouts.streams.ledger.sql.LedgerSql.column;
import static org.tonpayouts.streams.ledger.sql.LedgerSql.timestamp;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tonpayouts.schemas.Json;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.RequestContent;
import org.tonpayouts.streams.ledger.sql.LedgerSql;

/**
 * Registers payout requests and their transfers in the ledger, inside the caller's transaction,
 * the first time anything is recorded for them: a requestId is unique across the deployment, and
 * the first content recorded for it is the one it pays (global idempotency).
 */
public final class RequestRegistry {
  private RequestRegistry() {}

  private static final String INSERT_REQUESTS =
      "insert into payout_requests (request_id, subwallet_id, fingerprint, content, origin, transfer_count, created_at)"
          + " select r, sw, fp, c::jsonb, o, n, ?"
          + " from unnest(?::text[], ?::int8[], ?::text[], ?::text[], ?::text[], ?::int4[])"
          + " as u(r, sw, fp, c, o, n) on conflict (request_id) do nothing";

  private static final String INSERT_TRANSFERS =
      "insert into payout_transfers (request_id, transfer_id, transfer_index, kind, subwallet_id, wallet_address,"
          + " destination, amount_nano, requested_at, status, created_at, updated_at, jetton_master, jetton_amount,"
          + " jetton_query_id)"
          + " select r, t, i, k, sw, w, d, a, to_timestamp(ra / 1000.0), 'OPEN', ?, ?, jm, ja::numeric, jq"
          + " from unnest(?::text[], ?::text[], ?::int4[], ?::text[], ?::int8[], ?::text[], ?::text[], ?::int8[],"
          + " ?::int8[], ?::text[], ?::text[], ?::int8[]) as u(r, t, i, k, sw, w, d, a, ra, jm, ja, jq)"
          + " on conflict do nothing";

  /**
   * A request to register: the request, its paying wallet (raw address) and where it was read
   * from ({@code topic-partition@offset}, or any stable text naming this copy of it).
   */
  record Registration(PayoutRequest request, String walletAddress, String origin) {}

  /**
   * Registers every request (with all its transfers, OPEN) that the ledger does not know yet.
   *
   * @return the requests whose id the ledger already holds with other content, by id
   */
  static Map<String, RequestConflict> register(Connection c, Collection<Registration> registrations, Instant now)
      throws SQLException {
    if (registrations.isEmpty()) {
      return Map.of();
    }
    Map<String, PayoutRequest> byId = new LinkedHashMap<>();
    Map<String, Registration> registrationById = new HashMap<>();
    for (Registration r : registrations) {
      byId.putIfAbsent(r.request().requestId(), r.request());
      registrationById.putIfAbsent(r.request().requestId(), r);
    }
    Collection<PayoutRequest> distinct = byId.values();
    try (PreparedStatement ps = c.prepareStatement(INSERT_REQUESTS)) {
      ps.setObject(1, timestamp(now));
      ps.setArray(2, column(c, "text", distinct, PayoutRequest::requestId));
      ps.setArray(3, column(c, "int8", distinct, PayoutRequest::subwalletId));
      ps.setArray(4, column(c, "text", distinct, RequestContent::fingerprint));
      ps.setArray(5, column(c, "text", distinct, RequestRegistry::json));
      ps.setArray(6, column(c, "text", distinct, r -> registrationById.get(r.requestId()).origin()));
      ps.setArray(7, column(c, "int4", distinct, r -> r.transfers().size()));
      ps.executeUpdate();
    }
    Map<String, RequestConflict> conflicts = conflicts(c, byId);
    List<Object[]> transfers = new ArrayList<>();
    for (PayoutRequest request : distinct) {
      if (conflicts.containsKey(request.requestId())) {
        continue;
      }
      for (int i = 0; i < request.transfers().size(); i++) {
        var t = request.transfer(i);
        transfers.add(new Object[] {request.requestId(), t.transferId(), i, t.kind().name(), request.subwalletId(),
            registrationById.get(request.requestId()).walletAddress(), t.destination(), t.amountNano(),
            request.createdAt().toEpochMilli(),
            // a jetton transfer's query_id is recorded here, with the first intent of its request
            t.paysJetton() ? TonAddress.parse(t.jetton().master()).toRaw() : null,
            t.paysJetton() ? t.jetton().amount().toString() : null,
            t.paysJetton() ? request.jettonQueryId(i) : null});
      }
    }
    if (!transfers.isEmpty()) {
      try (PreparedStatement ps = c.prepareStatement(INSERT_TRANSFERS)) {
        ps.setObject(1, timestamp(now));
        ps.setObject(2, timestamp(now));
        String[] types = {"text", "text", "int4", "text", "int8", "text", "text", "int8", "int8", "text", "text", "int8"};
        for (int f = 0; f < types.length; f++) {
          int field = f;
          ps.setArray(3 + f, column(c, types[f], transfers, row -> row[field]));
        }
        ps.executeUpdate();
      }
    }
    return conflicts;
  }

  /** The registered requests whose recorded fingerprint differs from the one at hand. */
  private static Map<String, RequestConflict> conflicts(Connection c, Map<String, PayoutRequest> byId)
      throws SQLException {
    Map<String, RequestConflict> conflicts = new HashMap<>();
    List<String[]> recorded = LedgerSql.query(c,
        "select request_id, fingerprint, content::text as content from payout_requests where request_id = any(?)",
        rs -> new String[] {rs.getString("request_id"), rs.getString("fingerprint"), rs.getString("content")},
        (Object) c.createArrayOf("text", byId.keySet().toArray()));
    for (String[] row : recorded) {
      PayoutRequest ours = byId.get(row[0]);
      if (row[1] == null || row[1].equals(RequestContent.fingerprint(ours))) {
        continue; // same content (or recorded before fingerprints existed)
      }
      PayoutRequest first = parse(row[2]);
      conflicts.put(row[0], new RequestConflict(row[0], first, RequestContent.differences(first, ours)));
    }
    return conflicts;
  }

  static String json(PayoutRequest request) {
    try {
      return Json.mapper().writeValueAsString(request);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write request " + request.requestId() + " as JSON", e);
    }
  }

  private static PayoutRequest parse(String json) {
    try {
      return Json.mapper().readValue(json, PayoutRequest.class);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("the ledger holds a request it cannot read back: " + e.getMessage(), e);
    }
  }
}
