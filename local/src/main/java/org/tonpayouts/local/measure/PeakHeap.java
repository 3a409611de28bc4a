package org.tonpayouts.local.measure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Peak heap use of the processes of a run, without touching the apps: a child's peak is the largest
 * heap occupancy its GC reported just before a collection ({@code -Xlog:gc} lines such as
 * {@code Pause Young ... 45M->12M(256M)}); heap only grows between collections, so that is its peak
 * to within the last stretch after the final GC. The launcher reads its own memory pools.
 */
public final class PeakHeap {
  private static final Pattern BEFORE_AFTER = Pattern.compile("(\\d+)([KMG])->(\\d+)([KMG])\\((\\d+)([KMG])\\)");

  private PeakHeap() {}

  /** The largest before-collection heap in a GC log, in bytes; empty when the log shows no collection. */
  public static OptionalLong fromGcLog(Path gcLog) {
    if (!Files.exists(gcLog)) {
      return OptionalLong.empty();
    }
    long peak = -1;
    try {
      for (String line : Files.readAllLines(gcLog, StandardCharsets.UTF_8)) {
        Matcher m = BEFORE_AFTER.matcher(line);
        if (m.find()) {
          peak = Math.max(peak, bytes(m.group(1), m.group(2)));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + gcLog, e);
    }
    return peak < 0 ? OptionalLong.empty() : OptionalLong.of(peak);
  }

  private static long bytes(String number, String unit) {
    long n = Long.parseLong(number);
    return switch (unit) {
      case "K" -> n << 10;
      case "M" -> n << 20;
      default -> n << 30;
    };
  }

  /**
   * This JVM's peak heap: the sum of its heap pools' peaks. The pools peak at different moments,
   * so this is an upper bound.
   */
  public static long launcher() {
    long sum = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
        sum += pool.getPeakUsage().getUsed();
      }
    }
    return sum;
  }

  public static String megabytes(long bytes) {
    return (bytes >> 20) + " MB";
  }
}
