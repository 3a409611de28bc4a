package org.tonpayouts.streams.wallet;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.schemas.Submission;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.schemas.TransferRequest;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.ledger.LedgerConflictException;
import org.tonpayouts.streams.ledger.LedgerRow;
import org.tonpayouts.streams.metrics.PayoutMetrics;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.wallet.Subwallets;

/**
 * The per-wallet state machine of DESIGN.md: queues accepted requests per subwallet, keeps at most
 * one message in flight per wallet, settles it when the chain poller reports its fate, and issues
 * the next transfer.
 *
 * <p>Records of one wallet all carry its subwallet id as key, so one task owns each wallet and its
 * {@link WalletState}. Issuing is batched: {@code process} only marks wallets ready, and a
 * wall-clock punctuation hands all ready wallets to one {@link IssuingRound}, whose reads and sends
 * run concurrently. Its submissions are forwarded and its state written inside the same
 * exactly-once transaction; what happened outside Kafka in between (ledger rows, sends) is found
 * again in the ledger after a crash and resumed, never signed anew.
 */
public final class WalletTxProcessor implements Processor<String, Object, String, Object> {
  public static final String NAME = "wallet-tx";
  public static final String WALLET_STORE = "wallet-state";
  public static final String REQUEST_ID_STORE = "accepted-request-ids";
  /** Child names the topology gives the sinks this processor forwards to. */
  public static final String SUBMISSIONS_SINK = "submissions-sink";
  public static final String SETTLEMENTS_SINK = "settlements-sink";

  private static final Logger log = LoggerFactory.getLogger(WalletTxProcessor.class);

  /** What the processor needs from outside Kafka. */
  public record Dependencies(
      IssuingRound round, Ledger ledger, Subwallets subwallets, Clock clock, PayoutMetrics metrics,
      Duration tickInterval, int maxAttempts) {}

  private final Dependencies deps;
  private final Set<String> readyWallets = new LinkedHashSet<>();
  private ProcessorContext<String, Object> context;
  private KeyValueStore<String, WalletState> wallets;
  private KeyValueStore<String, Long> acceptedRequestIds;

  public WalletTxProcessor(Dependencies deps) {
    this.deps = deps;
  }

  @Override
  public void init(ProcessorContext<String, Object> context) {
    this.context = context;
    this.wallets = context.getStateStore(WALLET_STORE);
    this.acceptedRequestIds = context.getStateStore(REQUEST_ID_STORE);
    // After a restart or rebalance, wallets that had work but nothing in flight continue.
    try (KeyValueIterator<String, WalletState> all = wallets.all()) {
      while (all.hasNext()) {
        KeyValue<String, WalletState> entry = all.next();
        if (entry.value.readyToIssue()) {
          readyWallets.add(entry.key);
        }
      }
    }
    context.schedule(deps.tickInterval(), PunctuationType.WALL_CLOCK_TIME, timestamp -> issueReadyWallets());
  }

  @Override
  public void process(Record<String, Object> record) {
    if (record.value() instanceof PayoutRequest request) {
      accept(record.key(), request);
    } else if (record.value() instanceof Confirmation confirmation) {
      onConfirmation(record.key(), confirmation);
    } else {
      log.error("ignoring unexpected record key={} type={}", record.key(),
          record.value() == null ? "null" : record.value().getClass().getName());
    }
  }

  private void accept(String key, PayoutRequest request) {
    if (acceptedRequestIds.get(request.requestId()) != null) {
      deps.metrics().duplicate();
      log.info("duplicate request ignored subwallet={} request={}", key, request.requestId());
      return;
    }
    acceptedRequestIds.put(request.requestId(), deps.clock().millis());
    WalletState state = load(key, request.subwalletId()).enqueue(request);
    wallets.put(key, state);
    deps.metrics().accepted();
    log.info("request accepted subwallet={} request={} transfers={} queued={}", key, request.requestId(),
        request.transfers().size(), state.queue().size());
    markReadyIfSo(key, state);
  }

