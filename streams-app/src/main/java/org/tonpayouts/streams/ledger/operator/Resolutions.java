package org.tonpayouts.streams.ledger.operator;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.schemas.Resolution;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.schemas.TransferKind;
import org.tonpayouts.streams.ledger.audit.AuditEvent.Level;
import org.tonpayouts.streams.ledger.audit.AuditEvent.Type;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.audit.AuditLog;
import org.tonpayouts.streams.ledger.audit.PendingSettlement;
import org.tonpayouts.streams.ledger.audit.Actor;
import org.tonpayouts.streams.ledger.operator.ResolutionResult.NotApproved;
import org.tonpayouts.streams.ledger.operator.ResolutionResult.NotFound;
import org.tonpayouts.streams.ledger.operator.ResolutionResult.NotReconcilable;
import org.tonpayouts.streams.ledger.operator.ResolutionResult.Refused;
import org.tonpayouts.streams.ledger.operator.ResolutionResult.Resolved;
import org.tonpayouts.streams.ledger.operator.ResolutionResult.Unproven;
import org.tonpayouts.streams.ledger.sql.Checks;
import org.tonpayouts.streams.ledger.sql.LedgerRows;
import org.tonpayouts.streams.ledger.sql.LedgerSql;
import org.tonpayouts.streams.ledger.sql.TransferRow;
import org.tonpayouts.streams.ledger.sql.TransferStatus;
import org.tonpayouts.ton.address.TonAddress;

/**
 * Operators' resolutions of RECONCILIATION_REQUIRED transfers (docs/operations.md: the reconciliation runbook).
 * One transaction each moves the transfer to SETTLED or FAILED (the only moves the table's trigger
 * allows out of RECONCILIATION_REQUIRED), writes who and why to the audit log, and queues the
 * transfer's second settlement, carrying the resolution, in {@code settlement_outbox}: the outbox
 * publisher sends it, so a crash after the commit cannot lose it.
 *
 * <p>The transfer's message rows keep what the chain said about each of them; only a message of
 * ours that the named transaction applied is confirmed with it.
 */
public final class Resolutions {
  private static final Logger log = LoggerFactory.getLogger(Resolutions.class);

  private final LedgerSql sql;

  public Resolutions(LedgerSql sql) {
    this.sql = sql;
  }

  /**
   * Settles the transfer with {@code payment}, a transaction of its wallet the caller verified on
   * chain. Refused when the transaction already settles as many transfers with this destination
   * and amount as it has paying out-messages.
   */
  public ResolutionResult settle(String requestId, String transferId, ChainPayment payment, String operator,
      String note) {
    return settle(requestId, transferId, payment, Resolver.alone(Actor.named(operator), note));
  }

  /** {@link #settle(String, String, ChainPayment, String, String)} by {@code resolver} (and their approver). */
  public ResolutionResult settle(String requestId, String transferId, ChainPayment payment, Resolver resolver) {
    return resolve("SETTLED", requestId, transferId, resolver, (c, transfer, who, why, now) -> {
      List<String> claimants = claimants(c, payment.txHash(), transfer);
      if (claimants.size() >= payment.payingOutMessages()) {
        return new Refused(transfer, "transaction " + payment.txHash() + " pays " + transfer.amountNano()
            + " nanotons to " + transfer.destination() + " " + payment.payingOutMessages() + " time(s) and already"
            + " settles " + String.join(", ", claimants));
      }
      String ours = confirmOurMessage(c, transfer, payment, now);
      TransferRow settled = LedgerSql.query(c, "update payout_transfers set status = 'SETTLED', reason = null,"
              + " message_hash = coalesce(?, message_hash), tx_hash = ?, updated_at = ?, settled_at = ?"
              + " where request_id = ? and transfer_id = ? returning " + LedgerRows.TRANSFER_COLUMNS,
          LedgerRows::transfer, ours, payment.txHash(), now, now, requestId, transferId).get(0);
      String detail = "resolved SETTLED by " + who.describe() + ": " + why + " (transaction " + payment.txHash()
          + " lt " + payment.lt() + (ours != null ? ", which applied our message " + ours
          : ", signed by another signer") + ")";
      AuditEvent audit = AuditLog.insert(c, new AuditEvent(0, null, Level.WARNING, Type.OPERATOR_RESOLUTION,
          settled.subwalletId(), settled.walletAddress(), requestId, transferId, settled.seqno(),
          settled.messageHash(), payment.txHash(), detail).by(who.by(), who.approver()), now);
      return resolved(c, settled, audit, settlement(settled, SettlementStatus.SETTLED, payment, null, now), who, why,
          now);
    });
  }

