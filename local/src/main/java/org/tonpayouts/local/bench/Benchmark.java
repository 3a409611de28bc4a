package org.tonpayouts.local.bench;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.devnet.Faults;
import org.tonpayouts.local.audit.LedgerAudit;
import org.tonpayouts.local.measure.ApiCallCounts;
import org.tonpayouts.local.measure.BlockClock;
import org.tonpayouts.local.measure.ChainBlocks;
import org.tonpayouts.local.measure.CpuTimes;
import org.tonpayouts.local.measure.LoadLatency;
import org.tonpayouts.local.measure.ObservedSettlement;
import org.tonpayouts.local.measure.PayoutLoad;
import org.tonpayouts.local.measure.PeakHeap;
import org.tonpayouts.local.measure.Settler;
import org.tonpayouts.local.measure.Settling;
import org.tonpayouts.local.measure.Summary;
import org.tonpayouts.local.stack.StackRun;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.schemas.JettonDelivery;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.ton.address.TonAddress;

/**
 * The phases of one benchmark run on a started stack, one after the other so none disturbs another:
 * devnet's own capacity (fresh wallets), a warm-up load (not measured: the JVMs compile what is hot
 * and a short measured load would mostly measure that), the pipeline's load, an idle window, the
 * same load with failing sends (when asked), the per-wallet-loop peer (fresh wallets); then the
 * children stop and the ledger is audited.
 */
public final class Benchmark {
  /** Phases that can be left out of a run (to iterate quickly; a full run has them all). */
  public enum Phase { CAPACITY, IDLE, JETTON, PEER }

  /**
   * How to run it.
   *
   * @param clientInFlight requests the capacity sender and the peer keep in flight at most
   */
  public record Settings(int transfersPerWallet, int warmupTransfers, Duration idleWindow, SendFaults sendFaults,
                         Duration peerPollInterval, int clientInFlight, Set<Phase> skip) {
    public Settings {
      if (warmupTransfers < 0) {
        throw new IllegalArgumentException("--warmup-transfers must not be negative, got " + warmupTransfers);
      }
      if (transfersPerWallet < 1) {
        throw new IllegalArgumentException("--transfers-per-wallet must be at least 1, got " + transfersPerWallet);
      }
      if (idleWindow.isNegative()) {
        throw new IllegalArgumentException("--idle-s must not be negative, got " + idleWindow.toSeconds());
      }
      if (peerPollInterval.isNegative() || peerPollInterval.isZero()) {
        throw new IllegalArgumentException("--peer-poll-ms must be positive, got " + peerPollInterval.toMillis());
      }
      if (clientInFlight < 1) {
        throw new IllegalArgumentException("--client-in-flight must be at least 1, got " + clientInFlight);
      }
      skip = Set.copyOf(skip);
    }
  }

  /** Warm-up transfers per wallet: the total spread over the wallets, at least one each when there is a warm-up. */
  static int warmupPerWallet(int total, int wallets) {
    return total == 0 ? 0 : Math.max(1, (total + wallets - 1) / wallets);
  }

  /** The report and the summaries of the pipeline's loads (which decide the exit code). */
  public record Outcome(BenchReport report, Summary summary, Optional<Summary> faultedSummary) {
    public int exitCode() {
      if (summary.exitCode() != 0) {
        return summary.exitCode();
      }
      if (report.jetton().isPresent() && !report.jetton().get().complete()) {
        return 1; // the jetton load did not settle in full: its report says why (PARTIAL RUN)
      }
      return faultedSummary.map(Summary::exitCode).orElse(0);
    }
  }

  private final StackRun run;
  private final Devnet devnet;
  private final Clock clock;
  private final PrintWriter out;
  private final Settler settler;

  public Benchmark(StackRun run, Clock clock, PrintWriter out) {
    this.run = run;
    this.devnet = run.stack().devnet().orElseThrow(() -> new IllegalStateException("the benchmark runs on devnet"));
    this.clock = clock;
    this.out = out;
    this.settler = new Settler(run, out, clock);
  }

  public Outcome run(Settings settings, long startedMillis) throws InterruptedException {
    // devnet's block times in milliseconds, for the latencies, from here to the end of the run
    try (BlockClock blocks = BlockClock.start(devnet, clock)) {
      return run(settings, startedMillis, blocks);
    }
  }

