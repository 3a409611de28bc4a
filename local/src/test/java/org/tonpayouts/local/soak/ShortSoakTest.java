package org.tonpayouts.local.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.tonpayouts.local.audit.ChainAudit.Rule;
import org.tonpayouts.local.audit.ChainAudit;
import org.tonpayouts.local.stack.ChildConfig;
import org.tonpayouts.local.stack.Home;
import org.tonpayouts.local.stack.RunOptions;
import org.tonpayouts.schemas.SettlementStatus;

/**
 * The short soak of issue 9, in the default test run: two streams-app and two chain-poller child
 * JVMs pay 200 transfers over 20 wallets while each process kind is killed with kill -9 three
 * times, one streams-app instance is paused past its session timeout and resumed (a zombie),
 * every devnet fault fires at 5 %, a foreign signer pays repeated payees of ours ahead of our
 * transfers to them (issue 28), one wallet is flooded with dust right after a chain-poller
 * kill and for 40 s after, about a fifth of the transfers pay a jetton (issue 26), and, on a cluster
 * of three Kafka nodes, a node is killed, PostgreSQL is
 * stopped, and a process's own API node goes down (issue 27). One run (about three
 * minutes on two cores) feeds every test below: the auditor found nothing, and the chaos really
 * happened.
 *
 * <p>The seed is fixed so a failure can be repeated ({@code -Dsoak.seed=N} picks another plan).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ShortSoakTest {
  private static final long SEED = Long.getLong("soak.seed", 20261123L);
  private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(10);
  /** 600 at once (more than a chain-poller's 16 pages of 32 per round), then 1,000 a minute for 40 s. */
  private static final SoakOptions.Dust DUST = new SoakOptions.Dust(1, 600, 1_000, Duration.ofSeconds(40));

  /**
   * One broker kill -9, one PostgreSQL stop of 5 s, one provider outage of 20 s (issue 27). No
   * freeze here: its 30 s stall of every wallet, in a 60 s window, leaves the zombie's bait and the
   * front-runs nothing in flight to aim at too often; the long soak has them (docs/soak.md).
   */
  private static final SoakOptions.Infrastructure INFRASTRUCTURE = new SoakOptions.Infrastructure(1, 0, 1, 0, 1,
      Duration.ofSeconds(5), Duration.ofSeconds(15), Duration.ofSeconds(20));

  /**
   * Every fault at 5 %, but lag episodes over 20 % of the window: at 5 % (one episode of 3 s on one
   * of the nodes) a lagging read was a matter of luck: with seed 20261123 one read in the TON-only
   * run, none in two runs with jetton transfers (the API traffic differs).
   */
  private static final SoakOptions.FaultRates RATES = new SoakOptions.FaultRates(0.05, 0.05, 0.05, 0.05, 0.2, 0.05,
      0.05);

  private SoakReport report;
  private String printed;

  @BeforeAll
  void soak() throws Exception {
    Home home = Home.locate();
    assertThat(home.streamsAppJar()).as("the reactor builds streams-app's jar before this module's tests")
        .isRegularFile();
    assertThat(home.chainPollerJar()).isRegularFile();
    SoakOptions options = new SoakOptions(200, 20, Duration.ofSeconds(60), SEED, 3, 3, 1, 0.5,
        RATES, SESSION_TIMEOUT, Duration.ofSeconds(240), DUST, INFRASTRUCTURE,
        new SoakOptions.Jettons(Double.parseDouble(System.getProperty("soak.jetton.share", "0.2")), 1));
    RunOptions stack = new RunOptions(options.wallets(), 4, Duration.ofMillis(200), Optional.empty(), Optional.empty(),
        Optional.empty(), RunOptions.DEVNET_REQUESTS_PER_SECOND, false, options.drainTimeout(),
        // kept under target/ (not a temporary directory): the processes' logs are what a failure is read from
        Files.createDirectories(Path.of("target", "short-soak")), home, options.childDefaults());
    StringWriter out = new StringWriter();
    PrintWriter writer = new PrintWriter(out, true);
    report = Soak.run(options, stack, writer, Clock.systemUTC());
    report.print(writer);
    printed = out.toString();
    System.out.println(printed);
  }

  @Test
  void shouldFindNoViolationOnChainInTheLedgerOrInTheTopics() {
    assertThat(report.audit().violations()).as("%s", printed).isEmpty();
    assertThat(report.problems()).as("%s", printed).isEmpty();
    assertThat(report.exitCode()).isZero();
    assertThat(printed).contains("Result: PASSED, no violation");
  }

  @Test
  void shouldSettleEveryTransferOnceAndPayNoneTwice() {
    ChainAudit audit = report.audit();
    assertThat(audit.transfersRequested()).isEqualTo(report.load().transferCount()).isGreaterThanOrEqualTo(200);
    assertThat(audit.lostTransfers()).isZero();
    assertThat(audit.doublePayouts()).isZero();
    int terminal = audit.count(SettlementStatus.SETTLED) + audit.count(SettlementStatus.FAILED)
        + audit.count(SettlementStatus.ABORTED) + audit.count(SettlementStatus.RECONCILIATION_REQUIRED);
    assertThat(terminal).as("one terminal settlement per transfer").isEqualTo(audit.transfersRequested());
    // the legs over the balance failed; every transfer that settled is on chain
    assertThat(audit.count(SettlementStatus.FAILED)).isGreaterThanOrEqualTo(1);
    assertThat(audit.landed()).isGreaterThanOrEqualTo(audit.count(SettlementStatus.SETTLED));
    assertThat(audit.reusedIdsRejected()).isEqualTo(audit.reusedIds()).isGreaterThanOrEqualTo(2);
    assertThat(report.load().count(SoakLoad.Kind.DUPLICATE)).isGreaterThanOrEqualTo(1);
  }

  /**
   * Issue 26: about a fifth of the transfers pay the run's jetton (USDT on devnet) to fresh owners,
   * through the same kills and faults. The auditor read every jetton balance on chain: each owner
   * holds exactly its SETTLED jetton transfers (nothing paid twice), each paying wallet what was
   * minted minus its SETTLED ones (every FAILED one re-credited); every SETTLED one shows the
   * receiver's acceptance. One owner's jetton wallet is locked for receiving: the transfers to it
   * are handed over, refused by the receiver, and end FAILED with the jettons back.
   */
  @Test
  void shouldPayJettonsThroughTheChaosAndFindEveryJettonBalanceAsSettled() {
    List<org.tonpayouts.local.audit.ExpectedTransfer> jettons = report.load().jettonTransfers();
    assertThat(jettons).as("about a fifth of the transfers: %s", printed).hasSizeGreaterThanOrEqualTo(20);
    ChainAudit.JettonFigures figures = report.audit().jettons();
    assertThat(figures.transfers()).isEqualTo(jettons.size());
    assertThat(figures.settlements().values().stream().mapToInt(Integer::intValue).sum())
        .as("a terminal settlement for every jetton transfer").isEqualTo(jettons.size());
    assertThat(figures.count(SettlementStatus.SETTLED)).as("%s", printed).isGreaterThanOrEqualTo(jettons.size() / 2);
    assertThat(figures.delivered()).as("every SETTLED one accepted by the receiver's jetton wallet")
        .isEqualTo(figures.count(SettlementStatus.SETTLED));
    assertThat(figures.destinationsBalance()).as("the owners hold exactly what was SETTLED to them")
        .isEqualTo(figures.settledUnits()).isPositive();
    assertThat(figures.payersBalance()).as("the payers hold what was minted minus what was SETTLED")
        .isEqualTo(figures.minted().subtract(figures.settledUnits()));
    assertThat(figures.minted()).isEqualTo(org.tonpayouts.local.stack.StackRun.FUNDING_JETTON_UNITS
        .multiply(java.math.BigInteger.valueOf(20)));
    assertThat(jettons).as("seed %d pays the refusing owner", SEED)
        .anySatisfy(t -> assertThat(report.load().refusingPayees()).contains(t.destination()));
    assertThat(figures.refusedBack()).as("refused by the receiver and re-credited: %s", printed).isPositive();
    assertThat(figures.count(SettlementStatus.FAILED)).isGreaterThanOrEqualTo(figures.refusedBack());
    for (Rule rule : List.of(Rule.JETTON_BALANCE_NOT_AS_SETTLED, Rule.JETTON_PAYER_BALANCE_WRONG,
        Rule.JETTON_NOT_DELIVERED, Rule.PAID_BUT_REPORTED_UNPAID, Rule.PAID_NOT_AS_REQUESTED)) {
      assertThat(report.audit().violations(rule)).as("%s", rule).isZero();
    }
    assertThat(printed).contains("jettons           " + jettons.size() + " jetton transfers");
  }

  @Test
  void shouldHaveKilledEveryProcessKindThreeTimesAndRestartedOnKeptAndWipedState() {
    SoakChaos.Summary chaos = report.chaos();
    assertThat(chaos.kills(ChildConfig.STREAMS_APP)).as("%s", printed).isEqualTo(3);
    assertThat(chaos.kills(ChildConfig.CHAIN_POLLER)).isEqualTo(3);
    assertThat(chaos.killsByChild()).containsOnlyKeys("streams-app-1", "streams-app-2", "chain-poller-1",
        "chain-poller-2");
    assertThat(chaos.restartsWiped() + chaos.restartsKept()).isEqualTo(6);
    assertThat(chaos.unexpectedExits()).as("no process exited by itself").isEmpty();
  }

  /**
   * The process-level zombie: paused past its session timeout (and Kafka Streams' transaction
   * timeout) while a round of it waited for the API, its partitions taken by the other instance
   * (newer epochs in the ledger), then resumed. It must record nothing until it owns a partition
   * again; what it tried is refused by the ledger (FENCED_WRITE_REFUSED), and none of those
   * messages is on chain unless the new owner recorded the very same bytes.
   */
  @Test
  void shouldFenceTheResumedZombieSoItRecordsAndSendsNothing() {
    assertThat(report.chaos().zombies()).as("%s", printed).hasSize(1);
    ZombieEvidence zombie = report.chaos().zombies().get(0);
    assertThat(zombie.partitionsHeld()).as("it held partitions when paused").isNotEmpty();
    assertThat(zombie.roundWaitingWhenPaused()).as("a round of it waited for a wallet read when paused").isTrue();
    assertThat(zombie.takenOver()).as("another instance took them (newer epochs)").isTrue();
    assertThat(zombie.pausedSeconds()).isGreaterThan(SESSION_TIMEOUT.toSeconds());
    assertThat(zombie.intentsBeforeRetake()).as("intents recorded by the zombie").isZero();
    assertThat(zombie.attemptedWrites()).as("its in-flight round tried to record once resumed").isTrue();
    assertThat(zombie.refusedHashes()).as("refused by the ledger (audit FENCED_WRITE_REFUSED)").isNotEmpty();
    assertThat(report.audit().fencedRefusals()).isGreaterThanOrEqualTo(zombie.refusedHashes().size());
    assertThat(zombie.fencedMetric().orElse(0)).as("counted in its ton_tx_fenced_total").isGreaterThanOrEqualTo(1);
    assertThat(report.audit().violations(Rule.FENCED_MESSAGE_USED)).isZero();
    assertThat(report.audit().violations(Rule.SIGNED_OUTSIDE_LEDGER)).isZero();
  }

  /**
   * Issue 27: the soak stands on a cluster of three Kafka nodes, and what the apps stand on fails
   * under load: a node killed with kill -9 (child JVMs) and restarted, PostgreSQL stopped and
   * started, and a process's own API node down while its backup carries on. No process exits by itself, nothing is lost or paid
   * twice (the audit above), and settlements come again after each fault.
   */
  @Test
  void shouldSurviveABrokerKillALedgerStopAndAProviderOutage() {
    List<InfrastructureChaos.Episode> episodes = report.chaos().infrastructure();
    assertThat(episodes).as("%s", printed).extracting(InfrastructureChaos.Episode::kind).containsExactlyInAnyOrder(
        InfrastructureChaos.BROKER_KILL, InfrastructureChaos.LEDGER_STOP, InfrastructureChaos.PROVIDER_OUTAGE);
    assertThat(report.faultCounts()).as("the provider refused requests while down")
        .hasEntrySatisfying("refused in a provider outage (503)", n -> assertThat(n).isPositive());
    assertThat(report.recoveries()).extracting(RecoveryTimes::kind).containsExactlyInAnyOrder(
        InfrastructureChaos.BROKER_KILL, InfrastructureChaos.LEDGER_STOP, InfrastructureChaos.PROVIDER_OUTAGE);
    assertThat(report.recoveries()).as("a settlement came after every fault: %s", printed)
        .allSatisfy(r -> assertThat(r.withoutSettlementAfter()).isZero());
    assertThat(printed).contains("recovery p50");
    assertThat(report.chaos().unexpectedExits()).as("no process exited by itself").isEmpty();
  }

  @Test
  void shouldHaveInjectedEveryDevnetFault() {
    Map<String, Long> faults = report.faultCounts();
    assertThat(faults).as("%s", printed)
        .hasEntrySatisfying("rate limited (429)", n -> assertThat(n).isPositive())
        .hasEntrySatisfying("transport error after acceptance", n -> assertThat(n).isPositive())
        .hasEntrySatisfying("dropped message", n -> assertThat(n).isPositive())
        .hasEntrySatisfying("stale read", n -> assertThat(n).isPositive())
        .hasEntrySatisfying("lagging read", n -> assertThat(n).isPositive())
        .hasEntrySatisfying("delayed request", n -> assertThat(n).isPositive());
    assertThat(report.chaos().lagEpisodes()).isPositive();
    assertThat(report.chaos().latencyEpisodes()).isPositive();
    assertThat(report.plan().count(ChaosPlan.Foreign.class)).as("foreign payments, 5 %% of the transfers")
        .isEqualTo(10);
    assertThat(report.foreign()).as("and half as many to repeated payees, and the one the dust flood buries")
        .hasSizeGreaterThanOrEqualTo(10 + 5 + 1);
    assertThat(report.audit().foreignLanded()).isPositive();
  }

  /**
   * Issue 28: someone else holding the key pays, from a wallet with a transfer of ours in flight,
   * that transfer's payee (one the wallet paid before, the same amount), ahead of it, taking its
   * seqno. The chain then holds two payments to the payee of that amount that are not this
   * transfer's (ours, earlier, and the foreign one at its very seqno): it must end
   * RECONCILIATION_REQUIRED, never SETTLED by either. The auditor counts the foreign payments by
   * what the signer recorded, so none of them is an unrequested payment or a landing of ours.
   */
  @Test
  void shouldNeverSettleATransferWhoseSeqnoAForeignPaymentToItsRepeatedPayeeTook() {
    assertThat(report.load().repeatedPayees()).isNotEmpty();
    assertThat(report.chaos().payeeFrontRuns()).as("%s", printed)
        .hasSize((int) report.plan().count(ChaosPlan.PayeeFrontRun.class)).hasSize(5)
        .anySatisfy(f -> assertThat(f.target()).as("aimed at a transfer in flight").isNotNull());
    assertThat(report.audit().foreignLandings()).as("%s", printed)
        .anySatisfy(f -> {
          assertThat(f.repeatedPayee()).isTrue();
          assertThat(f.sameAmount()).isTrue();
          assertThat(f.seqnoOf()).as("it took the seqno of a transfer of ours").isNotNull();
        });
    assertThat(report.foreignToRepeatedPayeesTakingOurSeqno()).as("%s", printed).isNotEmpty()
        .allSatisfy(f -> assertThat(f.seqnoOfStatus()).as("%s", f)
            .isEqualTo(SettlementStatus.RECONCILIATION_REQUIRED));
    assertThat(report.audit().reconciliations()).extracting(ChainAudit.Reconciliation::ref)
        .containsAll(report.foreignToRepeatedPayeesTakingOurSeqno().stream().map(ChainAudit.ForeignLanding::seqnoOf)
            .toList());
    assertThat(report.audit().violations(Rule.UNREQUESTED_PAYMENT)).isZero();
    assertThat(report.audit().violations(Rule.SETTLED_NOT_ON_CHAIN)).isZero();
  }

  /**
   * Issue 28: a dust flood. Right after a chain-poller kill, a foreign payment takes the seqno of
   * a transfer in flight and 600 inbound 1-nanoton transfers land on top of it, then 1,000 a minute
   * for 40 s (or longer, until the wallet paid under it). The transfer can only be reconciled from the transaction that took its seqno, which
   * only a scan of the wallet's own history finds, through more transactions than a poller reads
   * in one round (16 pages of 32): the scan goes on across rounds, the transfer ends
   * RECONCILIATION_REQUIRED, the wallet keeps paying, and nothing is lost or paid twice.
   */
  @Test
  void shouldKeepPayingAWalletThroughADustFlood() {
    assertThat(report.chaos().dustFloods()).as("%s", printed).hasSize(1);
    DustFlooder.Flood flood = report.chaos().dustFloods().get(0);
    assertThat(flood.burst()).isEqualTo(600);
    assertThat(flood.steady()).as("about 1,000 a minute for 40 s, longer until the wallet paid under it")
        .isBetween(600, 700 * DustFlooder.STEADY_STRETCH);
    assertThat(report.dustTransfers()).isGreaterThanOrEqualTo(600 + 600);
    assertThat(flood.buried()).as("the burst landed on a transfer in flight: %s", printed).isNotNull();
    assertThat(report.buriedUnder(flood)).as("%s", printed).hasValueSatisfying(took -> {
      assertThat(took.seqnoOf()).as("the foreign payment took the seqno of the transfer in flight")
          .isEqualTo(flood.buried());
      assertThat(took.seqnoOfStatus()).isEqualTo(SettlementStatus.RECONCILIATION_REQUIRED);
    });
    assertThat(report.scansCutShort(flood)).as("scans of the wallet went on across rounds: %s", printed)
        .isPositive();
    assertThat(flood.seqnoAtEnd()).as("the wallet paid again during the flood").isGreaterThan(flood.seqnoAtStart());
    assertThat(report.audit().lostTransfers()).isZero();
  }
}
