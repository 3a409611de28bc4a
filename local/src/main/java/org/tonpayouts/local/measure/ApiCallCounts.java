package org.tonpayouts.local.measure;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.tonpayouts.local.stack.ChildProcess;
import org.tonpayouts.local.stack.Http;
import org.tonpayouts.local.stack.StackProcesses;
import org.tonpayouts.ton.api.TonApiMetrics;

/**
 * TON API requests by process, method and outcome, as the processes' own meters count them: every
 * HTTP request of the TON API client, retries included ({@link TonApiMetrics}), which both apps
 * serve as {@code ton_api_requests_seconds_count{method,outcome}} on their metrics port. Two
 * scrapes give the requests a phase made.
 *
 * @param counts requests by call (process, method, outcome)
 */
public record ApiCallCounts(Map<Call, Long> counts) {
  /** The Prometheus name of the client's request counter. */
  public static final String METRIC = "ton_api_requests_seconds_count";
  public static final String OK = "ok";

  /** One kind of request: which process made it, which API method, how it ended. */
  public record Call(String process, String method, String outcome) implements Comparable<Call> {
    @Override
    public int compareTo(Call o) {
      return (process + '\0' + method + '\0' + outcome).compareTo(o.process + '\0' + o.method + '\0' + o.outcome);
    }
  }

  public ApiCallCounts {
    counts = Map.copyOf(counts);
  }

  public static ApiCallCounts none() {
    return new ApiCallCounts(Map.of());
  }

  /**
   * Scrapes every child's {@code /metrics}.
   *
   * @throws IllegalStateException when a child has no metrics port or does not answer 200
   */
  public static ApiCallCounts scrape(StackProcesses children) {
    Map<Call, Long> counts = new TreeMap<>();
    for (ChildProcess child : children.children()) {
      String url = child.spec().opsUrl("/metrics");
      HttpResponse<String> response;
      try {
        response = Http.get(url);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot scrape " + child.name() + " at " + url, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while scraping " + child.name(), e);
      }
      if (response.statusCode() != 200) {
        throw new IllegalStateException(child.name() + " answered " + response.statusCode() + " on " + url);
      }
      parse(child.name(), response.body()).counts.forEach((call, n) -> counts.merge(call, n, Long::sum));
    }
    return new ApiCallCounts(counts);
  }

  /** The requests counted in one process's Prometheus text. */
  public static ApiCallCounts parse(String process, String prometheusText) {
    Map<Call, Long> counts = new TreeMap<>();
    for (PrometheusText.Sample s : PrometheusText.samples(prometheusText, METRIC)) {
      counts.merge(new Call(process, s.label("method"), s.label("outcome")), Math.round(s.value()), Long::sum);
    }
    return new ApiCallCounts(counts);
  }

  /**
   * The requests a TON API client of this JVM made (the benchmark's peer and devnet sender), from
   * the registry it records in: the same meter, so the same counting as the apps'.
   */
  public static ApiCallCounts fromRegistry(String process, MeterRegistry registry) {
    Map<Call, Long> counts = new TreeMap<>();
    for (Timer timer : registry.find(TonApiMetrics.REQUESTS).timers()) {
      counts.merge(new Call(process, timer.getId().getTag("method"), timer.getId().getTag("outcome")), timer.count(),
          Long::sum);
    }
    return new ApiCallCounts(counts);
  }

  /** Counts made since {@code earlier} was taken (calls that did not change are left out). */
  public ApiCallCounts minus(ApiCallCounts earlier) {
    Map<Call, Long> diff = new TreeMap<>();
    counts.forEach((call, n) -> {
      long d = n - earlier.counts.getOrDefault(call, 0L);
      if (d != 0) {
        diff.put(call, d);
      }
    });
    return new ApiCallCounts(diff);
  }

  public long total() {
    return counts.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Requests by {@code process method}, in that order. */
  public Map<String, Long> byProcessAndMethod() {
    return sum(c -> c.process() + " " + c.method());
  }

  /** Requests by process. */
  public Map<String, Long> byProcess() {
    return sum(Call::process);
  }

  /** Requests that did not end {@code ok}, by {@code process method outcome}. */
  public Map<String, Long> failures() {
    return counts.entrySet().stream().filter(e -> !OK.equals(e.getKey().outcome()))
        .collect(Collectors.toMap(e -> e.getKey().process() + " " + e.getKey().method() + " " + e.getKey().outcome(),
            Map.Entry::getValue, Long::sum, TreeMap::new));
  }

  private Map<String, Long> sum(Function<Call, String> key) {
    return counts.entrySet().stream()
        .collect(Collectors.toMap(e -> key.apply(e.getKey()), Map.Entry::getValue, Long::sum, TreeMap::new));
  }
}
