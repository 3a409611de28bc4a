package org.tonpayouts.local.bench;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.tonpayouts.devnet.Faults;
import org.tonpayouts.local.measure.AddedLatency;
import org.tonpayouts.local.measure.ApiCallCounts;
import org.tonpayouts.local.measure.CpuTimes;
import org.tonpayouts.local.measure.LoadLatency;
import org.tonpayouts.local.measure.ObservedSettlement;
import org.tonpayouts.local.measure.PayoutLoad;
import org.tonpayouts.local.measure.Settling;
import org.tonpayouts.local.stack.ChildConfig;
import org.tonpayouts.schemas.SettlementStatus;

/**
 * One load the pipeline (streams-app and chain-poller) paid during the benchmark, and what it cost:
 * settlements as the launcher received them, latency added beyond the chain's, the children's API
 * requests (their own meters) and every process's CPU time.
 *
 * @param faults the devnet faults that fired during the load, when a fault rate was on
 */
public record PipelinePhase(PayoutLoad load, Settling settling, LoadLatency latency, ApiCallCounts calls, CpuTimes cpu,
                            Optional<Faults.Counts> faults) {
  /** Every transfer of the load has a settlement (the run was not cut short). */
  public boolean complete() {
    return settling.stoppedBecause().isEmpty() && settling.missing() == 0;
  }

  public int settled() {
    return settling.count(SettlementStatus.SETTLED);
  }

  public double seconds() {
    return settling.loadToLastSettlementSeconds();
  }

  /** Settled transfers per second, from the first request produced to the last settlement received. */
  public double throughput() {
    double seconds = seconds();
    return seconds <= 0 ? 0 : settled() / seconds;
  }

  /**
   * Settled transfers per second over the later half of the settlements (by arrival): the rate once
   * the JVMs have warmed up, which the whole-run figure understates.
   */
  public double secondHalfThroughput() {
    List<ObservedSettlement> all = settling.settlements();
    if (all.size() < 4) {
      return throughput();
    }
    long from = all.get(all.size() / 2 - 1).observedAtMillis();
    long to = all.get(all.size() - 1).observedAtMillis();
    return to <= from ? 0 : (all.size() - all.size() / 2) * 1000.0 / (to - from);
  }

  /**
   * Per settlement, from when streams-app forwarded it (the record's timestamp) to when the launcher
   * received it: the last Kafka hop of the return path (streams-app's exactly-once commit, the
   * transaction markers, the fetch). The local stack runs on one host, so the two clocks are one.
   */
  public AddedLatency delivery() {
    return AddedLatency.of(settling.settlements().stream()
        .map(o -> o.observedAtMillis() - o.producedAtMillis()).toList());
  }

  public double apiCallsPerTransfer() {
    return perSettled(calls.total());
  }

  /** CPU milliseconds per settled transfer of {@code process}. */
  public double cpuMillisPerTransfer(String process) {
    return perSettled(cpu.of(process).toNanos() / 1e6);
  }

  /** CPU milliseconds per settled transfer of the two payout processes together: the pipeline's own cost. */
  public double appsCpuMillisPerTransfer() {
    return perSettled(cpu.of(ChildConfig.STREAMS_APP).plus(cpu.of(ChildConfig.CHAIN_POLLER)).toNanos() / 1e6);
  }

  /** Cores the whole stack kept busy on average while the load ran. */
  public double stackCores() {
    return cores(cpu.total());
  }

  /** Cores other processes of the machine kept busy meanwhile, when the OS tells. */
  public Optional<Double> otherCores() {
    return cpu.others().map(this::cores);
  }

  private double cores(Duration d) {
    return d.toMillis() / 1000.0 / Math.max(0.001, seconds());
  }

  /** {@code n} per settled transfer (0 when nothing settled). */
  public double perSettled(double n) {
    return settled() == 0 ? 0 : n / settled();
  }
}
