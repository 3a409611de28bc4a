package org.tonpayouts.local.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.tonpayouts.devnet.Faults;
import org.tonpayouts.local.LocalStackMain;
import org.tonpayouts.local.measure.AddedLatency;
import org.tonpayouts.local.measure.ApiCallCounts;
import org.tonpayouts.local.measure.CpuTimes;
import org.tonpayouts.local.measure.LoadLatency;
import org.tonpayouts.local.measure.ObservedSettlement;
import org.tonpayouts.local.measure.PayoutLoad;
import org.tonpayouts.local.measure.Settling;
import org.tonpayouts.local.measure.ThreadTimes;
import org.tonpayouts.local.stack.ChildConfig;
import org.tonpayouts.local.stack.RunKey;
import org.tonpayouts.local.stack.WalletSet;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.schemas.TransferKind;
import org.tonpayouts.ton.wallet.Subwallets;

/** The benchmark's options, load, bounds and report logic, without a stack. */
class BenchMeasurementsTest {
  private final WalletSet wallets =
      new WalletSet(new Subwallets(RunKey.random().key(), 0), Subwallets.DEFAULT_SUBWALLET_ID, 4, 10);

  @Test
  void shouldGiveEveryWalletTheSameNumberOfSingleTransfersInTheBenchLoad() {
    PayoutLoad load = BenchLoad.bench(wallets, 3, "bench", false, Instant.EPOCH);

    assertThat(load.requestCount()).isEqualTo(12);
    assertThat(load.transferCount()).isEqualTo(12);
    assertThat(load.maxTransfersPerWallet()).isEqualTo(3);
    assertThat(load.requests()).allSatisfy(r -> assertThat(r.transfers()).hasSize(1));
  }

  @Test
  void shouldTakeTheBenchOptionsAndKeepTheChildrenFromLoggingEveryApiRequest() {
    picocli.CommandLine cli = LocalStackMain.commandLine();
    cli.parseArgs("bench", "--wallets", "10", "--skip", "capacity,PEER", "--send-fault-rate", "0.1");
    BenchCommand bench = cli.getSubcommands().get("bench").getCommand();

    assertThat(bench.skip).containsExactly(Benchmark.Phase.CAPACITY, Benchmark.Phase.PEER);
    assertThat(bench.sendFaultRate).isEqualTo(0.1);
    assertThat(bench.peerPollMillis).isEqualTo(PeerLoop.DEFAULT_POLL_INTERVAL.toMillis());
    assertThat(Benchmark.warmupPerWallet(500, 10)).isEqualTo(50);
    assertThat(Benchmark.warmupPerWallet(500, 1000)).as("at least one each").isEqualTo(1);
    assertThat(Benchmark.warmupPerWallet(0, 10)).isZero();
    assertThatThrownBy(() -> LocalStackMain.commandLine().parseArgs("bench", "--wallets", "1", "--skip", "audit"))
        .hasMessageContaining("'audit' is not a phase");
    assertThat(ChildConfig.logbackXml(java.nio.file.Path.of("app.log")))
        .doesNotContain("TonApiClient").contains("app.log");
    assertThat(ChildConfig.logbackXml(java.nio.file.Path.of("app.log"), java.nio.file.Path.of("api.log")))
        .contains("TonApiClient\" level=\"DEBUG\"").contains("api.log");
    for (String xml : List.of(ChildConfig.logbackXml(java.nio.file.Path.of("a&b.log")),
        ChildConfig.logbackXml(java.nio.file.Path.of("app.log"), java.nio.file.Path.of("api.log")))) {
      assertThatCode(() -> javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder()
          .parse(new org.xml.sax.InputSource(new java.io.StringReader(xml)))).as(xml).doesNotThrowAnyException();
    }
  }

  @Test
  void shouldSplitTheSendFaultRateEvenlyBetween429sAndDrops() {
    SendFaults faults = new SendFaults(0.1);

    assertThat(faults.rateLimitProbability()).isEqualTo(0.05);
    double failing = faults.rateLimitProbability() + (1 - faults.rateLimitProbability()) * faults.dropProbability();
    assertThat(failing).isCloseTo(0.1, within(1e-12));
    assertThat(new SendFaults(0).on()).isFalse();
    assertThatThrownBy(() -> new SendFaults(1.5)).hasMessageContaining("--send-fault-rate");

    Faults devnetFaults = new Faults();
    faults.apply(devnetFaults);
    assertThat(devnetFaults.settings().rateLimitScope()).isEqualTo(Faults.RateLimitScope.SENDS);
    assertThat(devnetFaults.settings().rateLimitProbability()).isEqualTo(0.05);
    assertThat(devnetFaults.settings().dropProbability()).isEqualTo(faults.dropProbability());
  }

