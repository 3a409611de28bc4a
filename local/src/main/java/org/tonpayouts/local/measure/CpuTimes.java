package org.tonpayouts.local.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.tonpayouts.local.stack.ChildProcess;
import org.tonpayouts.local.stack.StackProcesses;

/**
 * CPU time used so far by each process of the local stack, read from the OS through
 * {@link ProcessHandle.Info#totalCpuDuration()}: the launcher (broker, devnet, load and watcher),
 * each child, and PostgreSQL (the postmaster on our port, which {@code pg_ctl} detaches from the
 * launcher, and its backends). Where Linux's {@code /proc} tells, also each JVM's threads (where the
 * CPU went inside it, and how much its JIT compilers took: a short run leaves the JVMs compiling for
 * a while after the load, which is not the stack's steady cost) and the whole machine's busy time,
 * so a report can say how much CPU other processes took. Two samples give the CPU time a phase cost.
 *
 * @param threads each JVM's live threads (a thread that has ended by the time of a sample is
 *     missing from it); no entry when unknown
 * @param machine CPU time all processes of the machine used (empty when unknown)
 */
public record CpuTimes(Map<String, Duration> byProcess, Map<String, ThreadTimes> threads, Optional<Duration> machine) {
  public static final String LAUNCHER = "launcher";
  public static final String POSTGRES = "postgres";
  private static final Path PROC_STAT = Path.of("/proc/stat");
  /** Linux's USER_HZ, the unit of {@code /proc/stat}: 100 on every mainstream kernel build. */
  private static final long TICKS_PER_SECOND = 100;

  public CpuTimes {
    byProcess = Map.copyOf(byProcess);
    threads = Map.copyOf(threads);
  }

  public CpuTimes(Map<String, Duration> byProcess, Optional<Duration> machine) {
    this(byProcess, Map.of(), machine);
  }

  public static CpuTimes sample(StackProcesses children, int postgresPort) {
    Map<String, Duration> times = new LinkedHashMap<>();
    Map<String, ThreadTimes> threads = new LinkedHashMap<>();
    times.put(LAUNCHER, cpu(ProcessHandle.current()));
    ThreadTimes.sample(ProcessHandle.current().pid()).ifPresent(t -> threads.put(LAUNCHER, t));
    for (ChildProcess child : children.children()) {
      times.put(child.name(), ProcessHandle.of(child.pid()).map(CpuTimes::cpu).orElse(Duration.ZERO));
      ThreadTimes.sample(child.pid()).ifPresent(t -> threads.put(child.name(), t));
    }
    String port = Integer.toString(postgresPort);
    Duration postgres = ProcessHandle.allProcesses()
        .filter(p -> p.info().command().map(c -> c.endsWith("/postgres")).orElse(false)
            && p.info().arguments().map(a -> java.util.Arrays.asList(a).contains(port)).orElse(false))
        .map(p -> p.descendants().map(CpuTimes::cpu).reduce(cpu(p), Duration::plus))
        .reduce(Duration.ZERO, Duration::plus);
    times.put(POSTGRES, postgres);
    return new CpuTimes(times, threads, machineBusy());
  }

  /** A time {@code /proc} gives in clock ticks ({@code /proc/stat}, {@code /proc/<pid>/task/<tid>/stat}). */
  static Duration fromTicks(long ticks) {
    return Duration.ofMillis(ticks * 1000 / TICKS_PER_SECOND);
  }

  private static Duration cpu(ProcessHandle process) {
    return process.info().totalCpuDuration().orElse(Duration.ZERO);
  }

  /** user + nice + system + irq + softirq + steal of the {@code cpu} line of /proc/stat (guest time is in user). */
  static Optional<Duration> machineBusy() {
    try {
      if (!Files.isReadable(PROC_STAT)) {
        return Optional.empty();
      }
      String first = Files.readAllLines(PROC_STAT).get(0);
      return parseProcStatCpuLine(first);
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  static Optional<Duration> parseProcStatCpuLine(String line) {
    String[] f = line.trim().split("\\s+");
    if (f.length < 9 || !f[0].equals("cpu")) {
      return Optional.empty();
    }
    long ticks = 0;
    for (int i : new int[] {1, 2, 3, 6, 7, 8}) {
      ticks += Long.parseLong(f[i]);
    }
    return Optional.of(fromTicks(ticks));
  }

  /** CPU time spent since {@code earlier}, per process (and per thread where both samples have them). */
  public CpuTimes minus(CpuTimes earlier) {
    Map<String, Duration> diff = new LinkedHashMap<>();
    byProcess.forEach((name, d) -> diff.put(name, d.minus(earlier.byProcess.getOrDefault(name, Duration.ZERO))));
    Map<String, ThreadTimes> threadDiff = new LinkedHashMap<>();
    threads.forEach((name, t) -> {
      if (earlier.threads.containsKey(name)) {
        threadDiff.put(name, t.minus(earlier.threads.get(name)));
      }
    });
    Optional<Duration> machineDiff = machine.isPresent() && earlier.machine.isPresent()
        ? Optional.of(machine.get().minus(earlier.machine.get())) : Optional.empty();
    return new CpuTimes(diff, threadDiff, machineDiff);
  }

  /**
   * CPU time of each JVM's JIT compiler threads (a compiler thread that ended within the phase is
   * missing: at least this much); no entry where threads are unknown.
   */
  public Map<String, Duration> jit() {
    Map<String, Duration> jit = new LinkedHashMap<>();
    threads.forEach((name, t) -> jit.put(name, t.jitCompilers()));
    return jit;
  }

  /**
   * CPU time of the process's threads that are not in the later sample: they ended within the
   * phase (the process's time minus its live threads' time, never below zero).
   */
  public Optional<Duration> endedThreads(String process) {
    ThreadTimes t = threads.get(process);
    if (t == null) {
      return Optional.empty();
    }
    Duration ended = of(process).minus(t.total());
    return Optional.of(ended.isNegative() ? Duration.ZERO : ended);
  }

  /** The stack's CPU time: every process of it together. */
  public Duration total() {
    return byProcess.values().stream().reduce(Duration.ZERO, Duration::plus);
  }

  /**
   * CPU time of the processes outside the stack (the machine's minus the stack's, never below zero:
   * the two are read at slightly different moments and in different units).
   */
  public Optional<Duration> others() {
    return machine.map(m -> m.minus(total())).map(d -> d.isNegative() ? Duration.ZERO : d);
  }

  public Duration of(String process) {
    return byProcess.getOrDefault(process, Duration.ZERO);
  }
}
