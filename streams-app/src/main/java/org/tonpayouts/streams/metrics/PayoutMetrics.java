package org.tonpayouts.streams.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
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
}