  /**
   * Fails the transfer: the operator established that it was not paid, and {@code evidence} (read
   * from the chain by the caller) shows that it cannot be paid any more. Refused ({@link Unproven})
   * while a transaction in the evidence pays the transfer's destination its amount and is not
   * accounted for by transfers it already settles, unless {@code acknowledged} names exactly that
   * transaction (the operator's statement that it pays something else, recorded in the audit row).
   *
   * @param acknowledged null, or the hash of the one matching transaction the operator says pays something else
   */
  public ResolutionResult fail(String requestId, String transferId, NonPaymentEvidence evidence, String acknowledged,
      String operator, String note) {
    return fail(requestId, transferId, evidence, acknowledged, Resolver.alone(Actor.named(operator), note));
  }

  /** {@link #fail(String, String, NonPaymentEvidence, String, String, String)} by {@code resolver} (and their approver). */
  public ResolutionResult fail(String requestId, String transferId, NonPaymentEvidence evidence, String acknowledged,
      Resolver resolver) {
    String ack = Checks.hashOrNull(acknowledged, "acknowledged");
    return resolve("FAILED", requestId, transferId, resolver, (c, transfer, who, why, now) -> {
      List<ChainPayment> unaccounted = new ArrayList<>();
      for (ChainPayment match : evidence.matches()) {
        if (claimants(c, match.txHash(), transfer).size() < match.payingOutMessages()) {
          unaccounted.add(match);
        }
      }
      String refusal = acknowledgementRefusal(transfer, unaccounted, ack);
      if (refusal != null) {
        return new Unproven(transfer, refusal);
      }
      String reason = LedgerSql.truncate("resolved FAILED by " + who.names() + ": " + why);
      TransferRow failed = LedgerSql.query(c, "update payout_transfers set status = 'FAILED', reason = ?,"
              + " updated_at = ?, settled_at = ? where request_id = ? and transfer_id = ? returning "
              + LedgerRows.TRANSFER_COLUMNS,
          LedgerRows::transfer, reason, now, now, requestId, transferId).get(0);
      String proof = ack == null
          ? "no transaction pays " + transfer.amountNano() + " nanotons to " + transfer.destination()
          : "transaction " + ack + " pays " + transfer.amountNano() + " nanotons to " + transfer.destination()
              + " and " + who.by().name() + " acknowledged that it pays something else";
      AuditEvent audit = AuditLog.insert(c, new AuditEvent(0, null, Level.WARNING, Type.OPERATOR_RESOLUTION,
          failed.subwalletId(), failed.walletAddress(), requestId, transferId, failed.seqno(), failed.messageHash(),
          ack, LedgerSql.truncate("resolved FAILED by " + who.describe() + ": " + why + " (chain evidence: "
              + evidence.describe() + "; " + proof + "; was: " + transfer.reason() + ")"))
          .by(who.by(), who.approver()), now);
      return resolved(c, failed, audit, settlement(failed, SettlementStatus.FAILED, null, reason, now), who, why, now);
    });
  }

