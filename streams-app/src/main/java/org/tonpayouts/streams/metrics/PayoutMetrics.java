package org.tonpayouts.streams.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.tonpayouts.schemas.SettlementStatus;

/**
 * Every metric of streams-app, declared once with its name, description and unit, so dashboards
 * and alerts have one place to look.
 */
public final class PayoutMetrics {
  private final MeterRegistry registry;
  private final Counter accepted;
  private final Counter rejected;
  private final Counter duplicates;
  private final Counter seqnoReads;
  private final Counter staleSeqnoReads;
  private final Counter seqnoMismatches;
  private final Counter signed;
  private final Counter sendBocs;
  private final Counter sendErrors;
  private final Counter expired;
  private final Timer issuingRound;
  private final Timer seqnoFetch;
  private final Timer seqnoFetchFailed;
  private final Counter conflicts;
  private final Counter backlogFull;
  private final Counter refusedBeforeSigning;
  private final Counter verdictOverdue;
  private final Counter recheckRequested;
  private final Counter ledgerContradictions;
  private final Counter ledgerRowsLost;
  private final Counter verdictsRefused;
  private final Counter fenced;
  private final Counter resent;
  /** Wallets whose head request is partly settled, and since when (this instance's tasks). */
  private final Map<String, Instant> partlySettled = new ConcurrentHashMap<>();
  private volatile boolean deploymentPaused;
  private volatile int pausedWallets;
  private final Counter heldByPause;
  private final Counter heldByCap;
  private volatile java.util.function.LongSupplier holdsWaiting = () -> 0;
  private volatile Clock clock = Clock.systemUTC();
  private volatile Duration batchIncompleteThreshold = Duration.ofMinutes(5);

  public PayoutMetrics(MeterRegistry registry) {
    this.registry = registry;
    accepted = Counter.builder("payout.requests.accepted").description("Requests accepted into a wallet queue").register(registry);
    rejected = Counter.builder("payout.requests.rejected").description("Requests sent to payout.rejected").register(registry);
    duplicates = Counter.builder("payout.requests.duplicate")
        .description("Requests ignored because their requestId was already accepted").register(registry);
    seqnoReads = Counter.builder("ton.api.seqno_reads").description("Fresh seqno reads").register(registry);
    staleSeqnoReads = Counter.builder("ton.tx.stale_seqno_reads")
        .description("Seqno reads below the last applied seqno + 1, never signed with").register(registry);
    seqnoMismatches = Counter.builder("ton.tx.seqno_mismatch")
        .description("Seqno reads above the expected value: another signer used the wallet").register(registry);
    signed = Counter.builder("ton.tx.signed").description("External messages signed").register(registry);
    sendBocs = Counter.builder("ton.api.send_boc").description("sendBoc calls (first sends and re-sends)").register(registry);
    sendErrors = Counter.builder("ton.api.send_errors")
        .description("sendBoc calls without an acknowledgement (message still watched)").register(registry);
    expired = Counter.builder("ton.tx.expired").description("Messages that provably never applied").register(registry);
    issuingRound = Timer.builder("payout.issuing_round").description("Duration of one issuing round")
        .publishPercentiles(0.5, 0.99).register(registry);
    seqnoFetch = Timer.builder("ton.tx.seqno_fetch.duration")
        .description("Fresh wallet reads (seqno, balance, node time) before signing").tag("outcome", "ok")
        .publishPercentiles(0.5, 0.99).register(registry);
    seqnoFetchFailed = Timer.builder("ton.tx.seqno_fetch.duration")
        .description("Fresh wallet reads (seqno, balance, node time) before signing").tag("outcome", "failed")
        .register(registry);
    conflicts = Counter.builder("payout.requests.conflict")
        .description("Requests refused because their requestId was accepted before with other content").register(registry);
    backlogFull = Counter.builder("payout.requests.backlog_full")
        .description("Requests refused because their wallet's backlog was full").register(registry);
    refusedBeforeSigning = Counter.builder("ton.tx.refused_before_signing")
        .description("Transfers failed before signing (the wallet could not pay them, or no attempts left)")
        .register(registry);
    verdictOverdue = Counter.builder("ton.tx.verdict_overdue")
        .description("Transfers re-checked because no verdict came well past valid_until").register(registry);
    recheckRequested = Counter.builder("ton.tx.recheck_requested")
        .description("Transfers handed back to the poller to re-establish their outcome from the chain").register(registry);
    ledgerContradictions = Counter.builder("ton.tx.ledger_contradiction")
        .description("Verdicts that contradicted the ledger (audited; an operator must look)").register(registry);
    ledgerRowsLost = Counter.builder("ton.tx.ledger_rows_lost")
        .description("Transfers a wallet waits on that the ledger has no row of (a failover to an asynchronous"
            + " replica, a restore): the wallet signs nothing more until an operator restores them (audited"
            + " LEDGER_ROWS_LOST)").register(registry);
    verdictsRefused = Counter.builder("ton.tx.verdicts_refused")
        .description("Records of payout.confirmations not applied because no verdict key verifies them (or a verdict"
            + " under another wallet's key): someone other than chain-poller wrote them (audited VERDICT_REFUSED)")
        .register(registry);
    fenced = Counter.builder("ton.tx.fenced")
        .description("Intents refused because a newer owner took the task's partition (a zombie instance): nothing"
            + " was signed or sent; the counterpart of a lock timeout").register(registry);
    resent = Counter.builder("ton.tx.resent")
        .description("Re-sends of the same signed message (no verdict after a few blocks, or a failed send)")
        .register(registry);
    Gauge.builder("payout.paused.deployment", this, m -> m.deploymentPaused ? 1 : 0)
        .description("1 while an operator's pause stops signing for the whole deployment (as this instance last read"
            + " the ledger), else 0").register(registry);
    Gauge.builder("payout.paused.wallets", this, m -> m.pausedWallets)
        .description("Subwallets an operator paused on their own (as this instance last read the ledger)")
        .register(registry);
    heldByPause = Counter.builder("payout.issuing.held_by_pause")
        .description("Times a wallet's next transfer was not signed because an operator's pause covers the wallet")
        .register(registry);
    heldByCap = Counter.builder("payout.issuing.held_by_cap")
        .description("Times a wallet's next transfer was not recorded because a rolling spend cap holds it (every"
            + " try; new holds are the SPEND_CAP_HELD audit events)").register(registry);
    Gauge.builder("payout.caps.holds.waiting", this, m -> m.holdsWaiting.getAsLong())
        .description("Transfers a rolling spend cap holds back, waiting for the window or an operator's release"
            + " (read from the ledger at each scrape, the same for every instance)").register(registry);
    Gauge.builder("ton.tx.batch.incomplete", this, PayoutMetrics::incompleteBatches)
        .description("Requests with some transfers settled and others open for longer than the threshold")
        .register(registry);
  }