  private Outcome run(Settings settings, long startedMillis, BlockClock blocks) throws InterruptedException {
    double loadAverage = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    int wallets = run.wallets().count();
    int n = settings.transfersPerWallet();
    run.fund();
    Optional<DevnetCapacity.Result> capacity = settings.skip().contains(Phase.CAPACITY) ? Optional.empty()
        : Optional.of(new DevnetCapacity(devnet, this::cpu, clock, out, settings.clientInFlight())
            .measure(FreshWallets.create(wallets), n));

    int warmup = warmupPerWallet(settings.warmupTransfers(), wallets);
    if (warmup > 0) {
      say("warm-up: %d transfers per wallet, not measured ...", warmup);
      Settling warm = settler.settle(BenchLoad.bench(run.wallets(), warmup, "warmup-" + run.directory().runId(), false,
          clock.instant()));
      if (warm.stoppedBecause().isPresent()) {
        throw new IllegalStateException("the warm-up load did not settle, nothing was measured: "
            + warm.stoppedBecause().get());
      }
    }
    PipelinePhase pipeline = pipeline("bench", n, Optional.empty(), blocks);
    boolean drained = pipeline.settling().stoppedBecause().isEmpty();
    if (!drained) {
      say("the pipeline's load did not finish: no idle window, fault phase or peer in this run");
    }
    Optional<IdleCpu> idle = Optional.empty();
    if (drained && !settings.skip().contains(Phase.IDLE)) {
      say("measuring idle CPU over %d s ...", settings.idleWindow().toSeconds());
      idle = Optional.of(IdleCpu.measure(run, settings.idleWindow()));
    }
    Optional<PipelinePhase> jetton = Optional.empty();
    if (drained && !settings.skip().contains(Phase.JETTON) && run.jettonMaster().isPresent()) {
      jetton = Optional.of(pipeline("bench-jetton", n, Optional.empty(), blocks, run.jettonMaster()));
    }
    Optional<PipelinePhase> faulted = drained && settings.sendFaults().on()
        ? Optional.of(pipeline("bench-faults", n, Optional.of(settings.sendFaults()), blocks)) : Optional.empty();
    Optional<PeerLoop.Result> peer = drained && !settings.skip().contains(Phase.PEER)
        ? Optional.of(new PeerLoop(devnet, blocks, this::cpu, clock, out,
            settings.peerPollInterval(), settings.clientInFlight())
            .run(FreshWallets.create(wallets), n, settler.timeoutFor(pipeline.load())))
        : Optional.empty();

    say("stopping streams-app and chain-poller (their GC logs are complete then) ...");
    run.stopChildren();
    LedgerAudit.Report audit = settler.auditLedger();
    Map<String, OptionalLong> heaps = new LinkedHashMap<>();
    run.processes().children().forEach(c -> heaps.put(c.name(), PeakHeap.fromGcLog(c.spec().gcLog())));
    BenchReport report = new BenchReport(wallets, devnet.blockInterval().toMillis(), n,
        Runtime.getRuntime().availableProcessors(), loadAverage, pipeline, idle, capacity, peer,
        settings.sendFaults(), faulted, blocks.skippedBlocks(), heaps, PeakHeap.launcher(),
        settings.clientInFlight(), warmup * wallets, jetton);
    double elapsed = (clock.millis() - startedMillis) / 1000.0;
    Summary summary = new Summary(pipeline.load(), wallets, pipeline.settling(), audit, elapsed, run.directory());
    Optional<Summary> faultedSummary = faulted.map(f -> new Summary(f.load(), wallets, f.settling(), audit, elapsed,
        run.directory()));
    return new Outcome(report, summary, faultedSummary);
  }

  private PipelinePhase pipeline(String tag, int perWallet, Optional<SendFaults> faults, BlockClock blocks)
      throws InterruptedException {
    return pipeline(tag, perWallet, faults, blocks, Optional.empty());
  }

