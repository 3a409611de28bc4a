package org.tonpayouts.local;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * TON API requests the children made, by method, counted from their API-call logs: the API client
 * writes one DEBUG line per HTTP request (retries included), which {@link ChildConfig} routes to a
 * file of its own. Nothing in the apps had to change to count them.
 */
public record ApiCallCounts(Map<String, Long> byMethod) {
  private static final Pattern METHOD = Pattern.compile("ton-api call method=(\\S+)");

  public ApiCallCounts {
    byMethod = Map.copyOf(byMethod);
  }

  /** Counts the lines of every file (a missing file counts nothing). */
  public static ApiCallCounts read(Iterable<Path> files) {
    Map<String, Long> counts = new TreeMap<>();
    for (Path file : files) {
      if (!Files.exists(file)) {
        continue;
      }
      try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        String line;
        while ((line = reader.readLine()) != null) {
          Matcher m = METHOD.matcher(line);
          if (m.find()) {
            counts.merge(m.group(1), 1L, Long::sum);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + file, e);
      }
    }
    return new ApiCallCounts(counts);
  }

  public long total() {
    return byMethod.values().stream().mapToLong(Long::longValue).sum();
  }

  /** The calls made after {@code earlier} was counted. */
  public ApiCallCounts minus(ApiCallCounts earlier) {
    Map<String, Long> diff = new TreeMap<>();
    byMethod.forEach((method, n) -> {
      long d = n - earlier.byMethod.getOrDefault(method, 0L);
      if (d != 0) {
        diff.put(method, d);
      }
    });
    return new ApiCallCounts(diff);
  }
}