  private void onConfirmation(String key, Confirmation confirmation) {
    WalletState state = wallets.get(key);
    if (state == null || state.inFlight() == null
        || !state.inFlight().messageHash().equals(confirmation.messageHash())) {
      // Duplicates are expected (the poller may repeat itself); anything else deserves a look.
      log.warn("confirmation for a message not in flight subwallet={} request={} transfer={} hash={} status={}",
          key, confirmation.requestId(), confirmation.transferId(), confirmation.messageHash(), confirmation.status());
      return;
    }
    WalletState next = decide(key, state, confirmation);
    wallets.put(key, next);
    markReadyIfSo(key, next);
  }

  /** Applies the chain's verdict on the in-flight message: ledger first, then the settlement event. */
  private WalletState decide(String key, WalletState state, Confirmation verdict) {
    Ledger ledger = deps.ledger();
    String hash = verdict.messageHash();
    switch (verdict.status()) {
      case CONFIRMED -> {
        try {
          ledger.markConfirmed(hash, verdict.txHash(), verdict.lt(), verdict.utime(), verdict.feeNano());
        } catch (LedgerConflictException e) {
          // The chain and our record disagree (e.g. a message we had given up on applied after all):
          // claim nothing, hand it to an operator, and keep the wallet moving on a fresh seqno read.
          String reason = "chain confirmed message " + hash + " but the ledger holds it as " + e.current().status();
          log.error("ledger conflict subwallet={} request={} transfer={} {}", key, verdict.requestId(),
              verdict.transferId(), reason);
          settle(key, state, SettlementStatus.RECONCILIATION_REQUIRED, verdict, reason);
          abortRest(key, state, "transfer " + state.currentTransfer().transferId() + " needs reconciliation");
          return state.dropCurrentRequest(null);
        }
        settle(key, state, SettlementStatus.SETTLED, verdict, null);
        return state.advance(verdict.seqno());
      }
      case FAILED -> {
        ledger.markFailed(hash, verdict.reason());
        settle(key, state, SettlementStatus.FAILED, verdict, verdict.reason());
        abortRest(key, state, "transfer " + state.currentTransfer().transferId() + " failed");
        return state.dropCurrentRequest(verdict.seqno());
      }
      case EXPIRED -> {
        if (!ledger.markExpired(hash)) {
          // Our clock says the message may still apply. The next round finds its live ledger row and
          // re-sends that same message, so the poller watches it again; nothing new is signed.
          log.error("expiry refused by the ledger, re-watching the message subwallet={} request={} transfer={} hash={}",
              key, verdict.requestId(), verdict.transferId(), hash);
          return state.expired();
        }
        deps.metrics().expired();
        if (state.attempts() >= deps.maxAttempts()) {
          String reason = "expired " + state.attempts() + " times without applying (wallet underfunded or API unreachable?)";
          settle(key, state, SettlementStatus.FAILED, verdict, reason);
          abortRest(key, state, "transfer " + state.currentTransfer().transferId() + " failed");
          return state.dropCurrentRequest(state.lastAppliedSeqno());
        }
        log.info("message expired, signing a new one subwallet={} request={} transfer={} seqno={} hash={} attempt={}",
            key, verdict.requestId(), verdict.transferId(), verdict.seqno(), hash, state.attempts());
        return state.expired();
      }
      case RECONCILIATION_REQUIRED -> {
        ledger.markReconciliationRequired(hash, verdict.reason());
        settle(key, state, SettlementStatus.RECONCILIATION_REQUIRED, verdict, verdict.reason());
        abortRest(key, state, "transfer " + state.currentTransfer().transferId() + " needs reconciliation");
        return state.dropCurrentRequest(null);
      }
      default -> throw new IllegalStateException("unknown confirmation status " + verdict.status());
    }
  }

  private void settle(String key, WalletState state, SettlementStatus status, Confirmation verdict, String reason) {
    PayoutRequest request = state.currentRequest();
    TransferRequest transfer = state.currentTransfer();
    Settlement settlement = Settlement.of(request.requestId(), transfer.transferId(), state.transferIndex(),
        request.subwalletId(), transfer.kind(), transfer.destination(), transfer.amountNano(), status,
        status == SettlementStatus.SETTLED ? verdict.txHash() : null, verdict.lt(), verdict.seqno(),
        verdict.feeNano(), verdict.messageHash(), reason, request.createdAt(), deps.clock().instant());
    forwardSettlement(key, settlement);
  }

