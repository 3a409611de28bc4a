package org.tonpayouts.local.soak;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.tonpayouts.local.audit.ChainAudit;
import org.tonpayouts.local.stack.ChildConfig;
import org.tonpayouts.local.stack.RunDirectory;
import org.tonpayouts.schemas.SettlementStatus;

/**
 * The figures of a soak run and its verdict: what was asked, what the chaos did, what the
 * auditor found on chain, and every problem. Decides the exit code.
 *
 * @param scansCutShort chain-poller wallet scans cut short at their page budget (going on next
 *     round), by wallet (raw address), from the pollers' logs
 * @param recoveries per kind of infrastructure fault that happened, the recovery times
 */
public record SoakReport(SoakOptions options, SoakLoad load, ChaosPlan plan, SoakChaos.Summary chaos,
                         Map<String, Long> faultCounts, Map<String, Integer> scansCutShort,
                         List<ForeignSigner.Attempt> foreign, Soak.Drain drain, ChainAudit audit,
                         List<RecoveryTimes> recoveries, double elapsedSeconds, RunDirectory run) {
  /** Reconciliations listed one by one; more are counted. */
  private static final int RECONCILIATIONS_SHOWN = 50;
  /** Front-runs of repeated payees listed one by one; more are counted. */
  private static final int LINES_SHOWN = 20;

  /** Foreign payments to a repeated payee that landed and took the seqno of a transfer of ours. */
  public List<ChainAudit.ForeignLanding> foreignToRepeatedPayeesTakingOurSeqno() {
    return audit.foreignLandings().stream().filter(f -> f.repeatedPayee() && f.seqnoOf() != null).toList();
  }

  /** Scans of the flooded wallet a chain-poller cut short at its page budget. */
  public int scansCutShort(DustFlooder.Flood flood) {
    return scansCutShort.getOrDefault(flood.wallet().toRaw(), 0);
  }

  /** The foreign payment a flood's burst landed on, as the auditor found it on chain. */
  public Optional<ChainAudit.ForeignLanding> buriedUnder(DustFlooder.Flood flood) {
    return flood.frontRun() == null ? Optional.empty() : audit.foreignLandings().stream()
        .filter(l -> l.comment().equals(flood.frontRun().comment())).findFirst();
  }

  /** Dust transfers sent over every flood. */
  public int dustTransfers() {
    return chaos.dustFloods().stream().mapToInt(DustFlooder.Flood::total).sum();
  }

  /**
   * What went wrong besides the auditor's violations: a drain that did not finish, a process that
   * exited by itself, a zombie whose writes were not fenced.
   */
  public List<String> problems() {
    List<String> problems = new ArrayList<>();
    drain.stoppedBecause().ifPresent(why -> problems.add("drain: " + why));
    for (SoakChaos.UnexpectedExit e : chaos.unexpectedExits()) {
      problems.add(e.child() + " (pid " + e.pid() + ") exited by itself with code " + e.exitCode() + "; last lines:\n      "
          + String.join("\n      ", e.lastLines()));
    }
    for (ZombieEvidence z : chaos.zombies()) {
      if (z.intentsBeforeRetake() > 0) {
        problems.add("zombie " + z.child() + " recorded " + z.intentsBeforeRetake()
            + " intent(s) after its partitions were taken and before it took one again");
      }
    }
    return problems;
  }

  private void printForeignToPayees(PrintWriter out) {
    List<ChainAudit.ForeignLanding> toPayees = audit.foreignLandings().stream()
        .filter(ChainAudit.ForeignLanding::repeatedPayee).toList();
    long aimed = chaos.payeeFrontRuns().stream().filter(f -> f.target() != null).count();
    out.printf("  repeated payees   %d in the load; %d foreign front-run(s) of one, %d aimed at a transfer in flight;"
            + " %d foreign payment(s) to a repeated payee on chain (%d the same amount), %d of them took the seqno of"
            + " a transfer of ours%n", load.repeatedPayees().size(), chaos.payeeFrontRuns().size(), aimed,
        toPayees.size(), toPayees.stream().filter(ChainAudit.ForeignLanding::sameAmount).count(),
        foreignToRepeatedPayeesTakingOurSeqno().size());
    Map<String, ChainAudit.ForeignLanding> landed = audit.foreignLandings().stream()
        .collect(Collectors.toMap(ChainAudit.ForeignLanding::comment, f -> f, (a, b) -> a));
    chaos.payeeFrontRuns().stream().limit(LINES_SHOWN).forEach(f -> {
      ChainAudit.ForeignLanding l = landed.get(f.attempt().comment());
      out.printf("    '%s' of subwallet %d, %s at seqno %d, paid %s %d: %s%n", f.attempt().comment(),
          f.attempt().subwalletId(), f.target() == null ? "no transfer in flight found" : "aimed at " + f.target(),
          f.seqno(), f.planned().sameAmount() ? "its amount" : "another amount", f.attempt().amountNano(),
          l == null ? "not on chain" : "landed at seqno " + l.seqno() + (l.seqnoOf() == null ? ", no transfer of ours"
              + " bound to it" : ", the seqno of " + l.seqnoOf() + ", settled "
              + (l.seqnoOfStatus() == null ? "never" : l.seqnoOfStatus())));
    });
    if (chaos.payeeFrontRuns().size() > LINES_SHOWN) {
      out.printf("    ... and %d more%n", chaos.payeeFrontRuns().size() - LINES_SHOWN);
    }
  }

  private void printDust(PrintWriter out) {
    if (chaos.dustFloods().isEmpty()) {
      out.printf("  dust              none%n");
    }
    for (DustFlooder.Flood f : chaos.dustFloods()) {
      out.printf("  dust              %d inbound 1-nanoton transfers to subwallet %d over %.1f s: %d at once (%s),"
              + " then %d at %d a minute; meanwhile the wallet applied %d messages (seqno %d to %d), and chain-poller"
              + " scans of it were cut short at their page budget %d time(s)%n", f.total(), f.subwalletId(),
          f.seconds(), f.burst(), f.planned().whileDown() == null ? "no chain-poller kill planned"
              : f.planned().whileDown() + (f.burstWhilePollerDown() ? " down" : " NOT down"), f.steady(),
          f.planned().perMinute(), f.seqnoAtEnd() - f.seqnoAtStart(), f.seqnoAtStart(), f.seqnoAtEnd(),
          scansCutShort(f));
      Optional<ChainAudit.ForeignLanding> took = buriedUnder(f);
      out.printf("                    burst on top of %s%n", f.buried() == null
          ? "no transfer in flight (none was found in time)"
          : "'" + f.frontRun().comment() + "', a foreign payment aimed at the seqno of " + f.buried() + " in flight: "
              + took.map(l -> l.seqnoOf() == null ? "it took seqno " + l.seqno() + ", no transfer of ours bound to it"
                  : "it took seqno " + l.seqno() + " of " + l.seqnoOf() + ", settled "
                  + (l.seqnoOfStatus() == null ? "never" : l.seqnoOfStatus())).orElse("it is not on chain"));
    }
  }

  /** The jetton transfers: their settlements, and the jetton balances the auditor read on chain. */
  private void printJettons(PrintWriter out) {
    ChainAudit.JettonFigures j = audit.jettons();
    if (load.jettons().isEmpty()) {
      out.printf("  jettons           none (TON only)%n");
      return;
    }
    out.printf("  jettons           %d jetton transfers (%s): %s; %d handed to our jetton wallets, %d delivered"
            + " (the receiver's jetton wallet accepted), %d refused by a jetton wallet and re-credited%n",
        j.transfers(), load.refusingPayees().isEmpty() ? "no refusing owner"
            : load.refusingPayees().size() + " owner(s) refusing every transfer",
        java.util.Arrays.stream(SettlementStatus.values()).filter(s -> s != SettlementStatus.BOUNCED)
            .map(s -> s + " " + j.count(s)).collect(Collectors.joining(", ")), j.handedOver(), j.delivered(),
        j.refusedBack());
    out.printf("                    on chain: %d owners hold %s units, SETTLED %s; paying wallets hold %s of %s"
            + " minted (minted - SETTLED = %s)%n", j.destinations(), j.destinationsBalance(), j.settledUnits(),
        j.payersBalance(), j.minted(), j.minted().subtract(j.settledUnits()));
  }

  /** Each infrastructure fault, then per kind its recovery times. */
  private void printInfrastructure(PrintWriter out) {
    List<InfrastructureChaos.Episode> episodes = chaos.infrastructure();
    if (episodes.isEmpty()) {
      out.printf("  infrastructure    no fault%n");
      return;
    }
    out.printf("  infrastructure    %d fault(s): %s%n", episodes.size(), InfrastructureChaos.KINDS.stream()
        .map(k -> k + " " + episodes.stream().filter(e -> e.kind().equals(k)).count())
        .collect(Collectors.joining(", ")));
    episodes.stream().limit(LINES_SHOWN).forEach(e -> out.printf("    %s: %s, over after %.1f s%s%n", e.kind(),
        e.what(), e.seconds(), e.affected().isEmpty() ? "" : " (" + e.affected().size() + " wallets affected)"));
    if (episodes.size() > LINES_SHOWN) {
      out.printf("    ... and %d more%n", episodes.size() - LINES_SHOWN);
    }
    out.printf("  recovery          from a fault's end to the next settlement on a wallet it affected; longest"
        + " stretch without a settlement on them from its start%n");
    for (RecoveryTimes r : recoveries) {
      out.printf("    %-18s %d: recovery p50 %.1f s, p99 %.1f s, max %.1f s; longest stretch p50 %.1f s, max %.1f s%s%n",
          r.kind(), r.faults(), r.recoveryMillis().percentile(50) / 1000.0, r.recoveryMillis().percentile(99) / 1000.0,
          r.recoveryMillis().max() / 1000.0, r.longestGapMillis().percentile(50) / 1000.0,
          r.longestGapMillis().max() / 1000.0, r.withoutSettlementAfter() == 0 ? ""
              : "; " + r.withoutSettlementAfter() + " with no settlement after it (load over)");
    }
  }

  public boolean passed() {
    return audit.violations().isEmpty() && problems().isEmpty();
  }

  public int exitCode() {
    return passed() ? 0 : 1;
  }

  public void print(PrintWriter out) {
    out.println();
    out.printf("Soak report (seed %d)%n", options.seed());
    out.printf("  load              %d requests, %d transfers on %d wallets over %.0f s (%d over the balance,"
            + " %d exact duplicates, %d request ids reused with other content)%n",
        load.count(SoakLoad.Kind.PAYOUT) + load.count(SoakLoad.Kind.OVER_BALANCE), load.transferCount(),
        options.wallets(), drain.windowSeconds(), load.count(SoakLoad.Kind.OVER_BALANCE),
        load.count(SoakLoad.Kind.DUPLICATE), load.count(SoakLoad.Kind.REUSED_ID));
    out.printf("  settlements       %s%n", java.util.Arrays.stream(SettlementStatus.values())
        .filter(s -> s != SettlementStatus.BOUNCED).map(s -> s + " " + audit.count(s))
        .collect(Collectors.joining(", ")));
    out.printf("  on chain          %d requested transfers paid, %d double payouts, %d lost transfers%n",
        audit.landed(), audit.doublePayouts(), audit.lostTransfers());
    printJettons(out);
    out.printf("  kills survived    streams-app %d, chain-poller %d (%s); restarted on a wiped state directory %d,"
            + " on the same one %d%n", chaos.kills(ChildConfig.STREAMS_APP), chaos.kills(ChildConfig.CHAIN_POLLER),
        chaos.killsByChild().entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
            .collect(Collectors.joining(", ")), chaos.restartsWiped(), chaos.restartsKept());
    if (chaos.zombies().isEmpty()) {
      out.printf("  zombies           none%n");
    }
    for (ZombieEvidence z : chaos.zombies()) {
      out.printf("  zombie            %s paused %.1f s holding partitions %s (a round waiting for the API: %s),"
              + " taken over: %s; after SIGCONT %d"
              + " write(s) refused by fencing (log %d, ton_tx_fenced_total %s), %d recorded before it took a"
              + " partition again%n", z.child(), z.pausedSeconds(), z.partitionsHeld(),
          z.roundWaitingWhenPaused() ? "yes" : "NO", z.takenOver() ? "yes" : "NO",
          z.refusedHashes().size(), z.fencedInLog(),
          z.fencedMetric().isPresent() ? String.format("%.0f", z.fencedMetric().getAsDouble()) : "n/a",
          z.intentsBeforeRetake());
    }
    out.printf("  faults injected   %s%n", faultCounts.entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
        .collect(Collectors.joining(", ")));
    long front = foreign.stream().filter(ForeignSigner.Attempt::frontRun).count();
    out.printf("                    lag episodes %d, latency episodes %d, transport-error kind changes %d; foreign"
            + " payments %d (%d front-run, %d signed and sent), %d landed on chain%n", chaos.lagEpisodes(),
        chaos.latencyEpisodes(), chaos.transportModeChanges(), foreign.size(), front, foreign.size() - front,
        audit.foreignLanded());
    printForeignToPayees(out);
    printDust(out);
    printInfrastructure(out);
    out.printf("  fencing           %d intent(s) refused to a task that no longer held its partition%n",
        audit.fencedRefusals());
    out.printf("  reconciliation    %d RECONCILIATION_REQUIRED%s%n", audit.reconciliations().size(),
        audit.reconciliations().isEmpty() ? "" : ":");
    audit.reconciliations().stream().limit(RECONCILIATIONS_SHOWN).forEach(r -> out.printf(
        "    %s/%s (subwallet %d, paid on chain: %s): %s%n", r.ref().requestId(), r.ref().transferId(),
        r.subwalletId(), r.paidOnChain() ? "yes" : "no", r.reason()));
    if (audit.reconciliations().size() > RECONCILIATIONS_SHOWN) {
      out.printf("    ... and %d more%n", audit.reconciliations().size() - RECONCILIATIONS_SHOWN);
    }
    out.printf("  reused ids        %d of %d rejected on payout.rejected%n", audit.reusedIdsRejected(),
        audit.reusedIds());
    out.printf("  ledger messages   %s%n", audit.ledgerMessages().entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" ")));
    out.printf("  chain             %d wallet transactions read through the API, %d external messages applied%n",
        audit.chainTransactions(), audit.appliedMessages());
    out.printf("  time              load window %.1f s, drain %.1f s (end of the load to the last settlement),"
        + " whole run %.1f s%n", drain.windowSeconds(), drain.drainSeconds(), elapsedSeconds);
    out.printf("  logs              %s%n", run.dir());
    audit.violations().forEach(v -> out.printf("  VIOLATION %s%n", v));
    problems().forEach(p -> out.printf("  PROBLEM %s%n", p));
    out.println(passed() ? "Result: PASSED, no violation"
        : "Result: FAILED, " + audit.violations().size() + " violation(s), " + problems().size() + " problem(s)");
    out.flush();
  }
}
