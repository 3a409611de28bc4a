package org.tonpayouts.local.measure;

import java.io.PrintWriter;
import java.util.List;
import java.util.stream.Collectors;
import org.tonpayouts.local.audit.LedgerAudit;
import org.tonpayouts.local.stack.RunDirectory;
import org.tonpayouts.schemas.SettlementStatus;

/**
 * The end of a run in a few lines: what was asked, how each transfer ended, whether the ledger and
 * chain agree on every wallet's seqnos, how long it took and where the logs are. Decides the exit code.
 */
public record Summary(PayoutLoad load, int wallets, Settling settling, LedgerAudit.Report audit, double elapsedSeconds,
                      RunDirectory run) {
  /** 0 only when every transfer settled once, nothing is missing and every wallet's seqnos are consecutive. */
  public int exitCode() {
    return allSettled() ? 0 : 1;
  }

  public boolean allSettled() {
    return settling.stoppedBecause().isEmpty()
        && settling.count(SettlementStatus.SETTLED) == load.transferCount()
        && settling.missing() == 0
        && settling.duplicates() == 0
        && audit.consecutive();
  }

  public void print(PrintWriter out) {
    print(out, List.of());
  }

  /**
   * {@link #print(PrintWriter)} with lines of the run's own after the ledger's (the demo's jetton),
   * each a label and its text like the others.
   */
  public void print(PrintWriter out, List<String> more) {
    out.println();
    out.println("Summary");
    out.printf("  requests        %d (%d transfers) on %d wallets%n", load.requestCount(), load.transferCount(), wallets);
    out.printf("  settled         %d%n", settling.count(SettlementStatus.SETTLED));
    out.printf("  failed          %d%n", settling.count(SettlementStatus.FAILED));
    out.printf("  aborted         %d%n", settling.count(SettlementStatus.ABORTED));
    out.printf("  reconciliation  %d%n", settling.count(SettlementStatus.RECONCILIATION_REQUIRED));
    out.printf("  no settlement   %d%n", settling.missing());
    out.printf("  duplicates      %d (transfers with more than one settlement)%n", settling.duplicates());
    out.printf("  seqnos          %s%n", seqnoLine());
    out.printf("  ledger rows     %s%n", audit.statusCounts().entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" ")));
    more.forEach(line -> out.printf("  %s%n", line));
    out.printf("  elapsed         %.1f s (requests produced to last settlement: %.1f s)%n", elapsedSeconds,
        settling.loadToLastSettlementSeconds());
    out.printf("  logs            %s (launcher.log, streams-app.log, chain-poller.log)%n", run.dir());
    settling.stoppedBecause().ifPresent(why -> out.printf("  stopped waiting: %s%n", why));
    List<String> problems = audit.problems();
    problems.stream().limit(10).forEach(p -> out.printf("  ledger problem: %s%n", p));
    if (problems.size() > 10) {
      out.printf("  ... and %d more ledger problems%n", problems.size() - 10);
    }
    settling.settlements().stream()
        .filter(s -> s.settlement().status() != SettlementStatus.SETTLED)
        .limit(5)
        .forEach(s -> out.printf("  %s %s: %s%n", s.settlement().status(), s.ref(), s.settlement().reason()));
    out.println(allSettled() ? "Result: OK, every transfer settled" : "Result: NOT every transfer settled");
    out.flush();
  }

  private String seqnoLine() {
    if (audit.consecutive()) {
      return "consecutive on every wallet (" + audit.appliedMessages() + " applied messages on "
          + audit.walletsChecked() + " wallets" + ")";
    }
    return "NOT consecutive: " + audit.problems().size() + " problem(s), see below";
  }
}
