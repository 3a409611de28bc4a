package org.tonpayouts.streams.send;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.ops.OutageLog;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.ledger.record.Sends;

/**
 * The sends the API acknowledged that the ledger does not hold yet. A message's sends are written
 * with its verdict, in the row version that settles it ({@link #take}, from the verdict batch), or
 * on their own once they waited {@link #HOLD} without one. Writing each acknowledgement as it came
 * cost a row version per message ({@code SIGNED -> SENT}, about a fifth of PostgreSQL's statement
 * time at W=1000), and nearly every verdict comes within a second or two.
 *
 * <p>{@code sent_at}, {@code send_count} and the {@code SENT} status are for operators: every rule
 * treats {@code SIGNED} and {@code SENT} alike (a live message, re-sent or resumed the same way;
 * DESIGN.md, safe-retry rule). So sends held here when the process dies are simply missing from
 * those columns; nothing is decided on them.
 */
public final class SendLog implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SendLog.class);
  /**
   * How long acknowledged sends wait for their verdict before they are written on their own:
   * above the typical verdict time under load (0.7 s median, 1.5 s 99th percentile at W=1000), so
   * a message without a verdict still shows as {@code SENT} within seconds.
   */
  public static final Duration HOLD = Duration.ofSeconds(5);
  private static final Duration LONGEST_SWEEP_INTERVAL = Duration.ofSeconds(1);

  private record Held(Sends sends, long sinceNanos) {}

  private final Ledger ledger;
  private final Clock clock;
  private final Duration hold;
  private final Map<String, Held> held = new ConcurrentHashMap<>();
  private final ScheduledExecutorService sweeper;
  /** A ledger that stays away is logged when the sweeps start failing and when they work again, not every second. */
  private final OutageLog outage;

  /** A log that holds sends for {@link #HOLD}. */
  public SendLog(Ledger ledger, Clock clock) {
    this(ledger, clock, HOLD);
  }

  /** A log that holds sends for {@code hold} at most (a little more: it looks every second or every {@code hold}). */
  public SendLog(Ledger ledger, Clock clock, Duration hold) {
    this.ledger = ledger;
    this.clock = clock;
    this.hold = hold;
    this.outage = new OutageLog(log, "recording sends in the ledger", clock);
    this.sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "payout-send-log");
      t.setDaemon(true);
      return t;
    });
    long every = Math.max(1, Math.min(hold.toMillis(), LONGEST_SWEEP_INTERVAL.toMillis()));
    sweeper.scheduleWithFixedDelay(() -> write(hold), every, every, TimeUnit.MILLISECONDS);
  }

  /** The API acknowledged a send of this message just now. */
  public void sent(String messageHash) {
    add(messageHash, Sends.one(clock.instant().truncatedTo(ChronoUnit.MICROS)), System.nanoTime());
  }

  /** Takes the held sends of these messages, to be recorded with their verdicts; give them back if that fails. */
  public Map<String, Sends> take(Collection<String> messageHashes) {
    Map<String, Sends> taken = new HashMap<>();
    for (String hash : messageHashes) {
      Held h = hash == null ? null : held.remove(hash);
      if (h != null) {
        taken.put(hash, h.sends());
      }
    }
    return taken;
  }

  /** Holds sends again that {@link #take} handed out and the ledger did not record. */
  public void giveBack(Map<String, Sends> sends) {
    long now = System.nanoTime();
    sends.forEach((hash, s) -> add(hash, s, now));
  }

  /** Sends held now. */
  public int held() {
    return held.size();
  }

  /** Writes every held send now (tests, and at close). */
  public void writeAll() {
    write(Duration.ZERO);
  }

  /** Writes the sends held at least {@code age}, in one statement; on failure they stay held for the next sweep. */
  private void write(Duration age) {
    long cutoff = System.nanoTime() - age.toNanos();
    Map<String, Sends> due = new HashMap<>();
    for (Map.Entry<String, Held> e : held.entrySet()) {
      if (e.getValue().sinceNanos() - cutoff <= 0 && held.remove(e.getKey(), e.getValue())) {
        due.put(e.getKey(), e.getValue().sends());
      }
    }
    if (due.isEmpty()) {
      return;
    }
    try {
      ledger.transitions().recordSends(due);
      outage.succeeded();
    } catch (RuntimeException e) {
      outage.failed("sends not recorded, will be tried again count=" + due.size() + " error=" + e);
      giveBack(due);
    }
  }

  private void add(String hash, Sends sends, long sinceNanos) {
    held.merge(hash, new Held(sends, sinceNanos),
        (old, more) -> new Held(old.sends().and(more.sends()), old.sinceNanos()));
  }

  /** Stops sweeping and writes what is held, so a graceful stop keeps every send count. */
  @Override
  public void close() {
    sweeper.shutdownNow();
    writeAll();
  }
}