  /** Configures the {@code ton.tx.batch.incomplete} gauge: its clock and threshold. */
  public PayoutMetrics batchIncomplete(Clock clock, Duration threshold) {
    this.clock = clock;
    this.batchIncompleteThreshold = threshold;
    return this;
  }

  private double incompleteBatches() {
    Instant cutoff = clock.instant().minus(batchIncompleteThreshold);
    return partlySettled.values().stream().filter(since -> since.isBefore(cutoff)).count();
  }

  /** The wallet's head request is partly settled since {@code since}, or (null) not any more. */
  public void partlySettled(String walletKey, Instant since) {
    if (since == null) {
      partlySettled.remove(walletKey);
    } else {
      partlySettled.put(walletKey, since);
    }
  }

  /** The pauses in force as last read from the ledger. */
  public void pausesInForce(boolean deployment, int wallets) {
    deploymentPaused = deployment;
    pausedWallets = wallets;
  }

  /** A wallet's next transfer was held back by a pause. */
  public void heldByPause() {
    heldByPause.increment();
  }

  /** A wallet's next transfer was held back by a spend cap. */
  public void heldByCap() {
    heldByCap.increment();
  }

  /** Where the {@code payout.caps.holds.waiting} gauge reads the holds waiting (the ledger). */
  public void spendHolds(java.util.function.LongSupplier waiting) {
    this.holdsWaiting = waiting;
  }

  /** Metrics kept in memory only (tests, tools). */
  public static PayoutMetrics inMemory() {
    return new PayoutMetrics(new SimpleMeterRegistry());
  }

  public MeterRegistry registry() {
    return registry;
  }

  public void accepted() { accepted.increment(); }
  public void rejected() { rejected.increment(); }
  public void duplicate() { duplicates.increment(); }
  public void seqnoRead() { seqnoReads.increment(); }
  public void staleSeqnoRead() { staleSeqnoReads.increment(); }
  public void seqnoMismatch() { seqnoMismatches.increment(); }
  public void signed() { signed.increment(); }
  public void sendBoc() { sendBocs.increment(); }
  public void sendError() { sendErrors.increment(); }
  public void expired() { expired.increment(); }

  public void seqnoFetch(Duration took, boolean ok) {
    (ok ? seqnoFetch : seqnoFetchFailed).record(took);
  }

  public void conflict() { conflicts.increment(); }
  public void backlogFull() { backlogFull.increment(); }
  public void refusedBeforeSigning() { refusedBeforeSigning.increment(); }
  public void verdictOverdue() { verdictOverdue.increment(); }
  public void recheckRequested() { recheckRequested.increment(); }
  public void ledgerContradiction() { ledgerContradictions.increment(); }
  public void ledgerRowsLost() { ledgerRowsLost.increment(); }
  public void verdictRefused() { verdictsRefused.increment(); }
  public void fenced() { fenced.increment(); }
  public void resent() { resent.increment(); }

  public void issuingRound(Duration took) {
    issuingRound.record(took);
  }

  public void settled(SettlementStatus status) {
    registry.counter("payout.transfers.settled", "status", status.name()).increment();
  }

  public double count(String name) {
    Counter c = registry.find(name).counter();
    return c == null ? 0 : c.count();
  }

  // ---- the audit topic, the outboxes and the admin API (added with them) -------------------------

  /** Audit events published to {@code payout.audit}, by level and event (each instance counts what it published). */
  public void auditEvent(String level, String event) {
    Counter.builder("payout.audit.events").description("Audit events published to payout.audit")
        .tag("level", level).tag("event", event).register(registry).increment();
  }

  /** A publication of an outbox ({@code audit} or {@code settlements}) failed; its rows are sent again later. */
  public void outboxFailure(String outbox) {
    Counter.builder("payout.outbox.failures").description("Outbox publications that failed and will be repeated")
        .tag("outbox", outbox).register(registry).increment();
  }

  /** Settlements of operators' resolutions published to {@code payout.settlements}. */
  public void resolutionPublished(String status) {
    Counter.builder("payout.resolutions.published")
        .description("Settlements of operators' resolutions published to payout.settlements")
        .tag("status", status).register(registry).increment();
  }

  /** One admin API call: its endpoint (the route, not the path), HTTP status and duration. */
  public void adminCall(String endpoint, int status, Duration took) {
    Timer.builder("payout.admin.requests").description("Admin API calls by endpoint and HTTP status")
        .tag("endpoint", endpoint).tag("status", Integer.toString(status)).register(registry).record(took);
  }
}
