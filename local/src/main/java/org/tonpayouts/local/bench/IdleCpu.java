package org.tonpayouts.local.bench;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.tonpayouts.local.measure.ApiCallCounts;
import org.tonpayouts.local.measure.CpuTimes;
import org.tonpayouts.local.stack.StackRun;

/**
 * What the stack costs at rest: each process's CPU time over a fixed window, as a share of one
 * core, once it has nothing left to do after a load. A drained load still leaves work for a while
 * (the poller watches confirmed bounceable payouts for a bounce, {@code poller.bounce.window.seconds},
 * following every block meanwhile); the window starts once no process has called the TON API for
 * {@link #QUIET} (the poller calls it on every round while it watches anything), or after {@link
 * #MAX_WAIT} regardless, and says which.
 *
 * @param restAfter how long after the load drained the window started
 * @param atRest false when the stack still called the API when {@link #MAX_WAIT} ran out
 */
public record IdleCpu(CpuTimes cpu, Duration window, Duration restAfter, boolean atRest) {
  static final Duration QUIET = Duration.ofSeconds(2);
  static final Duration MAX_WAIT = Duration.ofSeconds(90);
  private static final Duration SCRAPE_EVERY = Duration.ofMillis(250);

  /** Waits for the stack to come to rest, then measures {@code window}. */
  public static IdleCpu measure(StackRun run, Duration window) throws InterruptedException {
    long drained = System.nanoTime();
    boolean atRest = awaitRest(run);
    Duration restAfter = Duration.ofNanos(System.nanoTime() - drained);
    CpuTimes before = CpuTimes.sample(run.processes(), run.stack().postgres().port());
    long started = System.nanoTime();
    Thread.sleep(window.toMillis()); // the idle window is what is measured: nothing to wait for but time
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    return new IdleCpu(CpuTimes.sample(run.processes(), run.stack().postgres().port()).minus(before), took,
        restAfter, atRest);
  }

  /** True once the children's API call counts stood still for {@link #QUIET}; false after {@link #MAX_WAIT}. */
  private static boolean awaitRest(StackRun run) throws InterruptedException {
    long deadline = System.nanoTime() + MAX_WAIT.toNanos();
    ApiCallCounts last = ApiCallCounts.scrape(run.processes());
    long quietSince = System.nanoTime();
    while (System.nanoTime() < deadline) {
      Thread.sleep(SCRAPE_EVERY.toMillis()); // polling the children's meters: they change on their own
      ApiCallCounts now = ApiCallCounts.scrape(run.processes());
      if (!now.equals(last)) {
        last = now;
        quietSince = System.nanoTime();
      } else if (System.nanoTime() - quietSince >= QUIET.toNanos()) {
        return true;
      }
    }
    return false;
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
