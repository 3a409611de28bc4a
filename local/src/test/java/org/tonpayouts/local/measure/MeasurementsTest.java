package org.tonpayouts.local.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.local.stack.RunKey;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.TonApiMetrics;
import org.tonpayouts.ton.wallet.Subwallets;

/** The parsers and instruments behind the benchmark's figures: API calls, CPU, heap, latency. */
class MeasurementsTest {
  private static final String STREAMS_METRICS = String.join("\n",
      "# HELP ton_api_requests_seconds TON HTTP API requests (each retry counts) by method and outcome",
      "# TYPE ton_api_requests_seconds summary",
      "ton_api_requests_seconds_count{application=\"streams-app\",method=\"getAddressInformation\",outcome=\"ok\"} 120",
      "ton_api_requests_seconds_sum{application=\"streams-app\",method=\"getAddressInformation\",outcome=\"ok\"} 0.48",
      "ton_api_requests_seconds_count{application=\"streams-app\",method=\"sendBocReturnHash\",outcome=\"ok\"} 100.0",
      "ton_api_requests_seconds_count{application=\"streams-app\",method=\"sendBocReturnHash\","
          + "outcome=\"rate_limited\",} 7",
      "ton_api_requests_seconds_max{application=\"streams-app\",method=\"sendBocReturnHash\",outcome=\"ok\"} 0.01",
      "ton_api_requests_seconds_countless{application=\"x\"} 5",
      "");

  @TempDir
  Path tmp;

  @Test
  void shouldTakeThePeakHeapFromTheLargestHeapBeforeACollection() throws Exception {
    Path gc = Files.writeString(tmp.resolve("gc.log"), String.join("\n",
        "[0.013s][info][gc] Using G1",
        "[0.901s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 18M->5M(256M) 16.899ms",
        "[1.969s][info][gc] GC(2) Pause Young (Normal) (G1 Evacuation Pause) 121M->9M(256M) 30.689ms",
        "[2.580s][info][gc] GC(3) Pause Remark 30M->30M(256M) 1.1ms", ""));

    assertThat(PeakHeap.fromGcLog(gc)).hasValue(121L << 20);
    assertThat(PeakHeap.fromGcLog(tmp.resolve("missing.log"))).isEmpty();
    assertThat(PeakHeap.launcher()).isPositive();
  }

  @Test
  void shouldTakeNearestRankPercentiles() {
    AddedLatency latency = new AddedLatency(List.of(10L, 20L, 30L, 40L, 50L, 60L, 70L, 80L, 90L, 1000L), 0);

    assertThat(latency.percentile(50)).isEqualTo(50);
    assertThat(latency.percentile(99)).isEqualTo(1000);
    assertThat(latency.max()).isEqualTo(1000);
    assertThat(new AddedLatency(List.of(), 3).percentile(50)).isZero();
  }

  @Test
  void shouldReadTheClientsRequestCounterOutOfPrometheusText() {
    ApiCallCounts counts = ApiCallCounts.parse("streams-app", STREAMS_METRICS);

    assertThat(counts.total()).isEqualTo(227);
    assertThat(counts.byProcessAndMethod()).containsExactly(
        Map.entry("streams-app getAddressInformation", 120L), Map.entry("streams-app sendBocReturnHash", 107L));
    assertThat(counts.failures()).containsExactly(Map.entry("streams-app sendBocReturnHash rate_limited", 7L));
  }

  @Test
  void shouldSubtractAnEarlierScrapeAndLeaveOutWhatDidNotChange() {
    ApiCallCounts before = ApiCallCounts.parse("chain-poller",
        "ton_api_requests_seconds_count{method=\"getTransactions\",outcome=\"ok\"} 10\n"
            + "ton_api_requests_seconds_count{method=\"getMasterchainInfo\",outcome=\"ok\"} 4\n");
    ApiCallCounts after = ApiCallCounts.parse("chain-poller",
        "ton_api_requests_seconds_count{method=\"getTransactions\",outcome=\"ok\"} 25\n"
            + "ton_api_requests_seconds_count{method=\"getMasterchainInfo\",outcome=\"ok\"} 4\n");

    assertThat(after.minus(before).byProcessAndMethod()).containsExactly(Map.entry("chain-poller getTransactions", 15L));
    assertThat(after.minus(before).byProcess()).containsExactly(Map.entry("chain-poller", 15L));
  }

