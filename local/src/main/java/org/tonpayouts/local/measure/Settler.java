package org.tonpayouts.local.measure;

import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import org.tonpayouts.local.audit.ExpectedTransfer;
import org.tonpayouts.local.audit.LedgerAudit;
import org.tonpayouts.local.audit.TransferRef;
import org.tonpayouts.local.stack.ChildProcess;
import org.tonpayouts.local.stack.StackRun;
import org.tonpayouts.schemas.SettlementStatus;

/**
 * Pays loads on a running stack: produces a {@link PayoutLoad} and waits, with a progress display,
 * until every transfer has a settlement, the deadline passes or a child dies; afterwards checks the
 * ledger (and, on devnet, the chain).
 */
public final class Settler {
  private final StackRun run;
  private final PrintWriter out;
  private final Clock clock;

  public Settler(StackRun run, PrintWriter out, Clock clock) {
    this.run = run;
    this.out = out;
    this.clock = clock;
  }

  /** The run's deadline for {@code load} ({@link org.tonpayouts.local.stack.RunOptions#settleTimeoutFor}). */
  public Duration timeoutFor(PayoutLoad load) {
    return run.options().settleTimeoutFor(load.maxTransfersPerWallet(), load.transferCount());
  }

  /**
   * Produces the load and waits, with a progress display, until every transfer has a settlement,
   * the deadline passes or a child dies. Settlements of earlier loads are not read again.
   */
  public Settling settle(PayoutLoad load) throws InterruptedException {
    return settle(load, timeoutFor(load));
  }

  /** Like {@link #settle(PayoutLoad)}, waiting up to {@code timeout}. */
  public Settling settle(PayoutLoad load, Duration timeout) throws InterruptedException {
    String bootstrapServers = run.stack().kafka().bootstrapServers();
    List<TransferRef> refs = load.expected().stream().map(ExpectedTransfer::ref).toList();
    try (SettlementWatcher watcher = SettlementWatcher.fromNow(bootstrapServers, clock, refs)) {
      say("producing %d payout requests (%d transfers) on %d wallets; waiting up to %d s for their settlements",
          load.requestCount(), load.transferCount(), run.wallets().count(), timeout.toSeconds());
      long started = clock.millis();
      load.produce(bootstrapServers);
      long deadline = started + timeout.toMillis();
      Optional<String> stopped = Optional.empty();
      try (ProgressDisplay progress = ProgressDisplay.open("settling", refs.size(), out)) {
        while (true) {
          SettlementWatcher.Tally tally = watcher.tally();
          progress.update(tally.settled(), "failed=" + (tally.settled() - tally.statusCounts()
              .get(SettlementStatus.SETTLED)));
          if (tally.missing() == 0) {
            break;
          }
          Optional<ChildProcess> dead = run.processes().firstDead();
          if (dead.isPresent()) {
            stopped = Optional.of(dead.get().name() + " exited with code " + dead.get().exitCode().orElse(-1)
                + "; last lines of its log:\n  " + String.join("\n  ", dead.get().tail(10)));
            break;
          }
          if (watcher.failure() != null) {
            stopped = Optional.of("cannot read payout.settlements: " + watcher.failure());
            break;
          }
          if (clock.millis() > deadline) {
            stopped = Optional.of("not every transfer settled within " + timeout.toSeconds() + " s");
            break;
          }
          watcher.awaitArrival(Duration.ofMillis(250));
        }
      }
      return result(watcher, started, stopped);
    }
  }

  private Settling result(SettlementWatcher watcher, long started, Optional<String> stopped) {
    SettlementWatcher.Tally tally = watcher.tally();
    List<ObservedSettlement> first = new ArrayList<>(watcher.firstArrivals());
    first.sort(Comparator.comparingLong(ObservedSettlement::observedAtMillis));
    long last = stopped.isPresent() ? clock.millis()
        : first.isEmpty() ? started : first.get(first.size() - 1).observedAtMillis();
    return new Settling(started, last, new LinkedHashMap<>(tally.statusCounts()), tally.missing(), tally.duplicates(),
        first, stopped);
  }

  /** Checks the ledger (and, on devnet, the chain) after settling. */
  public LedgerAudit.Report auditLedger() {
    return LedgerAudit.run(run.stack().ledgerJdbcUrl(), run.stack().postgres().user(),
        run.stack().postgres().password(), run.wallets().addresses(), run.stack().devnet());
  }

  private void say(String format, Object... args) {
    out.printf(format + "%n", args);
    out.flush();
  }
}
