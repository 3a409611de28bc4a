package org.tonpayouts.local.soak;

import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.local.audit.ChainAudit;
import org.tonpayouts.local.audit.ChainAuditor;
import org.tonpayouts.local.audit.ExpectedTransfer;
import org.tonpayouts.local.audit.ForeignPayment;
import org.tonpayouts.local.audit.LedgerRecords;
import org.tonpayouts.local.audit.ReusedRequestId;
import org.tonpayouts.local.audit.TopicSnapshot;
import org.tonpayouts.local.audit.TransferRef;
import org.tonpayouts.local.measure.ObservedSettlement;
import org.tonpayouts.local.measure.ProgressDisplay;
import org.tonpayouts.local.measure.SettlementWatcher;
import org.tonpayouts.local.stack.LocalStack;
import org.tonpayouts.local.stack.RunOptions;
import org.tonpayouts.local.stack.StackRun;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.Rejected;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.TonApiConfig;

/**
 * One soak run: the local stack with two streams-app and two chain-poller processes on devnet and
 * a Kafka cluster of three nodes, each process with its own API node and a backup one, a {@link
 * SoakLoad} produced over the window while {@link SoakChaos} kills, pauses and faults them and
 * what they stand on, then the drain (every transfer settled), then the {@link ChainAuditor}'s
 * verdict.
 */
public final class Soak {
  private static final Logger log = LoggerFactory.getLogger(Soak.class);
  public static final StackRun.Instances INSTANCES = new StackRun.Instances(2, 2, true);
  private static final Duration REJECTIONS_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration PROGRESS_EVERY = Duration.ofMillis(500);
  /** Minted to each refusing jetton owner to deploy its jetton wallet, so its status can be set. */
  static final java.math.BigInteger REFUSING_PAYEE_MINT = java.math.BigInteger.ONE;

  private final SoakOptions options;
  private final RunOptions stack;
  private final PrintWriter out;
  private final Clock clock;

  private Soak(SoakOptions options, RunOptions stack, PrintWriter out, Clock clock) {
    this.options = options;
    this.stack = stack;
    this.out = out;
    this.clock = clock;
  }

  /** Runs the soak; the report says what happened and whether any rule was broken. */
  public static SoakReport run(SoakOptions options, RunOptions stack, PrintWriter out, Clock clock)
      throws InterruptedException {
    if (!stack.onDevnet()) {
      throw new IllegalArgumentException("the soak runs on devnet only: it injects faults into the chain's API");
    }
    return new Soak(options, stack, out, clock).run();
  }

