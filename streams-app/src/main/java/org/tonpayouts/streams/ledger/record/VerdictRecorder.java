package org.tonpayouts.streams.ledger.record;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.JettonDelivery;
import org.tonpayouts.schemas.Json;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.audit.AuditLog;
import org.tonpayouts.streams.ledger.sql.Checks;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.LedgerSql;
import org.tonpayouts.streams.ledger.sql.TransferRow;
import org.tonpayouts.streams.ledger.sql.TransferStatus;

/**
 * Records many chain verdicts in one database transaction: all the confirmations a poll of the
 * chain produced cost one commit, not one each. The confirmations that need no judgement (nearly
 * all) are settled together in three statements ({@link ConfirmBatch}); every other verdict runs
 * in its own savepoint, so one the database refuses is reported back ({@link RecordedVerdict.Failed})
 * without undoing the others.
 */
public final class VerdictRecorder {
  private static final Logger log = LoggerFactory.getLogger(VerdictRecorder.class);

  private final LedgerSql sql;
  private final MessageTransitions transitions;
  private final TransferBook transfers;

  public VerdictRecorder(LedgerSql sql, MessageTransitions transitions, TransferBook transfers) {
    this.sql = sql;
    this.transitions = transitions;
    this.transfers = transfers;
  }

  /** {@link #record(List, Map)} with no sends to record. */
  public List<RecordedVerdict> record(List<VerdictCommand> commands) {
    return record(commands, Map.of());
  }

  /**
   * Records the verdicts in order and says what became of each, with {@code sends} the API
   * acknowledged that the ledger does not hold yet (by message hash): those of the confirmations
   * settled together go into the same row versions, the others are recorded first.
   *
   * @throws LedgerException when the database cannot be used at all: nothing of the batch was
   *     recorded, sends included
   */
  public List<RecordedVerdict> record(List<VerdictCommand> commands, Map<String, Sends> sends) {
    if (commands.isEmpty() && sends.isEmpty()) {
      return List.of();
    }
    Instant now = sql.now();
    return sql.transaction("record " + commands.size() + " verdicts", c -> {
      Map<Integer, VerdictResult.Applied> settled = settleTheClearOnes(c, commands, sends, now);
      Map<String, Sends> unsettled = new HashMap<>(sends);
      settled.values().forEach(applied -> unsettled.remove(applied.message().messageHash()));
      recordSendsOf(c, unsettled, now);
      List<RecordedVerdict> out = new ArrayList<>();
      for (int i = 0; i < commands.size(); i++) {
        VerdictCommand command = commands.get(i);
        VerdictResult.Applied applied = settled.get(i);
        if (applied != null) {
          MessageTransitions.logResult(command.verdict().status().name(), applied.message().messageHash(), applied);
          out.add(new RecordedVerdict.OnMessage(command, applied, List.of()));
          continue;
        }
        out.add(LedgerSql.orUndone(c, conn -> recordOne(conn, command, now), e -> {
          log.warn("verdict not recorded, will be retried request={} transfer={} hash={} status={} error={}",
              command.verdict().requestId(), command.verdict().transferId(), command.verdict().messageHash(),
              command.verdict().status(), e.toString());
          return new RecordedVerdict.Failed(command, e.getMessage() == null ? e.toString() : e.getMessage());
        }));
      }
      keepJettonDeliveries(c, commands);
      return out;
    });
  }

  /**
   * Keeps each jetton verdict's {@link JettonDelivery} on the transfer it decided: only where the
   * transfer now rests on the verdict's own wallet transaction (a verdict the ledger did not take
   * leaves no evidence behind).
   */
  private static void keepJettonDeliveries(Connection c, List<VerdictCommand> commands) throws SQLException {
    for (VerdictCommand command : commands) {
      Confirmation v = command.verdict();
      if (v.jetton() == null || v.txHash() == null) {
        continue;
      }
      LedgerSql.update(c, "update payout_transfers set jetton_delivery = ?::jsonb where request_id = ? and transfer_id = ?"
          + " and tx_hash = ? and jetton_master is not null and status in ('SETTLED', 'FAILED')",
          json(v.jetton()), v.requestId(), v.transferId(), v.txHash());
    }
  }

  private static String json(JettonDelivery delivery) {
    try {
      return Json.mapper().writeValueAsString(delivery);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("cannot write a jetton delivery as JSON: " + e.getOriginalMessage(), e);
    }
  }

  /**
   * Settles the batch's confirmations that need no judgement in a few statements for all of them
   * ({@link ConfirmBatch}); if the database refuses any of it, none of it stays and every verdict
   * is taken one by one.
   */
  private static Map<Integer, VerdictResult.Applied> settleTheClearOnes(Connection c, List<VerdictCommand> commands,
      Map<String, Sends> sends, Instant now) throws SQLException {
    return LedgerSql.orUndone(c, conn -> ConfirmBatch.settle(conn, commands, sends, now), e -> {
      log.warn("confirmations not settled as a batch, taking them one by one count={} error={}", commands.size(),
          e.toString());
      return Map.of();
    });
  }

  /**
   * Sends of the verdicts taken one by one (and of late acknowledgements); a refusal is logged,
   * not fatal to the verdicts.
   */
  private static void recordSendsOf(Connection c, Map<String, Sends> sends, Instant now) throws SQLException {
    if (sends.isEmpty()) {
      return;
    }
    LedgerSql.orUndone(c, conn -> MessageTransitions.recordSendsIn(conn, sends, now), e -> {
      log.warn("sends not recorded in the ledger count={} error={}", sends.size(), e.toString());
      return 0;
    });
  }