  @Test
  void shouldParseEscapedLabelValuesAndRefuseABrokenSample() {
    List<PrometheusText.Sample> samples = PrometheusText.samples(
        "m{a=\"say \\\"hi\\\"\",b=\"back\\\\slash\"} 3 1700000000000\nm 4\n", "m");

    assertThat(samples).hasSize(2);
    assertThat(samples.get(0).label("a")).isEqualTo("say \"hi\"");
    assertThat(samples.get(0).label("b")).isEqualTo("back\\slash");
    assertThat(samples.get(0).value()).isEqualTo(3);
    assertThat(samples.get(1).labels()).isEmpty();
    assertThatThrownBy(() -> PrometheusText.samples("m{a=\"x} 3\n", "m")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PrometheusText.samples("m{a=\"x\"} three\n", "m"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void shouldCountTheLaunchersOwnClientsFromTheSameMeter() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Timer send = Timer.builder(TonApiMetrics.REQUESTS).tag("method", "sendBocReturnHash").tag("outcome", "ok")
        .register(registry);
    send.record(Duration.ofMillis(2));
    send.record(Duration.ofMillis(3));
    Timer.builder(TonApiMetrics.REQUESTS).tag("method", "getWalletInformation").tag("outcome", "timeout")
        .register(registry).record(Duration.ofSeconds(10));

    ApiCallCounts counts = ApiCallCounts.fromRegistry("peer", registry);

    assertThat(counts.byProcessAndMethod()).containsExactly(
        Map.entry("peer getWalletInformation", 1L), Map.entry("peer sendBocReturnHash", 2L));
    assertThat(counts.failures()).containsExactly(Map.entry("peer getWalletInformation timeout", 1L));
  }

  @Test
  void shouldReadTheMachinesAndTheCompilersBusyTimeFromProc() {
    // user nice system idle iowait irq softirq steal: busy = 100+5+50+1+2+3 ticks, idle and iowait excluded
    assertThat(CpuTimes.parseProcStatCpuLine("cpu  100 5 50 9999 77 1 2 3 0 0"))
        .hasValue(Duration.ofMillis(1610));
    assertThat(CpuTimes.parseProcStatCpuLine("cpu0 1 2 3 4 5 6 7 8")).isEmpty();

    assertThat(ThreadTimes.parseStat("4242 (C2 CompilerThre) S 1 4242 4242 0 -1 4194368 10 0 0 0 500 70 0 0 20 0"))
        .as("name and utime + stime, in 10 ms ticks").hasValue(new ThreadTimes.Named("C2 CompilerThre",
            Duration.ofMillis(5700)));
    assertThat(ThreadTimes.parseStat("4243 (a (b) c) S 1 4242 4242 0 -1 4194368 10 0 0 0 1 2 0 0 20 0"))
        .as("a name may hold parentheses").hasValue(new ThreadTimes.Named("a (b) c", Duration.ofMillis(30)));
    assertThat(ThreadTimes.parseStat("4244 kafka")).isEmpty();

    CpuTimes earlier = new CpuTimes(Map.of("launcher", Duration.ofMillis(100)), Optional.of(Duration.ofMillis(1000)));
    CpuTimes later = new CpuTimes(Map.of("launcher", Duration.ofMillis(400)), Optional.of(Duration.ofMillis(1500)));
    assertThat(later.minus(earlier).others()).as("500 ms busy, 300 of them the stack's")
        .hasValue(Duration.ofMillis(200));
  }

  @Test
  void shouldMeasureAddedLatencyFromTheEarliestBlockThatCouldHaveHeldTheTransfer() {
    TonAddress a = new Subwallets(RunKey.random().key(), 0).address(698983191L);
    TonAddress b = new Subwallets(RunKey.random().key(), 0).address(698983191L);
    // block n becomes visible at n * 400 ms
    LongFunction<OptionalLong> blockMillis = n -> n <= 20 ? OptionalLong.of(n * 400) : OptionalLong.empty();
    List<LoadLatency.Landing> landings = List.of(
        new LoadLatency.Landing(a, OptionalLong.of(3), 3 * 400 + 50),   // first of a: from its own block
        new LoadLatency.Landing(a, OptionalLong.of(4), 4 * 400 + 60),   // loop closed in one block
        new LoadLatency.Landing(a, OptionalLong.of(9), 9 * 400 + 70),   // 4 blocks lost (a dropped send)
        new LoadLatency.Landing(b, OptionalLong.of(5), 5 * 400 + 40),
        new LoadLatency.Landing(b, OptionalLong.of(7), 7 * 400 + 80),   // one block missed
        new LoadLatency.Landing(b, OptionalLong.of(30), 30 * 400 + 10), // block time unknown
        new LoadLatency.Landing(b, OptionalLong.empty(), 99));          // transaction not found

    LoadLatency latency = LoadLatency.measure(landings, blockMillis);

    assertThat(latency.settlePath().millis()).containsExactly(40L, 50L, 60L, 70L, 80L);
    assertThat(latency.added().millis()).containsExactly(40L, 50L, 60L, 80L + 400, 70L + 4 * 400);
    assertThat(latency.added().unmeasured()).isEqualTo(2);
  }
}