  /**
   * Why a FAILED resolution may not go ahead given the matching transactions not yet accounted
   * for and the operator's acknowledgement; null when it may.
   */
  private static String acknowledgementRefusal(TransferRow transfer, List<ChainPayment> unaccounted, String ack) {
    String pays = " nanotons to " + transfer.destination();
    if (unaccounted.isEmpty()) {
      return ack == null ? null : "acknowledgePaysSomethingElse names transaction " + ack + ", but no transaction"
          + " on chain since the transfer was recorded pays " + transfer.amountNano() + pays
          + " without settling a transfer already: there is nothing to acknowledge; leave it out";
    }
    String named = String.join(", ", unaccounted.stream().map(p -> p.txHash() + " (lt " + p.lt() + ", utime "
        + p.utime() + ")").toList());
    if (unaccounted.size() > 1) {
      return "transactions " + named + " each pay " + transfer.amountNano() + pays + ": the transfer may have been"
          + " paid; resolve it SETTLED with the one that paid it (an acknowledgement covers one transaction only)";
    }
    String match = unaccounted.get(0).txHash();
    if (ack == null) {
      return "transaction " + named + " pays " + transfer.amountNano() + pays + ": the transfer may have been paid;"
          + " resolve it SETTLED with that transaction, or, if it pays something else, repeat the call with"
          + " acknowledgePaysSomethingElse=" + match;
    }
    if (!ack.equals(match)) {
      return "acknowledgePaysSomethingElse names transaction " + ack + ", but the transaction that pays "
          + transfer.amountNano() + pays + " is " + named;
    }
    return null;
  }

  /** What a resolution does once its transfer is locked and known to await one. */
  private interface Decision {
    ResolutionResult apply(Connection c, TransferRow transfer, Resolver who, String why, Instant now)
        throws SQLException;
  }

  /**
   * One resolution, in one transaction: the note checked, the transfer locked, refused unless it is
   * RECONCILIATION_REQUIRED, and under the two-person rule unless its approval is still open and the
   * approver is not who asked (the approval row stays locked, so it lets one resolution through);
   * then {@code decision}, and the approval marked with the resolution's audit row. The outcome is logged.
   */
  private ResolutionResult resolve(String outcome, String requestId, String transferId, Resolver resolver,
      Decision decision) {
    String who = resolver.describe();
    String why = LedgerSql.truncate(Checks.nonBlank(resolver.note(), "note").strip());
    Instant now = sql.now();
    ResolutionResult result = sql.transaction(outcome + " " + requestId + "/" + transferId + " by resolution", c -> {
      TransferRow transfer = lock(c, requestId, transferId);
      if (transfer == null) {
        return new NotFound(requestId, transferId);
      }
      if (transfer.status() != TransferStatus.RECONCILIATION_REQUIRED) {
        return new NotReconcilable(transfer);
      }
      Approval approval = resolver.approval();
      if (approval != null) {
        if (!approval.requestId().equals(requestId) || !approval.transferId().equals(transferId)) {
          throw new IllegalArgumentException(approval.describe() + " is not about " + requestId + "/" + transferId);
        }
        String refusal = Approvals.refusal(c, approval.id(), resolver.approver(), now);
        if (refusal != null) {
          return new NotApproved(transfer, refusal);
        }
      }
      ResolutionResult decided = decision.apply(c, transfer, resolver, why, now);
      if (approval != null && decided instanceof Resolved r) {
        Approvals.markApproved(c, approval.id(), resolver.approver(), r.audit().id(), now);
      }
      return decided;
    });
    logResult(outcome, requestId, transferId, who, result);
    return result;
  }

  /** The transfer's second settlement, carrying the resolution, queued in the outbox with the audit row. */
  private static Resolved resolved(Connection c, TransferRow transfer, AuditEvent audit, Settlement settlement,
      Resolver who, String why, Instant now) throws SQLException {
    Settlement resolved = settlement.resolvedBy(new Resolution(who.by().name(), why, audit.id(), now,
        who.approver() == null ? null : who.approver().name()));
    queue(c, transfer, audit, resolved, now);
    return new Resolved(transfer, audit, resolved);
  }

  private static TransferRow lock(Connection c, String requestId, String transferId) throws SQLException {
    List<TransferRow> rows = LedgerSql.query(c, "select " + LedgerRows.TRANSFER_COLUMNS + " from payout_transfers"
        + " where request_id = ? and transfer_id = ? for update", LedgerRows::transfer, requestId, transferId);
    return rows.isEmpty() ? null : rows.get(0);
  }