  private SoakReport run() throws InterruptedException {
    long started = clock.millis();
    say("soak seed %d (repeat the run with --seed %d)", options.seed(), options.seed());
    try (StackRun run = StackRun.start(stack.withBrokers(LocalStack.Brokers.CLUSTER_OF_THREE), INSTANCES, out, clock,
        true);
        TonApiClient api = new TonApiClient(TonApiConfig.of(run.stack().devnet().orElseThrow().apiUrl())
            .withRequestsPerSecond(RunOptions.DEVNET_REQUESTS_PER_SECOND))) {
      run.fund();
      Devnet devnet = run.stack().devnet().orElseThrow();
      Optional<SoakLoad.Jettons> jettons = options.jettons().on() ? run.jettonMaster()
          .map(m -> new SoakLoad.Jettons(m, options.jettons().share(), options.jettons().refusingPayees()))
          : Optional.empty();
      SoakLoad load = SoakLoad.build(run.wallets(), options.transfers(), "soak-" + run.directory().runId(),
          options.seed(), clock.instant(), jettons);
      lockRefusingPayees(devnet, load);
      ChaosPlan plan = ChaosPlan.draw(options, INSTANCES, load.transferCount());
      describe(load, plan);
      ForeignSigner foreign = new ForeignSigner(run.key().key(), devnet, api, clock);
      SoakLedger ledger = SoakLedger.of(run);
      String bootstrap = run.stack().kafka().bootstrapServers();
      List<TransferRef> refs = load.expected().stream().map(ExpectedTransfer::ref).toList();

      Drain drain;
      SoakChaos.Summary chaosSummary;
      Map<String, Long> faultCounts;
      Map<String, Integer> scansCutShort;
      List<RecoveryTimes> recoveries;
      try (SettlementWatcher watcher = SettlementWatcher.start(bootstrap, clock);
          SoakProducer producer = new SoakProducer(load, options.window(), bootstrap, watcher, clock);
          SoakChaos chaos = new SoakChaos(plan, options, run, foreign, ledger, producer, clock, out)) {
        long windowStart = clock.millis();
        chaos.start(windowStart);
        producer.start();
        drain = awaitDrain(watcher, producer, chaos, refs, windowStart);
        chaos.awaitPlanDone(options.drainTimeout());
        awaitReusedIdsRejected(bootstrap, load);
        chaos.clearFaults();
        faultCounts = chaos.faultCounts();
        scansCutShort = chaos.scansCutShort();
        chaosSummary = chaos.summary();
        recoveries = RecoveryTimes.of(chaosSummary.infrastructure(), settledAtByWallet(watcher, load));
        if (chaos.failure() != null) {
          drain = drain.failed("the chaos driver failed: " + chaos.failure());
        }
      }
      say("stopping the four processes (the audit reads a ledger and a chain nobody writes to any more) ...");
      run.stopChildren();
      say("auditing: devnet's chain through its API, the ledger, payout.settlements and payout.rejected ...");
      LedgerRecords records = new LedgerRecords(run.stack().ledgerJdbcUrl(), run.stack().postgres().user(),
          run.stack().postgres().password());
      ChainAudit audit = ChainAuditor.audit(new ChainAuditor.Sources(api, records, bootstrap,
          run.wallets().addresses(), run.key().key().publicKey()), expectations(load, foreign.attempts(),
          StackRun.FUNDING_JETTON_UNITS));
      return new SoakReport(options, load, plan, chaosSummary, faultCounts, scansCutShort, foreign.attempts(), drain,
          audit, recoveries, (clock.millis() - started) / 1000.0, run.directory());
    }
  }

  /** When the settlements of each paying wallet's transfers were observed on payout.settlements. */
  private static Map<Long, List<Long>> settledAtByWallet(SettlementWatcher watcher, SoakLoad load) {
    Map<Long, List<Long>> byWallet = new java.util.HashMap<>();
    for (ExpectedTransfer e : load.expected()) {
      for (ObservedSettlement seen : watcher.settlements(e.ref())) {
        byWallet.computeIfAbsent(e.subwalletId(), w -> new ArrayList<>()).add(seen.observedAtMillis());
      }
    }
    return byWallet;
  }

  /**
   * What the auditor is told: the load's transfers, its request ids reused with other content (told
   * apart by {@link SoakLoad#REUSED_ID_MARK}), and every payment the foreign signer attempted.
   */
  static ChainAuditor.Expectations expectations(SoakLoad load, List<ForeignSigner.Attempt> foreign,
      java.math.BigInteger jettonsMintedPerWallet) {
    Map<TonAddress, java.math.BigInteger> heldBefore = new java.util.HashMap<>();
    load.refusingPayees().forEach(owner -> heldBefore.put(owner, REFUSING_PAYEE_MINT));
    List<ReusedRequestId> reused = load.reusedIds().stream()
        .map(r -> new ReusedRequestId(r.requestId(), r.subwalletId(), SoakLoad.REUSED_ID_MARK)).toList();
    List<ForeignPayment> payments = foreign.stream()
        .map(a -> new ForeignPayment(a.wallet(), a.destination(), a.amountNano(), a.comment(), a.messageHash()))
        .toList();
    List<ChainAuditor.JettonFunding> jettons = load.jettons()
        .map(j -> List.of(new ChainAuditor.JettonFunding(j.master(), jettonsMintedPerWallet, heldBefore)))
        .orElse(List.of());
    return new ChainAuditor.Expectations(load.expected(), reused, payments, jettons);
  }

