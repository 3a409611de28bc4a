package org.tonpayouts.local.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;
import org.tonpayouts.local.measure.AddedLatency;
import org.tonpayouts.local.measure.CpuTimes;

/**
 * The benchmark's figures as JSON ({@code --json <file>}), so a note can quote exact numbers: the
 * same values the report prints, unrounded, with times in milliseconds and rates per second.
 */
public final class BenchJson {
  private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private BenchJson() {}

  public static ObjectNode of(BenchReport r) {
    ObjectNode root = MAPPER.createObjectNode();
    ObjectNode run = root.putObject("run");
    run.put("wallets", r.wallets());
    run.put("transfers_per_wallet", r.transfersPerWallet());
    run.put("block_ms", r.blockMillis());
    run.put("cores", r.cores());
    run.put("load_average_at_start", r.loadAverage());
    run.put("limit_per_second", r.limit());
    run.put("warmup_transfers", r.warmupTransfers());
    root.set("pipeline", pipeline(r.pipeline(), r));
    r.idle().ifPresent(i -> {
      ObjectNode idle = root.putObject("idle_cpu");
      idle.put("window_ms", i.window().toMillis());
      idle.put("rest_after_ms", i.restAfter().toMillis());
      idle.put("at_rest", i.atRest());
      ObjectNode percent = idle.putObject("percent_of_core");
      i.percentByProcess().forEach(percent::put);
      ObjectNode jit = idle.putObject("jit_percent_of_core");
      i.jitPercentByProcess().forEach(jit::put);
      idle.put("stack_percent_of_core", i.stackPercent());
      i.othersPercent().ifPresent(o -> idle.put("other_processes_percent_of_core", o));
    });
    r.capacity().ifPresent(c -> {
      ObjectNode capacity = root.putObject("devnet_capacity");
      capacity.put("wallets", c.wallets());
      capacity.put("rounds", c.rounds());
      capacity.put("applied", c.applied());
      capacity.put("elapsed_ms", c.elapsedMillis());
      capacity.put("per_second", c.perSecond());
      capacity.put("of_limit", c.perSecond() / r.limit());
      capacity.put("send_failures", c.sendFailures());
      capacity.put("sign_ms", c.signMillis());
      capacity.put("max_in_flight", c.maxInFlight());
      capacity.set("cpu_ms", cpu(c.cpu()));
      c.stoppedBecause().ifPresent(s -> capacity.put("stopped_because", s));
    });
    r.peer().ifPresent(p -> {
      ObjectNode peer = root.putObject("peer");
      peer.put("wallets", p.wallets());
      peer.put("transfers_per_wallet", p.perWallet());
      peer.put("poll_interval_ms", p.pollInterval().toMillis());
      peer.put("settled", p.settled());
      peer.put("elapsed_ms", p.elapsedMillis());
      peer.put("per_second", p.perSecond());
      peer.put("efficiency", p.perSecond() / r.limit());
      peer.set("added_latency_ms", latency(p.latency().added()));
      peer.set("settle_path_latency_ms", latency(p.latency().settlePath()));
      peer.set("cycle_ms", latency(p.cycle()));
      peer.put("api_calls_per_transfer", p.apiCallsPerTransfer());
      peer.set("api_calls", counts(p.calls().byProcessAndMethod()));
      peer.put("send_failures", p.sendFailures());
      peer.put("restarts", p.restarts());
      peer.set("cpu_ms", cpu(p.cpu()));
      if (p.perSecond() > 0) {
        root.put("pipeline_over_peer", r.pipeline().throughput() / p.perSecond());
      }
      p.stoppedBecause().ifPresent(s -> peer.put("stopped_because", s));
    });
    r.jetton().ifPresent(j -> {
      ObjectNode jetton = pipeline(j, r);
      if (r.pipeline().throughput() > 0) {
        jetton.put("over_ton_pipeline", j.throughput() / r.pipeline().throughput());
      }
      root.set("pipeline_jetton", jetton);
    });
    r.faulted().ifPresent(f -> {
      ObjectNode faulted = pipeline(f, r);
      faulted.put("send_fault_rate", r.sendFaults().rate());
      faulted.put("rate_limit_probability", r.sendFaults().rateLimitProbability());
      faulted.put("drop_probability", r.sendFaults().dropProbability());
      f.faults().ifPresent(c -> {
        faulted.put("sends_rate_limited", c.rateLimited());
        faulted.put("sends_dropped", c.dropped());
      });
      root.set("pipeline_with_send_faults", faulted);
    });
    ObjectNode heaps = root.putObject("peak_heap_bytes");
    r.childPeakHeap().forEach((name, peak) -> {
      if (peak.isPresent()) {
        heaps.put(name, peak.getAsLong());
      }
    });
    heaps.put("launcher", r.launcherPeakHeap());
    var targets = root.putArray("targets");
    for (BenchTargets.Target t : BenchTargets.evaluate(r)) {
      targets.addObject().put("name", t.name()).put("goal", t.goal()).put("measured", t.measured())
          .put("verdict", t.verdict().name());
    }
    return root;
  }

