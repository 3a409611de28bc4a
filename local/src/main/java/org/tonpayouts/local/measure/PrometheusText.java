package org.tonpayouts.local.measure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads samples out of the Prometheus text exposition format (what the children's {@code /metrics}
 * answers): lines {@code name{label="value",...} number [timestamp]}; comments and other metrics
 * are skipped. Only what the benchmark needs: no histograms are rebuilt, no types checked.
 */
public final class PrometheusText {
  /** One sample line: its labels (in order) and value. */
  public record Sample(Map<String, String> labels, double value) {
    public Sample {
      labels = Map.copyOf(labels);
    }

    public String label(String name) {
      return labels.getOrDefault(name, "");
    }
  }

  private PrometheusText() {}

  /**
   * Every sample of the metric {@code name} in {@code text}.
   *
   * @throws IllegalArgumentException on a line of that metric that is not a valid sample
   */
  public static List<Sample> samples(String text, String name) {
    List<Sample> samples = new ArrayList<>();
    for (String line : text.split("\n")) {
      String l = line.strip();
      if (l.isEmpty() || l.charAt(0) == '#' || !l.startsWith(name)) {
        continue;
      }
      int after = name.length();
      if (after < l.length() && l.charAt(after) != '{' && l.charAt(after) != ' ') {
        continue; // a longer name with this prefix, e.g. name_sum for name
      }
      samples.add(parse(l, after));
    }
    return samples;
  }

  private static Sample parse(String line, int at) {
    Map<String, String> labels = new LinkedHashMap<>();
    int i = at;
    if (i < line.length() && line.charAt(i) == '{') {
      i++;
      while (true) {
        while (i < line.length() && (line.charAt(i) == ',' || line.charAt(i) == ' ')) {
          i++;
        }
        if (i >= line.length()) {
          throw bad(line);
        }
        if (line.charAt(i) == '}') {
          i++;
          break;
        }
        int eq = line.indexOf('=', i);
        if (eq < 0 || eq + 1 >= line.length() || line.charAt(eq + 1) != '"') {
          throw bad(line);
        }
        String key = line.substring(i, eq).strip();
        StringBuilder value = new StringBuilder();
        int j = eq + 2;
        for (; j < line.length() && line.charAt(j) != '"'; j++) {
          char c = line.charAt(j);
          if (c == '\\' && j + 1 < line.length()) {
            char next = line.charAt(++j);
            value.append(next == 'n' ? '\n' : next);
          } else {
            value.append(c);
          }
        }
        if (j >= line.length()) {
          throw bad(line);
        }
        labels.put(key, value.toString());
        i = j + 1;
      }
    }
    String[] rest = line.substring(i).strip().split("\\s+");
    if (rest.length == 0 || rest[0].isEmpty()) {
      throw bad(line);
    }
    try {
      return new Sample(labels, Double.parseDouble(rest[0]));
    } catch (NumberFormatException e) {
      throw bad(line);
    }
  }

  private static IllegalArgumentException bad(String line) {
    return new IllegalArgumentException("not a Prometheus sample line: " + line);
  }
}