  /**
   * Locks the refusing jetton owners' jetton wallets for receiving (a stablecoin wallet's status 2,
   * set through the minter as its admin would), before any transfer to them is produced. A status is
   * set on a deployed wallet only: {@link #REFUSING_PAYEE_MINT} is minted to each first (the auditor
   * is told).
   */
  private void lockRefusingPayees(Devnet devnet, SoakLoad load) {
    load.jettons().ifPresent(j -> {
      for (TonAddress owner : load.refusingPayees()) {
        if (!devnet.mintJettons(j.master(), owner, REFUSING_PAYEE_MINT).ok()
            || !devnet.setJettonWalletStatus(j.master(), owner, 2).ok()) {
          throw new IllegalStateException("devnet could not lock the jetton wallet of " + owner + " for receiving");
        }
        say("jetton owner %s refuses every transfer (its jetton wallet locked for receiving)", owner.toRaw());
      }
    });
  }

  /**
   * How the settling went.
   *
   * @param windowSeconds how long producing the load took
   * @param drainSeconds from the end of the load window to the last settlement of a requested transfer
   * @param unsettled requested transfers without a settlement when waiting stopped
   * @param stoppedBecause why waiting stopped before every transfer settled
   */
  record Drain(double windowSeconds, double drainSeconds, int unsettled, Optional<String> stoppedBecause) {
    Drain failed(String why) {
      return new Drain(windowSeconds, drainSeconds, unsettled, Optional.of(stoppedBecause.map(w -> w + "; ")
          .orElse("") + why));
    }
  }

  private Drain awaitDrain(SettlementWatcher watcher, SoakProducer producer, SoakChaos chaos, List<TransferRef> refs,
      long windowStart) throws InterruptedException {
    long deadline = windowStart + options.window().toMillis() + options.drainTimeout().toMillis();
    Optional<String> stopped = Optional.empty();
    long lastSettlement = windowStart;
    try (ProgressDisplay progress = ProgressDisplay.open("soak", refs.size(), out)) {
      while (true) {
        int done = watcher.settledCount(refs);
        SoakChaos.Summary s = chaos.summary();
        progress.update(done, "produced=" + producer.produced() + " kills=" + s.killsByChild().values().stream()
            .mapToInt(Integer::intValue).sum() + " zombies=" + s.zombies().size() + " foreign=" + s.foreignEvents()
            + " infrastructure=" + s.infrastructure().size());
        if (done == refs.size() && producer.done()) {
          break;
        }
        if (producer.failure() != null) {
          stopped = Optional.of("cannot produce the load: " + producer.failure());
          break;
        }
        if (watcher.failure() != null) {
          stopped = Optional.of("cannot read payout.settlements: " + watcher.failure());
          break;
        }
        if (clock.millis() > deadline) {
          stopped = Optional.of((refs.size() - done) + " transfers not settled within the window + "
              + options.drainTimeout().toSeconds() + " s");
          break;
        }
        watcher.awaitArrival(PROGRESS_EVERY);
      }
    }
    for (TransferRef ref : refs) {
      for (ObservedSettlement seen : watcher.settlements(ref)) {
        lastSettlement = Math.max(lastSettlement, seen.observedAtMillis());
      }
    }
    long windowEnd = producer.finishedMillis() > 0 ? producer.finishedMillis() : clock.millis();
    return new Drain((windowEnd - windowStart) / 1000.0, Math.max(0, lastSettlement - windowEnd) / 1000.0,
        refs.size() - watcher.settledCount(refs), stopped);
  }

