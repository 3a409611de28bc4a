package org.tonpayouts.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * CPU time used so far by each process of the local stack, read from the OS through
 * {@link ProcessHandle.Info#totalCpuDuration()}: the launcher (broker, devnet, load and watcher),
 * each child, and PostgreSQL (the postmaster on our port, which {@code pg_ctl} detaches from the
 * launcher, and its backends). Where Linux's {@code /proc} tells, also the JVMs' JIT compiler threads
 * (a short run leaves the JVMs compiling for a while after the load, which is not the stack's
 * steady cost) and the whole machine's busy time, so a report can say how much CPU other processes
 * took. Two samples give the CPU time a phase cost.
 *
 * @param jit CPU time of each JVM's live JIT compiler threads (a compiler thread that has exited by
 *     the time of a sample is missing: at least this much); no entry when unknown
 * @param machine CPU time all processes of the machine used (empty when unknown)
 */
public record CpuTimes(Map<String, Duration> byProcess, Map<String, Duration> jit, Optional<Duration> machine) {
  public static final String LAUNCHER = "launcher";
  public static final String POSTGRES = "postgres";
  private static final Path PROC_STAT = Path.of("/proc/stat");
  /** Linux's USER_HZ, the unit of {@code /proc/stat}: 100 on every mainstream kernel build. */
  private static final long TICKS_PER_SECOND = 100;

  public CpuTimes {
    byProcess = Map.copyOf(byProcess);
    jit = Map.copyOf(jit);
  }

  public CpuTimes(Map<String, Duration> byProcess, Optional<Duration> machine) {
    this(byProcess, Map.of(), machine);
  }

  public static CpuTimes sample(StackProcesses children, int postgresPort) {
    Map<String, Duration> times = new LinkedHashMap<>();
    Map<String, Duration> jit = new LinkedHashMap<>();
    times.put(LAUNCHER, cpu(ProcessHandle.current()));
    compilerThreads(ProcessHandle.current().pid()).ifPresent(d -> jit.put(LAUNCHER, d));
    for (ChildProcess child : children.children()) {
      times.put(child.name(), ProcessHandle.of(child.pid()).map(CpuTimes::cpu).orElse(Duration.ZERO));
      compilerThreads(child.pid()).ifPresent(d -> jit.put(child.name(), d));
    }
    String port = Integer.toString(postgresPort);
    Duration postgres = ProcessHandle.allProcesses()
        .filter(p -> p.info().command().map(c -> c.endsWith("/postgres")).orElse(false)
            && p.info().arguments().map(a -> java.util.Arrays.asList(a).contains(port)).orElse(false))
        .map(p -> p.descendants().map(CpuTimes::cpu).reduce(cpu(p), Duration::plus))
        .reduce(Duration.ZERO, Duration::plus);
    times.put(POSTGRES, postgres);
    return new CpuTimes(times, jit, machineBusy());
  }

  /** CPU time of the process's threads named {@code C1/C2 CompilerThread*} ({@code /proc/<pid>/task}). */
  static Optional<Duration> compilerThreads(long pid) {
    Path tasks = Path.of("/proc", Long.toString(pid), "task");
    if (!Files.isDirectory(tasks)) {
      return Optional.empty();
    }
    long ticks = 0;
    try (var threads = Files.list(tasks)) {
      for (Path task : (Iterable<Path>) threads::iterator) {
        try {
          ticks += compilerTicks(Files.readString(task.resolve("stat")));
        } catch (IOException e) {
          // the thread ended between listing and reading: its time is no longer attributable
        }
      }
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
    return Optional.of(Duration.ofMillis(ticks * 1000 / TICKS_PER_SECOND));
  }

  /** utime + stime of a {@code /proc/<pid>/task/<tid>/stat} line when its thread is a JIT compiler, else 0. */
  static long compilerTicks(String stat) {
    int open = stat.indexOf('(');
    int close = stat.lastIndexOf(')');
    if (open < 0 || close < open) {
      return 0;
    }
    String name = stat.substring(open + 1, close);
    if (!name.matches("C[12] CompilerThre.*")) {
      return 0;
    }
    String[] fields = stat.substring(close + 2).split(" ");
    // after the name: state is field 3 of the line, utime 14 and stime 15
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
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
    return Optional.of(Duration.ofMillis(ticks * 1000 / TICKS_PER_SECOND));
  }

  /** CPU time spent since {@code earlier}, per process. */
  public CpuTimes minus(CpuTimes earlier) {
    Map<String, Duration> diff = new LinkedHashMap<>();
    byProcess.forEach((name, d) -> diff.put(name, d.minus(earlier.byProcess.getOrDefault(name, Duration.ZERO))));
    Map<String, Duration> jitDiff = new LinkedHashMap<>();
    jit.forEach((name, d) -> {
      if (earlier.jit.containsKey(name)) {
        Duration spent = d.minus(earlier.jit.get(name));
        jitDiff.put(name, spent.isNegative() ? Duration.ZERO : spent);
      }
    });
    Optional<Duration> machineDiff = machine.isPresent() && earlier.machine.isPresent()
        ? Optional.of(machine.get().minus(earlier.machine.get())) : Optional.empty();
    return new CpuTimes(diff, jitDiff, machineDiff);
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
