package org.tonpayouts.local.bench;

import java.util.ArrayList;
import java.util.List;
import org.tonpayouts.local.measure.AddedLatency;
import org.tonpayouts.local.measure.LoadLatency;

/**
 * The targets for the pipeline ("Close the loop inside one block"), checked against one
 * benchmark run: 400 ms blocks on 2 cores, E >= 0.95 at W=10 and >= 0.9 at W=100, at W=1000 at least
 * half of devnet's measured capacity; added latency p50 <= 100 ms and p99 <= 400 ms at W <= 100; at
 * most 3 API calls per transfer; at most 2 ms of streams-app + chain-poller CPU per settled transfer
 * at W=1000; at least 3x the peer at W=100 and W=1000; p99 added latency under 3 s with sends failing
 * at 10 %. A target that is about another wallet count is shown as not applying; a load that did not
 * settle completely misses every target it feeds (what settled by then would flatter it). Latency
 * targets use the full added latency ({@link LoadLatency}).
 */
public final class BenchTargets {
  /** How a run stands against one target. */
  public enum Verdict {
    MET, MISSED,
    /** The target is about another wallet count, block interval or fault rate. */
    NOT_APPLICABLE,
    /** The phase it needs did not run (skipped or failed). */
    NOT_MEASURED
  }

  /** One target: what it asks, what the run measured, and the verdict. */
  public record Target(String name, String goal, String measured, Verdict verdict) {}

  private static final long TARGET_BLOCK_MS = 400;
  private static final double FAULT_RATE = 0.1;

  private BenchTargets() {}

  public static List<Target> evaluate(BenchReport r) {
    List<Target> targets = new ArrayList<>();
    boolean blocks = r.blockMillis() == TARGET_BLOCK_MS;
    PipelinePhase p = r.pipeline();
    boolean whole = p.complete();
    AddedLatency added = p.latency().added();
    int w = r.wallets();
    if (w <= 100) {
      double goal = w <= 10 ? 0.95 : 0.9;
      targets.add(new Target("efficiency", String.format("E >= %.2f (W %s)", goal, w <= 10 ? "<= 10" : "<= 100"),
          String.format("E %.3f", r.efficiency()), verdict(blocks, whole && r.efficiency() >= goal)));
    } else {
      String goal = "throughput >= 0.5 x devnet capacity (W > 100)";
      targets.add(r.capacity().filter(c -> c.perSecond() > 0)
          .map(c -> new Target("efficiency", goal, String.format("%.2f x capacity (%.1f of %.1f/s)",
              p.throughput() / c.perSecond(), p.throughput(), c.perSecond()),
              verdict(blocks, whole && p.throughput() >= 0.5 * c.perSecond())))
          .orElse(new Target("efficiency", goal, "capacity not measured", Verdict.NOT_MEASURED)));
    }
    String latency = String.format("p50 %d ms, p99 %d ms", added.percentile(50), added.percentile(99));
    targets.add(new Target("added latency", "p50 <= 100 ms and p99 <= 400 ms (W <= 100)", latency,
        w <= 100 ? verdict(blocks, whole && added.percentile(50) <= 100 && added.percentile(99) <= 400)
            : Verdict.NOT_APPLICABLE));
    targets.add(new Target("API calls", "<= 3 per settled transfer", String.format("%.2f", p.apiCallsPerTransfer()),
        verdict(true, whole && p.apiCallsPerTransfer() <= 3)));
    targets.add(new Target("apps CPU", "streams-app + chain-poller <= 2 ms per settled transfer (W = 1000)",
        String.format("%.2f ms", p.appsCpuMillisPerTransfer()),
        w >= 1000 ? verdict(blocks, whole && p.appsCpuMillisPerTransfer() <= 2) : Verdict.NOT_APPLICABLE));
    String peerGoal = "pipeline >= 3 x peer (W = 100 and 1000)";
    targets.add(r.peer().filter(peer -> peer.perSecond() > 0)
        .map(peer -> new Target("vs peer", peerGoal, String.format("%.2f x", p.throughput() / peer.perSecond()),
            w >= 100 ? verdict(blocks, whole && p.throughput() >= 3 * peer.perSecond()) : Verdict.NOT_APPLICABLE))
        .orElse(new Target("vs peer", peerGoal, "peer not measured", Verdict.NOT_MEASURED)));
    String faultGoal = "p99 added latency < 3 s with 10 % of sends failing";
    targets.add(r.faulted()
        .map(f -> new Target("under faults", faultGoal, String.format("p99 %d ms at %.0f %%%s", f.latency().added()
            .percentile(99), r.sendFaults().rate() * 100, f.complete() ? "" : ", " + f.settling().missing()
            + " unsettled"), Math.abs(r.sendFaults().rate() - FAULT_RATE) > 1e-9 ? Verdict.NOT_APPLICABLE
            : verdict(blocks, f.complete() && f.latency().added().percentile(99) < 3000)))
        .orElse(new Target("under faults", faultGoal, "no fault phase (--send-fault-rate 0.1)",
            Verdict.NOT_MEASURED)));
    return targets;
  }

  private static Verdict verdict(boolean applies, boolean met) {
    if (!applies) {
      return Verdict.NOT_APPLICABLE;
    }
    return met ? Verdict.MET : Verdict.MISSED;
  }
}