  /** A reused id is rejected when its wallet reaches it: wait for those the last settlements overtook. */
  private void awaitReusedIdsRejected(String bootstrap, SoakLoad load) throws InterruptedException {
    long deadline = clock.millis() + REJECTIONS_TIMEOUT.toMillis();
    while (clock.millis() < deadline) {
      List<Rejected> rejected = TopicSnapshot.read(bootstrap, Topics.PAYOUT_REJECTED, REJECTIONS_TIMEOUT);
      List<PayoutRequest> missing = new ArrayList<>(load.reusedIds());
      missing.removeIf(r -> rejected.stream().anyMatch(x -> x.originalPayload() != null
          && x.originalPayload().contains("\"" + r.requestId() + "\"")
          && x.originalPayload().contains(SoakLoad.REUSED_ID_MARK)));
      if (missing.isEmpty()) {
        return;
      }
      Thread.sleep(1_000);
    }
    log.warn("not every reused request id was rejected within {} s", REJECTIONS_TIMEOUT.toSeconds());
  }

  private void describe(SoakLoad load, ChaosPlan plan) {
    say("load: %d requests (%d transfers, %d of them jetton transfers) on %d wallets over %d s: %d with a leg over"
            + " the balance, %d exact duplicates, %d request ids reused with other content",
        load.count(SoakLoad.Kind.PAYOUT) + load.count(SoakLoad.Kind.OVER_BALANCE), load.transferCount(),
        load.jettonTransfers().size(), options.wallets(), options.window().toSeconds(),
        load.count(SoakLoad.Kind.OVER_BALANCE), load.count(SoakLoad.Kind.DUPLICATE),
        load.count(SoakLoad.Kind.REUSED_ID));
    SoakOptions.FaultRates r = options.faults();
    say("chaos: %d kill -9 of streams-app, %d of chain-poller (%.0f %% restarted on a wiped state directory), %d"
            + " zombie pause(s), %d foreign payments, %d lag and %d latency episodes; per API request: 429 %.1f %%,"
            + " transport error after acceptance %.1f %%, dropped message %.1f %%, stale read %.1f %%",
        options.streamsAppKills(), options.pollerKills(), options.wipeRate() * 100, options.zombies(),
        plan.count(ChaosPlan.Foreign.class), plan.count(ChaosPlan.Lag.class), plan.count(ChaosPlan.Latency.class),
        r.rateLimit() * 100, r.transportError() * 100, r.drop() * 100, r.stale() * 100);
    SoakOptions.Dust dust = options.dust();
    say("chaos: %d foreign front-run(s) of a transfer in flight to a repeated payee (the load has %d repeated"
            + " payees), %d dust flood(s) of %d inbound 1-nanoton transfers on one wallet (%d at once right after a"
            + " chain-poller kill, on top of a foreign payment that took the seqno of its transfer in flight, then %d"
            + " a minute for %d s)", plan.count(ChaosPlan.PayeeFrontRun.class),
        load.repeatedPayees().size(), plan.count(ChaosPlan.DustFlood.class), dust.perFlood(), dust.burst(),
        dust.perMinute(), dust.steady().toSeconds());
    SoakOptions.Infrastructure infra = options.infrastructure();
    say("chaos: on a Kafka cluster of three nodes (replication 3, min.insync.replicas 2), each process with a"
            + " backup API node: %d broker kill -9 (the controller, a busy partition's leader, any node in turn), %d"
            + " rolling restart(s), %d PostgreSQL stop(s) of %d s, %d PostgreSQL pause(s) of %d s, %d provider"
            + " outage(s) of %d s", infra.brokerKills(), infra.rollingRestarts(), infra.ledgerStops(),
        infra.ledgerDownFor().toSeconds(), infra.ledgerPauses(), infra.ledgerPausedFor().toSeconds(),
        infra.providerOutages(), infra.providerDownFor().toSeconds());
  }

  private void say(String format, Object... args) {
    synchronized (out) {
      out.printf(format + "%n", args);
      out.flush();
    }
  }
}