  private void abortRest(String key, WalletState state, String reason) {
    PayoutRequest request = state.currentRequest();
    for (int i = state.transferIndex() + 1; i < request.transfers().size(); i++) {
      forwardSettlement(key, Settlement.aborted(request, i, reason, deps.clock().instant()));
    }
  }

  private void forwardSettlement(String key, Settlement settlement) {
    deps.metrics().settled(settlement.status());
    log.info("settled subwallet={} request={} transfer={} status={} seqno={} tx={} reason={}", key,
        settlement.requestId(), settlement.transferId(), settlement.status(), settlement.seqno(),
        settlement.txHash(), settlement.reason());
    context.forward(new Record<>(key, settlement, deps.clock().millis()), SETTLEMENTS_SINK);
  }

  /** One issuing round for every wallet that became ready since the last one. */
  private void issueReadyWallets() {
    if (readyWallets.isEmpty()) {
      return;
    }
    Instant started = deps.clock().instant();
    List<IssueTask> tasks = new ArrayList<>();
    for (String key : readyWallets) {
      WalletState state = wallets.get(key);
      if (state != null && state.readyToIssue()) {
        TonAddress wallet = deps.subwallets().address(state.subwalletId());
        if (state.lastAppliedSeqno() == null) {
          state = state.withLastAppliedSeqno(deps.ledger().highestAppliedSeqno(wallet.toRaw()).orElse(null));
        }
        tasks.add(IssueTask.of(state, wallet));
      }
    }
    readyWallets.clear();
    for (IssueOutcome outcome : deps.round().run(tasks)) {
      apply(outcome);
    }
    deps.metrics().issuingRound(Duration.between(started, deps.clock().instant()));
  }

  private void apply(IssueOutcome outcome) {
    IssueTask task = outcome.task();
    String key = Topics.walletKey(task.subwalletId());
    WalletState state = wallets.get(key);
    if (outcome instanceof IssueOutcome.Submitted submitted) {
      LedgerRow row = submitted.message();
      wallets.put(key, state.submitted(inFlightOf(row)));
      Submission submission = Submission.of(row.requestId(), row.transferId(), row.transferIndex(), row.subwalletId(),
          row.walletAddress(), row.seqno(), row.messageHash(), row.normalizedHash(), row.validUntil().getEpochSecond(),
          row.destination(), row.amountNano(), row.attempt(), deps.clock().instant());
      log.info("submitted subwallet={} request={} transfer={} seqno={} hash={} attempt={} resumed={}", key,
          row.requestId(), row.transferId(), row.seqno(), row.messageHash(), row.attempt(), submitted.resumed());
      context.forward(new Record<>(key, submission, deps.clock().millis()), SUBMISSIONS_SINK);
    } else if (outcome instanceof IssueOutcome.Deferred) {
      readyWallets.add(key);
    } else if (outcome instanceof IssueOutcome.AlreadyDecided decided) {
      // An earlier run settled the transfer in the ledger, but its Kafka commit was lost: replay the verdict.
      LedgerRow row = decided.message();
      log.info("outcome found in the ledger subwallet={} request={} transfer={} status={} hash={}", key,
          row.requestId(), row.transferId(), row.status(), row.messageHash());
      Confirmation verdict = Confirmation.of(row.requestId(), row.transferId(), row.subwalletId(), row.messageHash(),
          row.seqno(), row.status().asConfirmationStatus(), row.txHash(), row.lt(), row.utime(), row.feeNano(),
          row.lastError() == null ? "recorded in the ledger" : row.lastError(), deps.clock().instant());
      WalletState next = decide(key, state.submitted(inFlightOf(row)), verdict);
      wallets.put(key, next);
      markReadyIfSo(key, next);
    }
  }

  private static InFlight inFlightOf(LedgerRow row) {
    return new InFlight(row.attempt(), row.messageHash(), row.seqno(), row.validUntil().getEpochSecond());
  }

  private WalletState load(String key, long subwalletId) {
    WalletState state = wallets.get(key);
    return state != null ? state : WalletState.empty(subwalletId);
  }

  private void markReadyIfSo(String key, WalletState state) {
    if (state.readyToIssue()) {
      readyWallets.add(key);
    }
  }

}
