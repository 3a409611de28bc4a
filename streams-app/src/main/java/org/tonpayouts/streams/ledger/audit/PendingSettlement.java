package org.tonpayouts.streams.ledger.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import org.tonpayouts.schemas.Json;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.streams.ledger.sql.LedgerSql;

/**
 * A settlement the ledger holds for {@code payout.settlements} that is not the topology's own: the
 * outcome of an operator's resolution, recorded with it ({@code settlement_outbox}).
 *
 * @param id the outbox row's id
 * @param auditId the audit_log row of the resolution (the settlement's {@code resolution.auditId})
 * @param settlement what is published, keyed by its subwallet id
 * @param publishedAt when it was handed to Kafka; null while it waits
 */
public record PendingSettlement(long id, long auditId, Settlement settlement, Instant createdAt, Instant publishedAt) {

  public static final String COLUMNS = "id, audit_id, payload, created_at, published_at";

  public static PendingSettlement read(ResultSet rs) throws SQLException {
    String payload = rs.getString("payload");
    try {
      return new PendingSettlement(rs.getLong("id"), rs.getLong("audit_id"),
          Json.mapper().readValue(payload, Settlement.class), LedgerSql.instant(rs, "created_at"),
          LedgerSql.instant(rs, "published_at"));
    } catch (JsonProcessingException e) {
      throw new SQLException("settlement_outbox row " + rs.getLong("id") + " is not a settlement: " + e.getMessage(), e);
    }
  }

  public static String json(Settlement settlement) {
    try {
      return Json.mapper().writeValueAsString(settlement);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write a settlement as JSON: " + e.getMessage(), e);
    }
  }
}
