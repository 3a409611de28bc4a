package org.tonpayouts.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The metric names the Grafana dashboard's PromQL queries use, and whether a scrape has them. */
final class DashboardQueries {
  static final Path DASHBOARD = Path.of("ops/grafana/dashboards/payouts.json");
  /** Series Prometheus makes itself, not the apps. */
  static final Set<String> PROMETHEUS_OWN = Set.of("up");

  private static final Set<String> PROMQL_WORDS = Set.of("sum", "avg", "min", "max", "count", "rate", "irate",
      "increase", "by", "without", "on", "ignoring", "group_left", "group_right", "histogram_quantile", "and", "or",
      "unless", "offset", "bool", "topk", "bottomk", "abs", "clamp_min", "clamp_max", "delta", "deriv",
      "label_replace", "vector", "scalar", "time");
  private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

  private DashboardQueries() {}

  /** Every PromQL expression of every panel. */
  static List<String> expressions(Path checkout) throws IOException {
    JsonNode dashboard = new ObjectMapper().readTree(checkout.resolve(DASHBOARD).toFile());
    List<String> exprs = new ArrayList<>();
    for (JsonNode panel : dashboard.get("panels")) {
      for (JsonNode target : panel.path("targets")) {
        exprs.add(target.get("expr").asText());
      }
    }
    return exprs;
  }

  /** The metric names in an expression: label matchers, grouping labels, ranges and strings removed. */
  static Set<String> metricNames(String expr) {
    String stripped = expr
        .replaceAll("\"[^\"]*\"", "")
        .replaceAll("\\{[^}]*}", " ")
        .replaceAll("\\[[^]]*]", " ")
        .replaceAll("\\b(by|without|on|ignoring)\\s*\\([^)]*\\)", " ");
    Set<String> names = new TreeSet<>();
    Matcher m = IDENTIFIER.matcher(stripped);
    while (m.find()) {
      String word = m.group();
      if (!PROMQL_WORDS.contains(word)) {
        names.add(word);
      }
    }
    return names;
  }

  static Set<String> metricNames(Path checkout) throws IOException {
    Set<String> names = new TreeSet<>();
    for (String expr : expressions(checkout)) {
      names.addAll(metricNames(expr));
    }
    return names;
  }

  /** True when the Prometheus text has a sample of {@code name} (with or without labels). */
  static boolean scraped(String prometheusText, String name) {
    return Pattern.compile("(?m)^" + Pattern.quote(name) + "[{ ]").matcher(prometheusText).find();
  }
}
