package org.tonpayouts.local;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * CPU time used so far by each process of the local stack, read from the OS through
 * {@link ProcessHandle.Info#totalCpuDuration()}: the launcher (broker, devnet, load and watcher),
 * each child, and PostgreSQL (the postmaster on our port, which {@code pg_ctl} detaches from the
 * launcher, and its backends). Two samples give the CPU time a phase cost.
 */
public record CpuTimes(Map<String, Duration> byProcess) {
  public static final String LAUNCHER = "launcher";
  public static final String POSTGRES = "postgres";

  public CpuTimes {
    byProcess = Map.copyOf(byProcess);
  }

  public static CpuTimes sample(StackProcesses children, int postgresPort) {
    Map<String, Duration> times = new LinkedHashMap<>();
    times.put(LAUNCHER, cpu(ProcessHandle.current()));
    for (ChildProcess child : children.children()) {
      times.put(child.name(), ProcessHandle.of(child.pid()).map(CpuTimes::cpu).orElse(Duration.ZERO));
    }
    String port = Integer.toString(postgresPort);
    Duration postgres = ProcessHandle.allProcesses()
        .filter(p -> p.info().command().map(c -> c.endsWith("/postgres")).orElse(false)
            && p.info().arguments().map(a -> java.util.Arrays.asList(a).contains(port)).orElse(false))
        .map(p -> p.descendants().map(CpuTimes::cpu).reduce(cpu(p), Duration::plus))
        .reduce(Duration.ZERO, Duration::plus);
    times.put(POSTGRES, postgres);
    return new CpuTimes(times);
  }

  private static Duration cpu(ProcessHandle process) {
    return process.info().totalCpuDuration().orElse(Duration.ZERO);
  }

  /** CPU time spent since {@code earlier}, per process. */
  public CpuTimes minus(CpuTimes earlier) {
    Map<String, Duration> diff = new LinkedHashMap<>();
    byProcess.forEach((name, d) -> diff.put(name, d.minus(earlier.byProcess.getOrDefault(name, Duration.ZERO))));
    return new CpuTimes(diff);
  }

  public Duration total() {
    return byProcess.values().stream().reduce(Duration.ZERO, Duration::plus);
  }
}