  private RecordedVerdict recordOne(Connection c, VerdictCommand command, Instant now) throws SQLException {
    Confirmation v = command.verdict();
    if (v.status() == org.tonpayouts.schemas.ConfirmationStatus.BOUNCED) {
      return new RecordedVerdict.Bounce(command, transfers.recordBounceIn(c, v.requestId(), v.transferId(),
          Checks.hash(v.txHash(), "txHash"), v.returnedNano(), v.reason(), now));
    }
    String hash = Checks.hash(v.messageHash(), "messageHash");
    Optional<LedgerRow> named = transitions.messageIn(c, hash);
    VerdictResult result = named.isPresent() && !named.get().isOf(v.requestId(), v.transferId())
        ? otherTransfers(c, v, named.get(), now)
        : judge(c, v, hash, now);
    List<TransferRow> aborted = List.of();
    TransferRow transfer = transferOf(result);
    if (command.request() != null && transfer != null && transfer.requestId().equals(command.request().requestId())
        && (transfer.status() == TransferStatus.FAILED || transfer.status() == TransferStatus.RECONCILIATION_REQUIRED)) {
      aborted = transfers.abortRestIn(c, command.request(), command.origin(), command.walletAddress(),
          transfer.transferIndex() + 1, "transfer " + transfer.transferId() + " " + transfer.status(), now);
    }
    MessageTransitions.logResult(v.status().name(), hash, result);
    return new RecordedVerdict.OnMessage(command, result, aborted);
  }

  /** What the verdict on the transfer's own message (or on a message the ledger never recorded) makes of it. */
  private VerdictResult judge(Connection c, Confirmation v, String hash, Instant now) throws SQLException {
    return switch (v.status()) {
      case CONFIRMED -> confirm(c, v, hash, now);
      case FAILED -> transitions.failIn(c, hash, LedgerSql.truncate(v.reason()), Checks.hashOrNull(v.txHash(), "txHash"),
          v.lt(), v.utime(), v.feeNano(), now);
      case EXPIRED -> transitions.expireIn(c, hash, v.evidenceUtime(), now);
      case RECONCILIATION_REQUIRED -> transitions.reconcileIn(c, hash, LedgerSql.truncate(v.reason()), now);
      case BOUNCED -> throw new IllegalStateException("a bounce is recorded on its transfer, not on a message");
    };
  }

  /**
   * A transaction applied {@code hash} and paid the transfer. When the ledger never recorded that
   * message (the poller recovered it by destination and amount: someone else's message paid the
   * same), nothing of ours is claimed: the transfer is RECONCILIATION_REQUIRED with the evidence.
   */
  private VerdictResult confirm(Connection c, Confirmation v, String hash, Instant now) throws SQLException {
    String tx = Checks.hash(v.txHash(), "txHash");
    VerdictResult result = transitions.confirmIn(c, hash, tx, v.lt(), v.utime(), v.feeNano(), now);
    if (!(result instanceof VerdictResult.Unknown)) {
      return result;
    }
    Optional<String> newest = transitions.newestMessageIn(c, v.requestId(), v.transferId());
    if (newest.isEmpty()) {
      return result;
    }
    return transitions.reconcileIn(c, newest.get(), LedgerSql.truncate("transaction " + tx + " paid the transfer's"
        + " destination and amount with message " + hash + ", which this service never signed; none of the"
        + " transfer's own messages applied: completion by us cannot be proven (" + v.reason() + ")"), now);
  }

  /**
   * The verdict about one transfer names a message of another (the poller recovered by destination
   * and amount a payment of another of our transfers). That payment is no evidence for this
   * transfer: nothing is claimed for it. A confirmation still says the transfer's seqno was used
   * without any of its messages, so, as with a message we never signed ({@link #confirm}), the
   * transfer needs an operator; any other verdict changes nothing. Both are audited.
   */
  private VerdictResult otherTransfers(Connection c, Confirmation v, LedgerRow named, Instant now)
      throws SQLException {
    String why = "the verdict " + v.status() + " for transfer " + v.requestId() + "/" + v.transferId() + " names message "
        + named.messageHash() + " of transfer " + named.requestId() + "/" + named.transferId() + " (seqno "
        + named.seqno() + (v.txHash() == null ? "" : ", transaction " + v.txHash()) + "): a payment of another"
        + " transfer is never evidence for this one";
    Optional<String> newest = transitions.newestMessageIn(c, v.requestId(), v.transferId());
    Optional<LedgerRow> own = newest.isEmpty() ? Optional.empty() : transitions.messageIn(c, newest.get());
    AuditLog.insert(c, AuditEvent.about(own.orElse(named), AuditEvent.Level.ERROR, AuditEvent.Type.LEDGER_CONFLICT,
        v.txHash(), why), now);
    if (v.status() != org.tonpayouts.schemas.ConfirmationStatus.CONFIRMED || own.isEmpty()) {
      return new VerdictResult.OtherTransfer(named, why);
    }
    return transitions.reconcileIn(c, own.get().messageHash(), LedgerSql.truncate(why + "; the transfer's seqno "
        + own.get().seqno() + " was used without any of its messages: completion by us cannot be proven"), now);
  }

  /** The transfer a result is about, as it stands after it; null when it is about none. */
  public static TransferRow transferOf(VerdictResult result) {
    if (result instanceof VerdictResult.Applied a) {
      return a.transfer();
    } else if (result instanceof VerdictResult.GaveUp g) {
      return g.transfer();
    } else if (result instanceof VerdictResult.Repeated r) {
      return r.transfer();
    } else if (result instanceof VerdictResult.Contradicted x) {
      return x.transfer();
    }
    return null;
  }
}