  /**
   * Produces one load of {@code perWallet} single transfers per wallet (of {@code jetton}'s jetton
   * when given, else TON) and measures it until it settled.
   */
  private PipelinePhase pipeline(String tag, int perWallet, Optional<SendFaults> faults, BlockClock blocks,
      Optional<TonAddress> jetton) throws InterruptedException {
    String runId = tag + "-" + run.directory().runId();
    PayoutLoad load = jetton.isPresent()
        ? BenchLoad.jettonBench(run.wallets(), perWallet, runId, jetton.get(), clock.instant())
        : BenchLoad.bench(run.wallets(), perWallet, runId, false, clock.instant());
    jetton.ifPresent(m -> say("jetton load: %d transfers of %s units of %s each ...", load.transferCount(),
        BenchLoad.BENCH_JETTON_UNITS, m.toRaw()));
    faults.ifPresent(f -> say("sends fail at %.0f %% now: %.1f %% answered 429, %.1f %% of the rest dropped", f.rate()
        * 100, f.rateLimitProbability() * 100, f.dropProbability() * 100));
    ApiCallCounts callsBefore = ApiCallCounts.scrape(run.processes());
    Faults.Counts faultsBefore = devnet.faults().counts();
    faults.ifPresent(f -> f.apply(devnet.faults()));
    CpuTimes cpuBefore = cpu();
    Settling settling;
    try {
      Duration timeout = timeout(load, faults.isPresent());
      // a jetton transfer takes the wallet's block and two more hops before its verdict
      settling = settler.settle(load, jetton.isPresent() && run.options().settleTimeout().isZero()
          ? timeout.multipliedBy(2) : timeout);
    } finally {
      faults.ifPresent(f -> devnet.faults().clear());
    }
    CpuTimes cpu = cpu().minus(cpuBefore);
    ApiCallCounts calls = callsSince(callsBefore, settling);
    Optional<Faults.Counts> fired = faults.map(f -> SendFaults.fired(faultsBefore, devnet.faults().counts()));
    return new PipelinePhase(load, settling, latency(settling, blocks), calls, cpu, fired);
  }

  /**
   * How long to wait for a load: the run's deadline; with failing sends, unless the operator set one,
   * also time for three messages per wallet to expire unapplied at the children's default validity (a
   * dropped message may be signed again only after that), so a slow recovery is measured, not cut off.
   */
  private Duration timeout(PayoutLoad load, boolean faults) {
    Duration base = settler.timeoutFor(load);
    if (!faults || !run.options().settleTimeout().isZero()) {
      return base;
    }
    Map<String, Object> defaults = PayoutsConfig.CONFIG.defaultValues();
    long expirySeconds = ((Number) defaults.get(PayoutsConfig.TRANSFER_TTL_SECONDS_CONFIG)).longValue()
        + ((Number) defaults.get(PayoutsConfig.TRANSFER_CLOCK_SKEW_SECONDS_CONFIG)).longValue();
    return base.plusSeconds(3 * expirySeconds);
  }

  /** The latencies of the load's settled transfers, their blocks looked up on devnet once it is over. */
  private LoadLatency latency(Settling settling, BlockClock blockTimes) {
    ChainBlocks blocks = new ChainBlocks(devnet);
    List<LoadLatency.Landing> landings = new ArrayList<>();
    for (ObservedSettlement observed : settling.settlements()) {
      Settlement s = observed.settlement();
      if (s.status() != SettlementStatus.SETTLED || s.lt() == null) {
        continue;
      }
      TonAddress wallet = run.wallets().address(s.subwalletId());
      OptionalLong own = blocks.byLt(wallet, s.lt());
      JettonDelivery d = s.jettonDelivery();
      if (d == null) {
        landings.add(new LoadLatency.Landing(wallet, own, observed.observedAtMillis()));
      } else {
        // delivered when the receiver's jetton wallet accepted it: measured from that block
        OptionalLong accepted = d.receiverJettonWallet() == null || d.receiverLt() == null ? OptionalLong.empty()
            : blocks.byLt(TonAddress.parse(d.receiverJettonWallet()), d.receiverLt());
        long hops = own.isPresent() && accepted.isPresent() ? accepted.getAsLong() - own.getAsLong() : 0;
        landings.add(new LoadLatency.Landing(wallet, accepted, observed.observedAtMillis(), hops));
      }
    }
    return LoadLatency.measure(landings, blockTimes);
  }

  /** The children's API requests since {@code before}; none when a child is gone (the run is partial then). */
  private ApiCallCounts callsSince(ApiCallCounts before, Settling settling) {
    try {
      return ApiCallCounts.scrape(run.processes()).minus(before);
    } catch (RuntimeException e) {
      if (settling.stoppedBecause().isEmpty()) {
        throw e;
      }
      say("cannot read the children's meters after a partial run: %s", e.getMessage());
      return ApiCallCounts.none();
    }
  }

  /** CPU time so far of every process of the stack. */
  private CpuTimes cpu() {
    return CpuTimes.sample(run.processes(), run.stack().postgres().port());
  }

  private void say(String format, Object... args) {
    out.printf(format + "%n", args);
    out.flush();
  }
}
