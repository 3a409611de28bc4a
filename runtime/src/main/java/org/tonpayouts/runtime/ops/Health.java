package org.tonpayouts.runtime.ops;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The named checks behind {@code /health/live} and {@code /health/ready}. Live: the process is
 * worth keeping (its stream threads have not died for good); restart it otherwise. Ready: it is
 * doing its job right now (streams RUNNING, its database and the TON API reachable, the API node's
 * clock close to ours); send it no traffic and alert otherwise.
 */
public final class Health {
  private final Map<String, HealthCheck> liveness = new LinkedHashMap<>();
  private final Map<String, HealthCheck> readiness = new LinkedHashMap<>();

  /** Adds a check to liveness (and, since a dead process is not ready either, to readiness). */
  public Health live(String name, HealthCheck check) {
    liveness.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(check, "check"));
    readiness.put(name, check);
    return this;
  }

  /** Adds a check to readiness only. */
  public Health ready(String name, HealthCheck check) {
    readiness.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(check, "check"));
    return this;
  }

  public Report liveness() {
    return run(liveness);
  }

  public Report readiness() {
    return run(readiness);
  }

  private static Report run(Map<String, HealthCheck> checks) {
    Map<String, CheckResult> results = new LinkedHashMap<>();
    checks.forEach((name, check) -> {
      CheckResult result;
      try {
        result = check.check();
      } catch (RuntimeException e) {
        result = CheckResult.down(CheckResult.describe(e));
      }
      results.put(name, result);
    });
    return new Report(results.values().stream().allMatch(CheckResult::up), results);
  }

  /** The outcome of one probe: up when every check is. */
  public record Report(boolean up, Map<String, CheckResult> checks) {
    public Report {
      checks = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(checks));
    }

    /** Names of the failing checks with their details, for a log line. */
    public String failures() {
      StringBuilder b = new StringBuilder();
      checks.forEach((name, r) -> {
        if (!r.up()) {
          b.append(b.length() == 0 ? "" : "; ").append(name).append(": ").append(r.detail());
        }
      });
      return b.toString();
    }
  }
}
