package org.tonpayouts.local;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.tonpayouts.schemas.SettlementStatus;

/**
 * The benchmark's figures: throughput against the {@code wallets / block interval} limit, latency
 * added beyond the chain's, API calls per settled transfer and the peak heap of every process,
 * printed with how each was measured.
 */
public record BenchReport(int wallets, long blockMillis, int transfersPerWallet, Settling settling,
                          AddedLatency latency, long skippedBlocks, ApiCallCounts apiCalls, CpuTimes cpu,
                          Map<String, OptionalLong> childPeakHeap, long launcherPeakHeap) {
  public int settled() {
    return settling.count(SettlementStatus.SETTLED);
  }

  /** Settled transfers per second, from the first request produced to the last settlement received. */
  public double throughput() {
    double seconds = settling.loadToLastSettlementSeconds();
    return seconds <= 0 ? 0 : settled() / seconds;
  }

  /**
   * Settled transfers per second over the second half of the settlements (the later half by arrival):
   * the rate once the JVMs have warmed up, which the whole-run figure understates.
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

  /** The chain's limit: each wallet settles at most one transfer per block. */
  public double limit() {
    return wallets * 1000.0 / blockMillis;
  }

  public double efficiency() {
    return throughput() / limit();
  }

  public double apiCallsPerTransfer() {
    return settled() == 0 ? 0 : (double) apiCalls.total() / settled();
  }

  public void print(PrintWriter out) {
    out.println();
    out.printf("Benchmark: %d wallets x %d transfers, devnet block %d ms%n", wallets, transfersPerWallet, blockMillis);
    out.printf("  settled transfers     %d of %d in %.1f s%n", settled(), wallets * transfersPerWallet,
        settling.loadToLastSettlementSeconds());
    settling.stoppedBecause().ifPresent(why -> out.printf("  PARTIAL RUN           %s; the figures cover what"
        + " settled by then%n", why.lines().findFirst().orElse(why)));
    out.printf("  throughput            %.1f settled transfers/s%n", throughput());
    out.printf("  second half           %.1f settled transfers/s (later half of the settlements, JVMs warm)%n",
        secondHalfThroughput());
    out.printf("  limit W/L             %.1f transfers/s (one transfer per wallet per block)%n", limit());
    out.printf("  efficiency            %.2f (throughput / limit); second half %.2f%n", efficiency(),
        secondHalfThroughput() / limit());
    out.printf("  added latency         p50 %d ms, p99 %d ms, max %d ms (%d transfers measured, %d not)%n",
        latency.percentile(50), latency.percentile(99), latency.max(), latency.millis().size(), latency.unmeasured());
    out.printf("  API calls             %.2f per settled transfer (%d calls:%s)%n", apiCallsPerTransfer(),
        apiCalls.total(), perMethod());
    double seconds = Math.max(0.001, settling.loadToLastSettlementSeconds());
    out.printf("  CPU                   %.1f ms per settled transfer, %.2f cores busy (%s)%n",
        (double) cpu.total().toMillis() / Math.max(1, settled()), cpu.total().toMillis() / 1000.0 / seconds,
        perProcessCpu());
    childPeakHeap.forEach((name, peak) -> out.printf("  peak heap %-12s %s (of -Xmx256m)%n", name,
        peak.isPresent() ? PeakHeap.megabytes(peak.getAsLong()) : "no GC ran"));
    out.printf("  peak heap %-12s %s (Kafka broker, devnet, consumers; upper bound)%n", "launcher",
        PeakHeap.megabytes(launcherPeakHeap));
    out.println("  how it was measured:");
    out.println("    throughput: settled transfers / time from producing the first request to receiving the last"
        + " settlement (read_committed consumer in the launcher); includes the ramp-up of the first block.");
    out.println("    added latency: per transfer, arrival of its settlement at the launcher minus the moment the"
        + " devnet block holding its transaction became visible (devnet utime has whole seconds only, so a"
        + " thread in the launcher, the JVM devnet runs in, records each block's millisecond time as it is"
        + " produced" + (skippedBlocks > 0 ? "; " + skippedBlocks + " blocks took a later block's time" : "") + ").");
    out.println("    API calls: HTTP requests of streams-app and chain-poller to devnet while the load ran, counted from"
        + " the TON API client's per-request log lines (retries included), divided by settled transfers.");
    out.println("    CPU: each process's CPU time (OS accounting) while the load ran, per settled transfer;"
        + " launcher = Kafka broker + devnet + load + watcher, postgres = server and backends.");
    out.println("    peak heap: children from their -Xlog:gc logs (largest heap occupancy before a collection);"
        + " launcher from its memory pool MXBeans. Ledger: embedded PostgreSQL with synchronous_commit=on,"
        + " fsync=off.");
    out.flush();
  }

  private String perProcessCpu() {
    StringBuilder b = new StringBuilder();
    int n = Math.max(1, settled());
    cpu.byProcess().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
      if (b.length() > 0) {
        b.append(", ");
      }
      b.append(String.format("%s %.1f ms", e.getKey(), (double) e.getValue().toMillis() / n));
    });
    return b.toString();
  }

  private String perMethod() {
    StringBuilder b = new StringBuilder();
    int settled = Math.max(1, settled());
    apiCalls.byMethod().forEach((method, n) -> b.append(String.format(" %s %.2f", method, (double) n / settled)));
    return b.toString();
  }
}