  @Test
  void shouldSayWhereAPhasesCpuWentByThreadGroupIncludingThreadsThatEnded() {
    ThreadTimes before = new ThreadTimes(Map.of(
        1L, named("payout-issuer-1", 100), 2L, named("payout-issuer-2", 50), 3L, named("Thread-7", 40),
        4L, named("C1 CompilerThre", 10)));
    ThreadTimes after = new ThreadTimes(Map.of(
        1L, named("payout-issuer-1", 400), 2L, named("payout-issuer-2", 150), 4L, named("C1 CompilerThre", 30),
        5L, named("HttpClient-9-Se", 70)));
    CpuTimes earlier = new CpuTimes(Map.of("streams-app", Duration.ofMillis(200)), Map.of("streams-app", before),
        Optional.empty());
    CpuTimes later = new CpuTimes(Map.of("streams-app", Duration.ofMillis(1000)), Map.of("streams-app", after),
        Optional.empty());

    CpuTimes phase = later.minus(earlier);

    ThreadTimes threads = phase.threads().get("streams-app");
    assertThat(threads.byGroup()).as("the largest group first; a thread started within the phase counts in full")
        .containsExactly(Map.entry("payout-issuer-N", Duration.ofMillis(400)),
            Map.entry("HttpClient-N-Se", Duration.ofMillis(70)), Map.entry("CN CompilerThre", Duration.ofMillis(20)));
    assertThat(phase.jit()).containsExactly(Map.entry("streams-app", Duration.ofMillis(20)));
    assertThat(phase.endedThreads("streams-app")).as("800 ms used, 490 of them by live threads (Thread-7 ended)")
        .hasValue(Duration.ofMillis(310));
    assertThat(phase.endedThreads("launcher")).isEmpty();

    PipelinePhase p = phase(10, phase);
    assertThat(BenchReport.threadsPerTransfer(p, "streams-app", threads))
        .isEqualTo("payout-issuer-N 40.00, HttpClient-N-Se 7.00, CN CompilerThre 2.00, threads that ended 31.00 ms");
  }

  /** A pipeline phase that settled {@code settled} transfers (one per wallet) at {@code cpu}. */
  private static PipelinePhase phase(int settled, CpuTimes cpu) {
    WalletSet set = new WalletSet(new Subwallets(RunKey.random().key(), 0), Subwallets.DEFAULT_SUBWALLET_ID, settled,
        10);
    Map<SettlementStatus, Integer> statuses = new EnumMap<>(SettlementStatus.class);
    statuses.put(SettlementStatus.SETTLED, settled);
    Settling settling = new Settling(0, 1_000, statuses, 0, 0, List.of(), Optional.empty());
    return new PipelinePhase(BenchLoad.bench(set, 1, "t", false, Instant.EPOCH), settling,
        new LoadLatency(AddedLatency.of(List.of(1L)), AddedLatency.of(List.of(1L))), ApiCallCounts.none(), cpu,
        Optional.empty());
  }

  private static ThreadTimes.Named named(String name, long millis) {
    return new ThreadTimes.Named(name, Duration.ofMillis(millis));
  }