  public static void write(BenchReport report, Path file) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      MAPPER.writeValue(file.toFile(), of(report));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the benchmark's JSON to " + file, e);
    }
  }

  private static ObjectNode pipeline(PipelinePhase p, BenchReport r) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("transfers", p.load().transferCount());
    n.put("settled", p.settled());
    n.put("seconds", p.seconds());
    n.put("per_second", p.throughput());
    n.put("second_half_per_second", p.secondHalfThroughput());
    n.put("efficiency", p.throughput() / r.limit());
    n.put("second_half_efficiency", p.secondHalfThroughput() / r.limit());
    r.capacity().filter(c -> c.perSecond() > 0).ifPresent(c -> n.put("of_devnet_capacity",
        p.throughput() / c.perSecond()));
    n.put("complete", p.complete());
    n.set("added_latency_ms", latency(p.latency().added()));
    n.set("settle_path_latency_ms", latency(p.latency().settlePath()));
    n.set("last_hop_latency_ms", latency(p.delivery()));
    n.put("api_calls_per_transfer", p.apiCallsPerTransfer());
    n.set("api_calls", counts(p.calls().byProcessAndMethod()));
    n.set("api_calls_not_ok", counts(p.calls().failures()));
    n.put("apps_cpu_ms_per_transfer", p.appsCpuMillisPerTransfer());
    ObjectNode perTransfer = n.putObject("cpu_ms_per_transfer");
    p.cpu().byProcess().forEach((name, d) -> perTransfer.put(name, p.perSettled(d.toNanos() / 1e6)));
    n.set("cpu_ms_per_transfer_by_thread", threads(p.cpu(), p::perSettled));
    n.put("stack_cores_busy", p.stackCores());
    p.otherCores().ifPresent(c -> n.put("other_processes_cores_busy", c));
    p.settling().stoppedBecause().ifPresent(s -> n.put("stopped_because", s));
    return n;
  }

  private static ObjectNode latency(AddedLatency l) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("p50", l.percentile(50));
    n.put("p99", l.percentile(99));
    n.put("max", l.max());
    n.put("measured", l.millis().size());
    n.put("unmeasured", l.unmeasured());
    return n;
  }

  private static ObjectNode counts(Map<String, Long> counts) {
    ObjectNode n = MAPPER.createObjectNode();
    counts.forEach(n::put);
    return n;
  }

  private static ObjectNode cpu(CpuTimes cpu) {
    ObjectNode n = MAPPER.createObjectNode();
    cpu.byProcess().forEach((name, d) -> n.put(name, d.toMillis()));
    cpu.others().map(Duration::toMillis).ifPresent(o -> n.put("other_processes", o));
    if (!cpu.threads().isEmpty()) {
      n.set("threads", threads(cpu, ms -> ms));
    }
    return n;
  }

  /** Each JVM's CPU by thread group, and its threads that ended, in milliseconds scaled by {@code scale}. */
  private static ObjectNode threads(CpuTimes cpu, DoubleUnaryOperator scale) {
    ObjectNode n = MAPPER.createObjectNode();
    cpu.threads().forEach((process, t) -> {
      ObjectNode groups = n.putObject(process);
      t.byGroup().forEach((group, d) -> groups.put(group, scale.applyAsDouble(d.toNanos() / 1e6)));
      cpu.endedThreads(process)
          .ifPresent(ended -> groups.put("(threads that ended)", scale.applyAsDouble(ended.toNanos() / 1e6)));
    });
    return n;
  }
}
