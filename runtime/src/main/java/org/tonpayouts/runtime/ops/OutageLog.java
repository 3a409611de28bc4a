package org.tonpayouts.runtime.ops;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;

/**
 * The log of a dependency that fails over and over (the TON API node, a block read): one WARN line
 * when it starts failing, with the first error; while it keeps failing, one WARN summary per
 * {@code summaryEvery} (how long, how many failures, which keys fail now, the last error); one
 * INFO line when it works again. A round that fails every 100 ms therefore writes one line a
 * minute, not 600 (a poller on a lagging node once logged 4,140 warnings in 63 s).
 *
 * <p>Keys say what failed (a subwallet, a shard); the dependency counts as down while any key's
 * last call failed, so one wallet that keeps failing among many that work is one outage, not a
 * line per round. Use {@link #failed(String)} / {@link #succeeded()} for a dependency with no keys.
 *
 * <p>Thread-safe.
 */
public final class OutageLog {
  /** The summary interval the processes use. */
  public static final Duration DEFAULT_SUMMARY_EVERY = Duration.ofSeconds(60);
  private static final String NO_KEY = "";
  private static final int KEYS_SHOWN = 5;

  private final Logger log;
  private final String what;
  private final Duration summaryEvery;
  private final Clock clock;

  /** Keys whose last call failed, with their last error; empty while the dependency works. */
  private final Map<String, String> failing = new LinkedHashMap<>();
  private Instant downSince;
  private Instant lastLine;
  private long failures;
  private long failuresSinceLine;
  private String lastError;

  /**
   * @param log the logger of the class that calls the dependency
   * @param what what fails, as it reads in a sentence: {@code "masterchain reads"}
   */
  public OutageLog(Logger log, String what, Duration summaryEvery, Clock clock) {
    this.log = Objects.requireNonNull(log, "log");
    this.what = Objects.requireNonNull(what, "what");
    this.summaryEvery = Objects.requireNonNull(summaryEvery, "summaryEvery");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  public OutageLog(Logger log, String what, Clock clock) {
    this(log, what, DEFAULT_SUMMARY_EVERY, clock);
  }

  public void failed(String error) {
    failed(NO_KEY, error);
  }

  public void succeeded() {
    succeeded(NO_KEY);
  }

  /** A call about {@code key} failed with {@code error} (a short message, never a secret). */
  public synchronized void failed(String key, String error) {
    Instant now = clock.instant();
    failing.put(key, error);
    failures++;
    failuresSinceLine++;
    lastError = keyed(key, error);
    if (downSince == null) {
      downSince = now;
      lastLine = now;
      failuresSinceLine = 0;
      log.warn("{} failing {}", what, lastError);
    } else if (!now.isBefore(lastLine.plus(summaryEvery))) {
      log.warn("{} still failing for {} s failures={} (since the last line {}) failingNow={} last: {}", what,
          Duration.between(downSince, now).toSeconds(), failures, failuresSinceLine, failingNow(), lastError);
      lastLine = now;
      failuresSinceLine = 0;
    }
  }

  /** A call about {@code key} worked. */
  public synchronized void succeeded(String key) {
    if (failing.remove(key) == null || !failing.isEmpty()) {
      return;
    }
    log.info("{} working again after {} s failures={} last: {}", what,
        Duration.between(downSince, clock.instant()).toSeconds(), failures, lastError);
    downSince = null;
    failures = 0;
    lastError = null;
  }

  /** True while some key's last call failed. */
  public synchronized boolean down() {
    return downSince != null;
  }

  private String failingNow() {
    if (failing.keySet().equals(java.util.Set.of(NO_KEY))) {
      return "1";
    }
    String shown = String.join(",", failing.keySet().stream().limit(KEYS_SHOWN).toList());
    return failing.size() + (failing.size() > KEYS_SHOWN ? " (" + shown + ",...)" : " (" + shown + ")");
  }

  private static String keyed(String key, String error) {
    return (key.isEmpty() ? "" : key + " ") + "error=" + error;
  }
}