  @Test
  void shouldJudgeTheTargetsThatApplyToTheWalletCount() {
    BenchReport report = report(100, 2_000, 8_500, List.of(60L, 80L, 90L, 500L), 5_000, Optional.of(50.0));

    assertThat(report.limit()).isEqualTo(250.0);
    assertThat(report.efficiency()).isCloseTo(0.941, within(0.001));
    Map<String, BenchTargets.Verdict> verdicts = new java.util.HashMap<>();
    BenchTargets.evaluate(report).forEach(t -> verdicts.put(t.name(), t.verdict()));
    assertThat(verdicts).containsEntry("efficiency", BenchTargets.Verdict.MET)
        .containsEntry("added latency", BenchTargets.Verdict.MISSED)
        .containsEntry("API calls", BenchTargets.Verdict.MET)
        .containsEntry("apps CPU", BenchTargets.Verdict.NOT_APPLICABLE)
        .containsEntry("vs peer", BenchTargets.Verdict.MET)
        .containsEntry("under faults", BenchTargets.Verdict.NOT_MEASURED);

    BenchReport slow = report(1_000, 10_000, 60_000, List.of(60L), 35_000, Optional.empty());
    Map<String, BenchTargets.Verdict> slowVerdicts = new java.util.HashMap<>();
    BenchTargets.evaluate(slow).forEach(t -> slowVerdicts.put(t.name(), t.verdict()));
    assertThat(slowVerdicts).as("166.7/s against a capacity of 400/s; 2.5 ms of apps CPU; 3.5 calls")
        .containsEntry("efficiency", BenchTargets.Verdict.MISSED)
        .containsEntry("added latency", BenchTargets.Verdict.NOT_APPLICABLE)
        .containsEntry("apps CPU", BenchTargets.Verdict.MISSED)
        .containsEntry("API calls", BenchTargets.Verdict.MISSED)
        .containsEntry("vs peer", BenchTargets.Verdict.NOT_MEASURED);
  }

  @Test
  void shouldMissEveryTargetALoadFeedsWhenItDidNotSettleCompletely() {
    BenchReport whole = report(10, 200, 8_000, List.of(60L), 400, Optional.empty());
    PipelinePhase cut = new PipelinePhase(whole.pipeline().load(), new Settling(0, 8_000,
        whole.pipeline().settling().statusCounts(), 3, 0, List.of(), Optional.of("not every transfer settled")),
        whole.pipeline().latency(), whole.pipeline().calls(), whole.pipeline().cpu(), Optional.empty());
    BenchReport partial = new BenchReport(10, 400, 20, 2, 0.5, cut, Optional.empty(), whole.capacity(),
        Optional.empty(), new SendFaults(0), Optional.empty(), 0, Map.of(), 0, 64, 0);

    assertThat(BenchTargets.evaluate(whole)).filteredOn(t -> t.name().equals("API calls"))
        .extracting(BenchTargets.Target::verdict).containsExactly(BenchTargets.Verdict.MET);
    assertThat(BenchTargets.evaluate(partial)).filteredOn(t -> !t.name().equals("vs peer")
            && !t.name().equals("under faults") && !t.name().equals("apps CPU"))
        .extracting(BenchTargets.Target::verdict).containsOnly(BenchTargets.Verdict.MISSED);
  }

  @Test
  void shouldPrintAndWriteEveryFigure() {
    BenchReport report = report(100, 2_000, 8_500, List.of(60L, 80L, 90L, 500L), 5_000, Optional.of(50.0));
    StringWriter text = new StringWriter();

    report.print(new PrintWriter(text));
    JsonNode json = BenchJson.of(report);

    assertThat(text.toString()).contains("efficiency E          0.941 of W/L = 250.0 transfers/s")
        .contains("against devnet        0.588 of devnet's measured capacity (400.0 transfers/s)")
        .contains("against the peer      4.71 x")
        .contains("API calls             2.50 per settled transfer (5000): streams-app sendBocReturnHash 2.50")
        .contains("idle CPU              launcher 10.0 %, streams-app 2.5 % of a core; stack 12.5 %")
        .contains("from 31.0 s after the load drained: at rest, no API call for 2 s")
        .contains("of it, last hop       p50 40 ms, p99 60 ms")
        .contains("of it, by thread     streams-app: payout-issuer-N 1.00, threads that ended 1.00 ms")
        .contains("How it was measured")
        .contains("JVMs: children with ");
    assertThat(json.at("/pipeline/efficiency").asDouble()).isCloseTo(0.941, within(0.001));
    assertThat(json.at("/pipeline/added_latency_ms/p99").asLong()).isEqualTo(500);
    assertThat(json.at("/pipeline/last_hop_latency_ms/p99").asLong()).isEqualTo(60);
    assertThat(json.at("/pipeline/cpu_ms_per_transfer_by_thread/streams-app/payout-issuer-N").asDouble())
        .isEqualTo(1.0);
    assertThat(json.at("/pipeline/cpu_ms_per_transfer_by_thread/streams-app/(threads that ended)").asDouble())
        .isEqualTo(1.0);
    assertThat(json.at("/devnet_capacity/per_second").asDouble()).isEqualTo(400.0);
    assertThat(json.at("/pipeline_over_peer").asDouble()).isCloseTo(4.71, within(0.01));
    assertThat(json.at("/idle_cpu/percent_of_core/streams-app").asDouble()).isEqualTo(2.5);
    assertThat(json.at("/idle_cpu/at_rest").asBoolean()).isTrue();
    assertThat(json.at("/targets").size()).isEqualTo(6);
  }

