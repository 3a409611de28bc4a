package org.tonpayouts.streams.wallet;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.ledger.sql.Pause;
import org.tonpayouts.streams.metrics.PayoutMetrics;

/**
 * This instance's copy of the operators' pauses, re-read from the ledger every {@code pause.refresh.ms}
 * on a thread of its own, so issuing rounds skip a paused wallet without asking the database and
 * without reading the wallet or signing anything. The copy may be late: the ledger itself refuses a
 * new intent of a paused wallet ({@code PauseGate}), so a pause takes effect at once and this copy
 * only spares the work; a lifted pause lets the wallet's transfers go within about one refresh.
 */
public final class PauseWatch implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PauseWatch.class);

  private final Ledger ledger;
  private final PayoutMetrics metrics;
  private final ScheduledExecutorService timer;
  private volatile List<Pause> active = List.of();
  private boolean failing;

  private PauseWatch(Ledger ledger, PayoutMetrics metrics, ScheduledExecutorService timer) {
    this.ledger = ledger;
    this.metrics = metrics;
    this.timer = timer;
  }

  /** Reads the pauses now (a failure is logged: the ledger's own check still holds), then every {@code every}. */
  public static PauseWatch start(Ledger ledger, Duration every, PayoutMetrics metrics) {
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "payout-pauses");
      t.setDaemon(true);
      return t;
    });
    PauseWatch watch = new PauseWatch(ledger, metrics, timer);
    watch.refresh();
    timer.scheduleWithFixedDelay(watch::refresh, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
    return watch;
  }

  /** The pause in force for {@code subwallet} as last read (its own before the deployment's); empty when none. */
  public Optional<Pause> covering(long subwallet) {
    List<Pause> now = active;
    return now.stream().filter(p -> p.subwalletId() != null && p.subwalletId() == subwallet).findFirst()
        .or(() -> now.stream().filter(Pause::deploymentWide).findFirst());
  }

  /** The pauses in force as last read. */
  public List<Pause> active() {
    return active;
  }

  synchronized void refresh() {
    try {
      List<Pause> read = ledger.pauses().active();
      if (!read.equals(active)) {
        log.info("pauses in force now={}", read.isEmpty() ? "none" : read.stream().map(Pause::describe).toList());
      }
      active = read;
      metrics.pausesInForce(read.stream().anyMatch(Pause::deploymentWide),
          (int) read.stream().filter(p -> !p.deploymentWide()).count());
      if (failing) {
        log.info("pauses read from the ledger again");
        failing = false;
      }
    } catch (RuntimeException e) { // a LedgerException, or a bug: never the end of the refreshes
      if (!failing) {
        // the ledger refuses a paused wallet's intents whatever this copy says: nothing is signed in error
        log.warn("could not read the pauses, keeping the last copy error={}", e.getMessage());
        failing = true;
      }
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
