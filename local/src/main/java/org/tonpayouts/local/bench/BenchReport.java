package org.tonpayouts.local.bench;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.StringJoiner;
import org.tonpayouts.local.measure.AddedLatency;
import org.tonpayouts.local.measure.CpuTimes;
import org.tonpayouts.local.measure.LoadLatency;
import org.tonpayouts.local.measure.PeakHeap;
import org.tonpayouts.local.measure.ThreadTimes;
import org.tonpayouts.local.stack.ChildSpec;

/**
 * Every figure of one benchmark run, printed a line each with how it was measured: the pipeline's
 * throughput against {@code wallets / block interval} and against devnet's own measured capacity,
 * latency added beyond the chain's, API calls per transfer (by process and method), CPU per settled
 * transfer and at idle, peak heaps, the per-wallet-loop peer side by side, the same load with
 * failing sends, and the targets.
 *
 * @param cores processors the JVM sees (the machine's, on these hosts)
 * @param loadAverage the machine's one-minute load average when the run started (negative: unknown)
 * @param clientInFlight requests the benchmark's own clients (capacity sender, peer) keep in flight at most
 * @param warmupTransfers transfers the pipeline paid before the measured load (not measured)
 * @param jetton the same load paying the run's jetton instead of TON, when measured
 */
public record BenchReport(int wallets, long blockMillis, int transfersPerWallet, int cores, double loadAverage,
                          PipelinePhase pipeline, Optional<IdleCpu> idle, Optional<DevnetCapacity.Result> capacity,
                          Optional<PeerLoop.Result> peer, SendFaults sendFaults, Optional<PipelinePhase> faulted,
                          long skippedBlocks, Map<String, OptionalLong> childPeakHeap, long launcherPeakHeap,
                          int clientInFlight, int warmupTransfers, Optional<PipelinePhase> jetton) {
  /** Without a jetton load. */
  public BenchReport(int wallets, long blockMillis, int transfersPerWallet, int cores, double loadAverage,
      PipelinePhase pipeline, Optional<IdleCpu> idle, Optional<DevnetCapacity.Result> capacity,
      Optional<PeerLoop.Result> peer, SendFaults sendFaults, Optional<PipelinePhase> faulted, long skippedBlocks,
      Map<String, OptionalLong> childPeakHeap, long launcherPeakHeap, int clientInFlight, int warmupTransfers) {
    this(wallets, blockMillis, transfersPerWallet, cores, loadAverage, pipeline, idle, capacity, peer, sendFaults,
        faulted, skippedBlocks, childPeakHeap, launcherPeakHeap, clientInFlight, warmupTransfers, Optional.empty());
  }

  /** The chain's limit: each wallet settles at most one transfer per block. */
  public double limit() {
    return wallets * 1000.0 / blockMillis;
  }

  /** E: the pipeline's settled transfers per second over the limit. */
  public double efficiency() {
    return pipeline.throughput() / limit();
  }

  public void print(PrintWriter out) {
    out.println();
    out.printf("Benchmark: %d wallets x %d transfers, devnet block %d ms, %d cores%s; %s%n", wallets,
        transfersPerWallet, blockMillis, cores, loadAverage >= 0 ? String.format(" (load average %.2f at the start)",
            loadAverage) : "", warmupTransfers > 0 ? "measured after a warm-up load of " + warmupTransfers
            + " transfers" : "no warm-up load");
    printPipeline(out, "Pipeline (streams-app + chain-poller)", pipeline, true);
    jetton.ifPresent(j -> {
      printPipeline(out, "Pipeline paying a jetton (the same load, 1 USDT each instead of TON; the run's stablecoin"
          + " jetton on devnet)", j, false);
      out.printf("  beside TON            %.2f x the TON load's throughput; added latency p50 %+d ms; API calls %+.2f"
              + " per transfer%n", pipeline.throughput() <= 0 ? 0 : j.throughput() / pipeline.throughput(),
          j.latency().added().percentile(50) - pipeline.latency().added().percentile(50),
          j.apiCallsPerTransfer() - pipeline.apiCallsPerTransfer());
    });
    capacity.ifPresent(c -> printCapacity(out, c));
    peer.ifPresent(p -> printPeer(out, p));
    faulted.ifPresent(f -> printPipeline(out, String.format("Pipeline with %.0f %% of sends failing (half HTTP 429,"
        + " half silently dropped; reads unaffected)", sendFaults.rate() * 100), f, false));
    printTargets(out);
    printHow(out);
    out.flush();
  }

  private void printPipeline(PrintWriter out, String title, PipelinePhase p, boolean main) {
    out.println(title);
    out.printf("  settled transfers     %d of %d in %.1f s%n", p.settled(), p.load().transferCount(), p.seconds());
    p.settling().stoppedBecause().ifPresent(why -> out.printf("  PARTIAL RUN           %s; the figures cover what"
        + " settled by then%n", why.lines().findFirst().orElse(why)));
    out.printf("  throughput            %.1f settled transfers/s; second half %.1f/s (later half of the settlements)%n",
        p.throughput(), p.secondHalfThroughput());
    out.printf("  efficiency E          %.3f of W/L = %.1f transfers/s; second half %.3f%n", p.throughput() / limit(),
        limit(), p.secondHalfThroughput() / limit());
    capacity.filter(c -> c.perSecond() > 0).ifPresent(c -> out.printf(
        "  against devnet        %.3f of devnet's measured capacity (%.1f transfers/s)%n",
        p.throughput() / c.perSecond(), c.perSecond()));
    if (main) {
      peer.filter(peer -> peer.perSecond() > 0).ifPresent(peer -> out.printf(
          "  against the peer      %.2f x the peer's throughput (%.1f transfers/s)%n",
          p.throughput() / peer.perSecond(), peer.perSecond()));
    }
    printLatency(out, p.latency());
    AddedLatency delivery = p.delivery();
    out.printf("  of it, last hop       p50 %d ms, p99 %d ms (settlement forwarded by streams-app to received)%n",
        delivery.percentile(50), delivery.percentile(99));
    out.printf("  API calls             %.2f per settled transfer (%d): %s%n", p.apiCallsPerTransfer(), p.calls().total(),
        perTransfer(p.calls().byProcessAndMethod(), p.settled()));
    if (!p.calls().failures().isEmpty()) {
      out.printf("  API calls not ok      %s%n", counts(p.calls().failures()));
    }
    p.faults().ifPresent(f -> out.printf("  devnet faults fired   %d sends answered 429, %d sends dropped%n",
        f.rateLimited(), f.dropped()));
    out.printf("  CPU per transfer      streams-app + chain-poller %.2f ms; %s%s%n", p.appsCpuMillisPerTransfer(),
        cpuPerTransfer(p), p.cpu().jit().isEmpty() ? "" : " (of it JIT compiling: " + jitPerTransfer(p) + ")");
    printThreads(out, p);
    out.printf("  CPU busy              stack %.2f cores%s%n", p.stackCores(),
        p.otherCores().map(c -> String.format("; other processes of the machine %.2f cores", c)).orElse(""));
    if (main) {
      idle.ifPresent(i -> {
        out.printf("  idle CPU              %s of a core; stack %.1f %%%s (over %.1f s, from %.1f s after the load"
                + " drained: %s)%n",
            percents(i.percentByProcess()), i.stackPercent(), i.othersPercent()
                .map(o -> String.format(", other processes %.1f %%", o)).orElse(""), i.window().toMillis() / 1000.0,
            i.restAfter().toMillis() / 1000.0, i.atRest()
                ? "at rest, no API call for " + IdleCpu.QUIET.toSeconds() + " s"
                : "NOT at rest, still calling the API after " + IdleCpu.MAX_WAIT.toSeconds() + " s");
        if (!i.jitPercentByProcess().isEmpty()) {
          out.printf("  of it, JIT compiling  %s (the JVMs still compiling what the load made hot)%n",
              percents(i.jitPercentByProcess()));
        }
      });
      childPeakHeap.forEach((name, peak) -> out.printf("  peak heap %-12s %s (of %s)%n", name,
          peak.isPresent() ? PeakHeap.megabytes(peak.getAsLong()) : "no GC ran", ChildSpec.MAX_HEAP));
      out.printf("  peak heap %-12s %s (Kafka broker, devnet, watcher, peer; upper bound)%n", "launcher",
          PeakHeap.megabytes(launcherPeakHeap));
    }
  }

  private void printCapacity(PrintWriter out, DevnetCapacity.Result c) {
    out.println("devnet's own capacity (pre-signed messages, one per wallet per block, same devnet, fresh wallets)");
    c.stoppedBecause().ifPresent(why -> out.printf("  PARTIAL RUN           %s%n", why));
    out.printf("  applied               %d of %d in %.1f s: %.1f transfers/s (%.3f of W/L)%n", c.applied(),
        c.wallets() * c.rounds(), c.elapsedMillis() / 1000.0, c.perSecond(), c.perSecond() / limit());
    out.printf("  sends                 %d requests (%d failed and sent again), at most %d in flight; signing"
        + " beforehand took %.1f s%n", c.calls().total(), c.sendFailures(), c.maxInFlight(), c.signMillis() / 1000.0);
    out.printf("  CPU per transfer      launcher (devnet + sender) %.2f ms; stack %.2f cores busy%s%n",
        c.applied() == 0 ? 0 : (double) c.cpu().of(CpuTimes.LAUNCHER).toMillis() / c.applied(),
        c.cpu().total().toMillis() / Math.max(1.0, c.elapsedMillis()), c.cpu().others()
            .map(o -> String.format("; other processes %.2f cores", o.toMillis() / Math.max(1.0, c.elapsedMillis())))
            .orElse(""));
  }

  private void printPeer(PrintWriter out, PeerLoop.Result p) {
    out.printf("Peer: a loop per wallet (read seqno, sign, send, read every %d ms until the seqno moves), all wallets"
        + " at once, same devnet, fresh wallets%n", p.pollInterval().toMillis());
    p.stoppedBecause().ifPresent(why -> out.printf("  PARTIAL RUN           %s%n", why));
    out.printf("  settled transfers     %d of %d in %.1f s: %.1f transfers/s (E %.3f)%n", p.settled(),
        p.wallets() * p.perWallet(), p.elapsedMillis() / 1000.0, p.perSecond(), p.perSecond() / limit());
    printLatency(out, p.latency());
    out.printf("  cycle                 p50 %d ms, p99 %d ms (start of an iteration to seeing its transfer applied)%n",
        p.cycle().percentile(50), p.cycle().percentile(99));
    out.printf("  API calls             %.2f per transfer (%d): %s; %d sends failed, %d transfers started over%n",
        p.apiCallsPerTransfer(), p.calls().total(), perTransfer(p.calls().byProcessAndMethod(), p.settled()),
        p.sendFailures(), p.restarts());
    out.printf("  CPU per transfer      launcher (peer + devnet) %.2f ms%n",
        p.settled() == 0 ? 0 : (double) p.cpu().of(CpuTimes.LAUNCHER).toMillis() / p.settled());
  }

  private static void printLatency(PrintWriter out, LoadLatency latency) {
    AddedLatency added = latency.added();
    AddedLatency settle = latency.settlePath();
    out.printf("  added latency         p50 %d ms, p99 %d ms, max %d ms (%d transfers measured, %d not)%n",
        added.percentile(50), added.percentile(99), added.max(), added.millis().size(), added.unmeasured());
    out.printf("  of it, settle path    p50 %d ms, p99 %d ms, max %d ms (from the transfer's own block)%n",
        settle.percentile(50), settle.percentile(99), settle.max());
  }

  private void printTargets(PrintWriter out) {
    out.printf("Targets of the issue (400 ms blocks, 2 cores; this run: %d ms, %d cores)%n", blockMillis, cores);
    for (BenchTargets.Target t : BenchTargets.evaluate(this)) {
      out.printf("  %-14s %-14s %s (goal: %s)%n", t.name(), t.verdict(), t.measured(), t.goal());
    }
  }

  private void printHow(PrintWriter out) {
    out.println("How it was measured");
    out.println("  throughput: settled transfers / time from producing the first request to receiving the last"
        + " settlement (read_committed consumer in the launcher, from the topic's end before the load); includes"
        + " the ramp-up of the first block. W/L: wallets / block interval. "
        + (warmupTransfers > 0 ? "Before it, " + warmupTransfers + " transfers on the same wallets, not measured, so"
            + " the JVMs have compiled what is hot." : "No warm-up load: the figures include the JVMs compiling."));
    out.println("  devnet capacity: before the pipeline's load, on the same devnet and an equal number of fresh"
        + " wallets, every message signed beforehand (one per wallet per round, seqnos 0, 1, ...); each wallet's next"
        + " one sent over HTTP (the apps' TON API client, at most " + clientInFlight + " requests in flight) as soon"
        + " as the launcher sees in-process the block that applied its previous one; applied transfers / time from"
        + " the first send to the block applying the last.");
    out.println("  peer: after the pipeline's load, the same devnet and an equal number of fresh wallets; its own TON"
        + " API client (at most " + clientInFlight + " requests in flight) on a devnet API node of its own;"
        + " throughput = transfers seen applied / time from the first loop's start to the last one seen.");
    out.println("  added latency: per transfer, arrival of its settlement at the launcher (peer: the read that saw"
        + " the seqno move) minus the moment the earliest block that could have held it became visible: the block"
        + " after the one holding the wallet's previous transfer of the load (a wallet applies one message per"
        + " block), or its own block for the wallet's first; so a missed block, a retry or a lost send counts in"
        + " full. Settle path: the same minus its own block instead, the return path alone. Last hop: from the"
        + " settlement's record timestamp (streams-app forwarding it) to its arrival, streams-app's commit and"
        + " Kafka's delivery of it. Block times: devnet"
        + " utime has whole seconds only, so a thread in the launcher, the JVM devnet runs in, records each block's"
        + " millisecond time as it is produced" + (skippedBlocks > 0 ? "; " + skippedBlocks
        + " blocks took a later block's time" : "") + ".");
    out.println("  API calls: every HTTP request of the TON API client, retries included, from the processes' own"
        + " meters (ton_api_requests_seconds_count{method,outcome} on each child's metrics port, scraped before"
        + " and after the load; the launcher's clients count into the same meter), divided by settled transfers.");
    out.println("  CPU: each process's CPU time (OS accounting) over the phase; launcher = Kafka broker + devnet +"
        + " watcher (+ the capacity sender or the peer in their phases), postgres = server and backends; other"
        + " processes = the machine's busy time (/proc/stat) minus the stack's. Idle: the same over a fixed"
        + " window once the stack is at rest after the pipeline's load (no API call by either app for 2 s: the"
        + " poller follows blocks while it watches payouts for a bounce), or 90 s after the load drained."
        + " By thread: each JVM's live threads (/proc/<pid>/task) grouped by the kernel's name for them (the first"
        + " 15 characters of the Java name, digits as N); threads that ended = the process's time minus its live"
        + " threads' (the kernel counts each thread in 10 ms ticks, so this is good to about 10 ms per thread).");
    out.println("  peak heap: children from their -Xlog:gc logs (largest heap occupancy before a collection);"
        + " launcher from its memory pool MXBeans. Ledger: embedded PostgreSQL with synchronous_commit=on,"
        + " fsync=off. The children log no line per API request in a benchmark.");
    out.printf("  JVMs: children with %s, launcher with %s (PAYOUTS_JAVA_OPTS; see docs/local-stack.md on C1 and the collector for the local"
        + " stack).%n", jvmOptions(ChildSpec.javaOptions(System.getenv())),
        jvmOptions(java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
            .filter(a -> a.startsWith("-XX:")).toList()));
    jetton.ifPresent(j -> out.println("  jetton load: after the TON load (and the idle window), the same number of"
        + " single-transfer requests per wallet paying 1 USDT each; a jetton transfer settles when the receiver's jetton"
        + " wallet accepted it, so its added latency is measured from the earliest block that acceptance could be in:"
        + " the block after the wallet's previous acceptance plus the hops the chain itself took (the wallet's"
        + " transaction to the receiver's), and the settle path from the acceptance's own block."));
    if (sendFaults.on()) {
      out.printf("  faults: devnet's default node (the children's) answers 429 to %.1f %% of sends and drops %.1f %%"
          + " of the rest silently (%.0f %% of sends fail in all); reads unaffected; the same load again after the"
          + " idle window.%n", sendFaults.rateLimitProbability() * 100, sendFaults.dropProbability() * 100,
          sendFaults.rate() * 100);
    }
  }

  private static String perTransfer(Map<String, Long> counts, int settled) {
    StringJoiner j = new StringJoiner(", ");
    counts.forEach((what, n) -> j.add(String.format("%s %.2f", what, settled == 0 ? 0 : (double) n / settled)));
    return j.length() == 0 ? "none" : j.toString();
  }

  private static String counts(Map<String, Long> counts) {
    StringJoiner j = new StringJoiner(", ");
    counts.forEach((what, n) -> j.add(what + " " + n));
    return j.toString();
  }

  private static String cpuPerTransfer(PipelinePhase p) {
    StringJoiner j = new StringJoiner(", ");
    new java.util.TreeMap<>(p.cpu().byProcess()).forEach((name, d) -> j.add(String.format("%s %.2f", name,
        p.perSettled(d.toNanos() / 1e6))));
    return j + " ms";
  }

  /** Thread groups shown per process; the rest are summed. */
  static final int THREAD_GROUPS_SHOWN = 6;

  /** Where each JVM's CPU went, by thread group, in ms per settled transfer. */
  private static void printThreads(PrintWriter out, PipelinePhase p) {
    String label = "  of it, by thread     ";
    for (var process : new java.util.TreeMap<>(p.cpu().threads()).entrySet()) {
      out.printf("%s%s: %s%n", label, process.getKey(), threadsPerTransfer(p, process.getKey(), process.getValue()));
      label = " ".repeat(label.length());
    }
  }

  static String threadsPerTransfer(PipelinePhase p, String process, ThreadTimes threads) {
    StringJoiner j = new StringJoiner(", ");
    Duration rest = Duration.ZERO;
    int shown = 0;
    for (var group : threads.byGroup().entrySet()) {
      if (shown++ < THREAD_GROUPS_SHOWN) {
        j.add(String.format("%s %.2f", group.getKey(), p.perSettled(group.getValue().toNanos() / 1e6)));
      } else {
        rest = rest.plus(group.getValue());
      }
    }
    if (!rest.isZero()) {
      j.add(String.format("other threads %.2f", p.perSettled(rest.toNanos() / 1e6)));
    }
    p.cpu().endedThreads(process)
        .ifPresent(ended -> j.add(String.format("threads that ended %.2f", p.perSettled(ended.toNanos() / 1e6))));
    return j + " ms";
  }

  private static String jitPerTransfer(PipelinePhase p) {
    StringJoiner j = new StringJoiner(", ");
    new java.util.TreeMap<>(p.cpu().jit()).forEach((name, d) -> j.add(String.format("%s %.2f", name,
        p.perSettled(d.toNanos() / 1e6))));
    return j + " ms";
  }

  private static String percents(Map<String, Double> percent) {
    StringJoiner j = new StringJoiner(", ");
    percent.forEach((name, pct) -> j.add(String.format("%s %.1f %%", name, pct)));
    return j.toString();
  }

  private static String jvmOptions(java.util.List<String> options) {
    return options.isEmpty() ? "the JVM's defaults" : String.join(" ", options);
  }
}