  /** Transfers already settled by {@code txHash} with the same destination and amount as {@code transfer}. */
  private static List<String> claimants(Connection c, String txHash, TransferRow transfer) throws SQLException {
    String destination = TonAddress.parse(transfer.destination()).toRaw();
    return LedgerSql.query(c, "select " + LedgerRows.TRANSFER_COLUMNS + " from payout_transfers where tx_hash = ?"
            + " and status = 'SETTLED' for update", LedgerRows::transfer, txHash).stream()
        .filter(t -> t.amountNano() == transfer.amountNano()
            && TonAddress.parse(t.destination()).toRaw().equals(destination))
        .map(t -> t.requestId() + "/" + t.transferId())
        .toList();
  }

  /**
   * Confirms the transfer's message that {@code payment} applied, if it is one of ours (any status
   * the trigger lets become CONFIRMED: RECONCILIATION_REQUIRED or EXPIRED); its hash, else null.
   */
  private static String confirmOurMessage(Connection c, TransferRow transfer, ChainPayment payment, Instant now)
      throws SQLException {
    if (payment.inMessageHash() == null) {
      return null;
    }
    List<String> confirmed = LedgerSql.query(c, "update ton_transactions set status = 'CONFIRMED', tx_hash = ?, lt = ?,"
            + " utime = ?, fee_nano = ?, updated_at = ?, settled_at = ? where request_id = ? and transfer_id = ?"
            + " and message_hash = ? and status in ('RECONCILIATION_REQUIRED', 'EXPIRED') returning message_hash",
        rs -> rs.getString(1), payment.txHash(), payment.lt(), payment.utime(), payment.feeNano(), now, now,
        transfer.requestId(), transfer.transferId(), payment.inMessageHash());
    return confirmed.isEmpty() ? null : confirmed.get(0);
  }

  private static Settlement settlement(TransferRow t, SettlementStatus status, ChainPayment payment, String reason,
      Instant now) {
    return Settlement.of(t.requestId(), t.transferId(), t.transferIndex(), t.subwalletId(), kind(t), t.destination(),
        t.amountNano(), status, payment == null ? null : payment.txHash(), payment == null ? null : payment.lt(),
        t.seqno(), payment == null ? null : payment.feeNano(), t.messageHash(), reason,
        t.requestedAt() != null ? t.requestedAt() : t.createdAt(), now);
  }

  private static TransferKind kind(TransferRow t) {
    try {
      return TransferKind.valueOf(t.kind());
    } catch (IllegalArgumentException e) {
      return TransferKind.OTHER;
    }
  }

  private static void queue(Connection c, TransferRow t, AuditEvent audit, Settlement settlement, Instant now)
      throws SQLException {
    LedgerSql.update(c, "insert into settlement_outbox (request_id, transfer_id, subwallet_id, audit_id, payload,"
            + " created_at) values (?, ?, ?, ?, ?, ?)", t.requestId(), t.transferId(), t.subwalletId(), audit.id(),
        PendingSettlement.json(settlement), now);
  }

  private static void logResult(String outcome, String requestId, String transferId, String operator,
      ResolutionResult result) {
    if (result instanceof Resolved r) {
      log.warn("transfer resolved by an operator outcome={} subwallet={} request={} transfer={} seqno={} tx={}"
              + " operator={} audit={}", outcome, r.transfer().subwalletId(), requestId, transferId,
          r.transfer().seqno(), r.transfer().txHash(), operator, r.audit().id());
    } else {
      String why = result instanceof Unproven u ? u.missing() : result instanceof Refused x ? x.why()
          : result instanceof NotApproved n ? n.why() : "";
      log.info("resolution not recorded outcome={} request={} transfer={} operator={} result={} why={}", outcome,
          requestId, transferId, operator, result.getClass().getSimpleName(), why);
    }
  }
}
