package org.tonpayouts.local.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * CPU time of each live thread of a process, read from Linux's {@code /proc/<pid>/task/<tid>/stat}:
 * the thread's name as the kernel keeps it (the first 15 characters of the Java thread's name) and
 * its user + system time. The difference of two samples says where a phase's CPU went, by thread
 * group (the name with its digits as {@code N}: "GC Thread#N", "payout-issuer-N"). A thread that
 * ended before the later sample is missing from it: what the process used beyond its groups went
 * to such threads (a thread started per task shows up there, and only there).
 *
 * @param byThread per thread id, its name and CPU time (or, in a difference, the time in between)
 */
public record ThreadTimes(Map<Long, Named> byThread) {
  /** A thread's kernel name and CPU time. */
  public record Named(String name, Duration cpu) {}

  private static final Pattern DIGITS = Pattern.compile("\\d+");
  private static final Pattern JIT_COMPILER = Pattern.compile("C[12] CompilerThre.*");

  public ThreadTimes {
    byThread = Map.copyOf(byThread);
  }

  /** The process's live threads now, or empty where {@code /proc} does not tell (not Linux, process gone). */
  public static Optional<ThreadTimes> sample(long pid) {
    Path tasks = Path.of("/proc", Long.toString(pid), "task");
    if (!Files.isDirectory(tasks)) {
      return Optional.empty();
    }
    Map<Long, Named> threads = new HashMap<>();
    try (var listing = Files.list(tasks)) {
      for (Path task : (Iterable<Path>) listing::iterator) {
        try {
          parseStat(Files.readString(task.resolve("stat")))
              .ifPresent(named -> threads.put(Long.parseLong(task.getFileName().toString()), named));
        } catch (IOException e) {
          // the thread ended between listing and reading: it is one of the missing ones
        }
      }
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
    return Optional.of(new ThreadTimes(threads));
  }

  /** The name and utime + stime of a {@code stat} line ({@code tid (name) state ...}), empty if it is not one. */
  static Optional<Named> parseStat(String stat) {
    int open = stat.indexOf('(');
    int close = stat.lastIndexOf(')');
    if (open < 0 || close < open) {
      return Optional.empty();
    }
    String[] fields = stat.substring(close + 2).split(" ");
    if (fields.length < 13) {
      return Optional.empty();
    }
    // after the name: state is field 3 of the line, utime 14 and stime 15
    long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    return Optional.of(new Named(stat.substring(open + 1, close), CpuTimes.fromTicks(ticks)));
  }

  /**
   * What each thread used since {@code earlier}: a thread in both, the difference; a thread
   * started since, all of its time. Threads that ended in between are not in it.
   */
  public ThreadTimes minus(ThreadTimes earlier) {
    Map<Long, Named> diff = new HashMap<>();
    byThread.forEach((tid, now) -> {
      Named before = earlier.byThread.get(tid);
      Duration spent = before == null ? now.cpu() : now.cpu().minus(before.cpu());
      diff.put(tid, new Named(now.name(), spent.isNegative() ? Duration.ZERO : spent));
    });
    return new ThreadTimes(diff);
  }

  /** CPU time by thread group, the largest first. */
  public Map<String, Duration> byGroup() {
    Map<String, Duration> groups = new HashMap<>();
    byThread.values().forEach(t -> groups.merge(group(t.name()), t.cpu(), Duration::plus));
    Map<String, Duration> sorted = new LinkedHashMap<>();
    groups.entrySet().stream()
        .sorted(Map.Entry.<String, Duration>comparingByValue(Comparator.reverseOrder()).thenComparing(Map.Entry.comparingByKey()))
        .forEach(e -> sorted.put(e.getKey(), e.getValue()));
    return sorted;
  }

  /** A thread's group: its name with every run of digits as {@code N}. */
  static String group(String name) {
    return DIGITS.matcher(name).replaceAll("N");
  }

  public Duration total() {
    return byThread.values().stream().map(Named::cpu).reduce(Duration.ZERO, Duration::plus);
  }

  /** CPU time of the JVM's JIT compiler threads ({@code C1/C2 CompilerThread*}). */
  public Duration jitCompilers() {
    return byThread.values().stream().filter(t -> JIT_COMPILER.matcher(t.name()).matches()).map(Named::cpu)
        .reduce(Duration.ZERO, Duration::plus);
  }
}
