package org.tonpayouts.runtime.ops;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The named checks behind {@code /health/live} and {@code /health/ready}. Live: the process is
 * worth keeping (its stream threads have not died for good); restart it otherwise. Ready: it is
 * doing its job right now (streams RUNNING, its database and the TON API reachable, the API node's
 * clock close to ours); send it no traffic and alert otherwise.
 */
public final class Health {
  private static final Logger log = LoggerFactory.getLogger(Health.class);
  private final Map<String, HealthCheck> liveness = new LinkedHashMap<>();
  private final Map<String, HealthCheck> readiness = new LinkedHashMap<>();
  /** The last result of each probe's checks: a change is logged once, not at every probe. */
  private final Map<String, CheckResult> last = new ConcurrentHashMap<>();

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
    return run("live", liveness);
  }

  public Report readiness() {
    return run("ready", readiness);
  }

  private Report run(String probe, Map<String, HealthCheck> checks) {
    Map<String, CheckResult> results = new LinkedHashMap<>();
    checks.forEach((name, check) -> {
      CheckResult result;
      try {
        result = check.check();
      } catch (RuntimeException e) {
        result = CheckResult.down(e);
      }
      results.put(name, result);
      remember(probe, name, result);
    });
    return new Report(results.values().stream().allMatch(CheckResult::up), results);
  }

  /**
   * Logs a check that goes down (with its cause, which the answer leaves out: it may name a URL or
   * a host) and one that comes back; a check that stays down is not logged again at every probe.
   */
  private void remember(String probe, String name, CheckResult result) {
    CheckResult before = last.put(probe + "/" + name, result);
    boolean wasUp = before == null || before.up();
    if (!result.up() && wasUp) {
      log.warn("health check down probe={} check={} detail=\"{}\" cause=\"{}\"", probe, name, result.detail(),
          result.cause() == null ? result.detail() : result.cause());
    } else if (result.up() && !wasUp) {
      log.info("health check up again probe={} check={} detail=\"{}\"", probe, name, result.detail());
    }
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