  /** A settlement streams-app forwarded at {@code producedAt} and the launcher received at {@code observedAt}. */
  private static ObservedSettlement arrival(String requestId, long producedAt, long observedAt) {
    Settlement s = Settlement.of(requestId, "t", 0, 698983191L, TransferKind.PAYOUT, "0:" + "00".repeat(32), 1_000L,
        SettlementStatus.SETTLED, "ab".repeat(32), 1L, 0L, null, null, null, Instant.EPOCH, Instant.EPOCH);
    return new ObservedSettlement(s, observedAt, producedAt);
  }

  /** A report of a run that settled {@code settled} transfers in {@code millis}, devnet capacity 400/s. */
  private static BenchReport report(int wallets, int settled, long millis, List<Long> latencies, long sends,
      Optional<Double> peerPerSecond) {
    WalletSet set = new WalletSet(new Subwallets(RunKey.random().key(), 0), Subwallets.DEFAULT_SUBWALLET_ID, wallets,
        10);
    PayoutLoad load = BenchLoad.bench(set, settled / wallets, "t", false, Instant.EPOCH);
    Map<SettlementStatus, Integer> statuses = new EnumMap<>(SettlementStatus.class);
    statuses.put(SettlementStatus.SETTLED, settled);
    List<ObservedSettlement> arrivals = List.of(arrival("a", 1_000, 1_040), arrival("b", 1_100, 1_160));
    Settling settling = new Settling(0, millis, statuses, 0, 0, arrivals, Optional.empty());
    ApiCallCounts calls = ApiCallCounts.parse("streams-app",
        "ton_api_requests_seconds_count{method=\"sendBocReturnHash\",outcome=\"ok\"} " + sends + "\n");
    CpuTimes cpu = new CpuTimes(Map.of("streams-app", Duration.ofMillis(settled * 2L),
        "chain-poller", Duration.ofMillis(settled / 2)),
        Map.of("streams-app", new ThreadTimes(Map.of(7L, named("payout-issuer-1", settled)))), Optional.empty());
    PipelinePhase pipeline = new PipelinePhase(load, settling, new LoadLatency(AddedLatency.of(latencies),
        AddedLatency.of(List.of(30L))), calls, cpu, Optional.empty());
    IdleCpu idle = new IdleCpu(new CpuTimes(Map.of("streams-app", Duration.ofMillis(250), "launcher",
        Duration.ofMillis(1000)), Optional.empty()), Duration.ofSeconds(10), Duration.ofSeconds(31), true);
    DevnetCapacity.Result capacity = new DevnetCapacity.Result(wallets, 20, 4_000, 10_000, 300, 0,
        ApiCallCounts.none(), new CpuTimes(Map.of(), Optional.empty()), 64, Optional.empty());
    Optional<PeerLoop.Result> peer = peerPerSecond.map(perSecond -> new PeerLoop.Result(wallets, 20,
        (int) (perSecond * 10), 10_000, new LoadLatency(AddedLatency.of(List.of(900L)), AddedLatency.of(List.of(40L))),
        AddedLatency.of(List.of(2100L)),
        ApiCallCounts.none(), 0, 0, new CpuTimes(Map.of(), Optional.empty()), Duration.ofSeconds(2), 64,
        Optional.empty()));
    return new BenchReport(wallets, 400, settled / wallets, 2, 0.5, pipeline, Optional.of(idle),
        Optional.of(capacity), peer, new SendFaults(0), Optional.empty(), 0,
        Map.of("streams-app", OptionalLong.of(50L << 20)), 100L << 20, 64, 500);
  }
}
