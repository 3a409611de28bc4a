package org.tonpayouts.local;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the stack costs with nothing to do: each process's CPU time over a fixed window right after
 * a load drained, as a share of one core.
 */
public record IdleCpu(CpuTimes cpu, Duration window) {
  /** Measures {@code window} from now. */
  public static IdleCpu measure(StackRun run, Duration window) throws InterruptedException {
    CpuTimes before = CpuTimes.sample(run.processes(), run.stack().postgres().port());
    long started = System.nanoTime();
    Thread.sleep(window.toMillis()); // the idle window is what is measured: nothing to wait for but time
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    return new IdleCpu(CpuTimes.sample(run.processes(), run.stack().postgres().port()).minus(before), took);
  }

  /** Percent of one core, by process (sorted by name). */
  public Map<String, Double> percentByProcess() {
    Map<String, Double> percent = new TreeMap<>();
    cpu.byProcess().forEach((name, d) -> percent.put(name, percent(d)));
    return percent;
  }

  /** Percent of one core the JVMs' JIT compiler threads used, by process (where known). */
  public Map<String, Double> jitPercentByProcess() {
    Map<String, Double> percent = new TreeMap<>();
    cpu.jit().forEach((name, d) -> percent.put(name, percent(d)));
    return percent;
  }

  /** Percent of one core the whole stack used. */
  public double stackPercent() {
    return percent(cpu.total());
  }

  public Optional<Double> othersPercent() {
    return cpu.others().map(this::percent);
  }

  private double percent(Duration d) {
    return window.isZero() ? 0 : 100.0 * d.toNanos() / window.toNanos();
  }
}
