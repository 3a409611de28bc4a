package org.tonpayouts.streams.ledger.sql;

import org.tonpayouts.schemas.JettonAmount;
import org.tonpayouts.schemas.JettonDelivery;
import org.tonpayouts.schemas.Json;

import static org.tonpayouts.streams.ledger.sql.LedgerSql.instant;
import static org.tonpayouts.streams.ledger.sql.LedgerSql.nullableLong;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.stream.Collectors;

/** Column lists and row readers of the ledger's tables, in one place. */
public final class LedgerRows {
  private LedgerRows() {}

  /** Every column of {@code ton_transactions}, in {@link LedgerRow}'s order. */
  public static final String MESSAGE_COLUMNS =
      "id, request_id, transfer_id, transfer_index, attempt, subwallet_id, wallet_address,"
          + " destination, amount_nano, seqno, message_hash, normalized_hash, boc, valid_until,"
          + " status, tx_hash, lt, utime, fee_nano, last_error, error_count, send_count,"
          + " created_at, updated_at, sent_at, settled_at, evidence_utime";

  /** {@link #MESSAGE_COLUMNS} qualified with {@code prefix.}. */
  public static String messageColumns(String prefix) {
    return qualified(MESSAGE_COLUMNS, prefix);
  }

  /** Every column of {@code payout_transfers}, in {@link TransferRow}'s order. */
  public static final String TRANSFER_COLUMNS =
      "request_id, transfer_id, transfer_index, kind, subwallet_id, wallet_address, destination, amount_nano,"
          + " requested_at, seqno, attempts, status, reason, message_hash, tx_hash, bounce_tx_hash, returned_nano,"
          + " created_at, updated_at, settled_at, jetton_master, jetton_amount, jetton_query_id, jetton_delivery";

  /** {@link #TRANSFER_COLUMNS} qualified with {@code prefix.}. */
  public static String transferColumns(String prefix) {
    return qualified(TRANSFER_COLUMNS, prefix);
  }

  private static String qualified(String columns, String prefix) {
    return Arrays.stream(columns.split(",\\s*")).map(c -> prefix + "." + c).collect(Collectors.joining(", "));
  }

  public static LedgerRow message(ResultSet rs) throws SQLException {
    return new LedgerRow(
        rs.getLong("id"),
        rs.getString("request_id"),
        rs.getString("transfer_id"),
        rs.getInt("transfer_index"),
        rs.getInt("attempt"),
        rs.getLong("subwallet_id"),
        rs.getString("wallet_address"),
        rs.getString("destination"),
        rs.getLong("amount_nano"),
        rs.getLong("seqno"),
        rs.getString("message_hash"),
        rs.getString("normalized_hash"),
        rs.getString("boc"),
        instant(rs, "valid_until"),
        LedgerStatus.valueOf(rs.getString("status")),
        rs.getString("tx_hash"),
        nullableLong(rs, "lt"),
        nullableLong(rs, "utime"),
        nullableLong(rs, "fee_nano"),
        rs.getString("last_error"),
        rs.getInt("error_count"),
        rs.getInt("send_count"),
        instant(rs, "created_at"),
        instant(rs, "updated_at"),
        instant(rs, "sent_at"),
        instant(rs, "settled_at"),
        nullableLong(rs, "evidence_utime"));
  }

  public static TransferRow transfer(ResultSet rs) throws SQLException {
    return new TransferRow(
        rs.getString("request_id"),
        rs.getString("transfer_id"),
        rs.getInt("transfer_index"),
        rs.getString("kind"),
        rs.getLong("subwallet_id"),
        rs.getString("wallet_address"),
        rs.getString("destination"),
        rs.getLong("amount_nano"),
        instant(rs, "requested_at"),
        nullableLong(rs, "seqno"),
        rs.getInt("attempts"),
        TransferStatus.valueOf(rs.getString("status")),
        rs.getString("reason"),
        rs.getString("message_hash"),
        rs.getString("tx_hash"),
        rs.getString("bounce_tx_hash"),
        nullableLong(rs, "returned_nano"),
        instant(rs, "created_at"),
        instant(rs, "updated_at"),
        instant(rs, "settled_at"),
        rs.getString("jetton_master") == null ? null
            : new JettonAmount(rs.getString("jetton_master"), rs.getBigDecimal("jetton_amount").toBigIntegerExact()),
        nullableLong(rs, "jetton_query_id"),
        jettonDelivery(rs.getString("jetton_delivery")));
  }

  private static JettonDelivery jettonDelivery(String json) {
    if (json == null) {
      return null;
    }
    try {
      return Json.mapper().readValue(json, JettonDelivery.class);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new LedgerException("the ledger holds a jetton delivery it cannot read back: " + e.getOriginalMessage(), e);
    }
  }
}
