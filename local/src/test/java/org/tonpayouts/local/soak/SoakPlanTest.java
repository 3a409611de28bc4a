package org.tonpayouts.local.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.tonpayouts.local.LocalStackMain;
import org.tonpayouts.local.audit.ExpectedTransfer;
import org.tonpayouts.local.stack.StackRun;
import org.tonpayouts.local.stack.WalletSet;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.schemas.TransferRequest;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.keys.WalletKey;
import org.tonpayouts.ton.wallet.Subwallets;
import picocli.CommandLine;

/** What a soak asks for and when its chaos strikes follow from the seed; the command documents its options. */
class SoakPlanTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
  private static final SoakOptions.Dust DUST = new SoakOptions.Dust(2, 600, 1_000, Duration.ofSeconds(40));
  private final WalletSet wallets = new WalletSet(new Subwallets(WalletKey.fromSeedHex("22".repeat(32)), 0),
      Subwallets.DEFAULT_SUBWALLET_ID, 20, 10);

  @Test
  void shouldMixJettonTransfersToFreshOwnersWithoutChangingTheTonMix() throws Exception {
    TonAddress master = SoakLoad.jettonPayee("some-master", 0);
    SoakLoad ton = SoakLoad.build(wallets, 1_000, "run", 7, T0);
    SoakLoad mixed = SoakLoad.build(wallets, 1_000, "run", 7, T0,
        java.util.Optional.of(new SoakLoad.Jettons(master, 0.2, 1)));

    List<ExpectedTransfer> jettons = mixed.jettonTransfers();
    assertThat(jettons.size()).as("about a fifth of 1,000 transfers").isBetween(150, 250);
    assertThat(jettons).allSatisfy(t -> {
      assertThat(t.jetton().master()).isEqualTo(master.toRaw());
      assertThat(t.amountNano()).as("intake attaches the TON").isZero();
      assertThat(t.jetton().amount()).isBetween(SoakLoad.JETTON_UNIT, SoakLoad.JETTON_UNIT.multiply(
          java.math.BigInteger.valueOf(5)));
    });
    // fresh owners: no TON transfer pays them, and no wallet of the run is one
    Set<TonAddress> owners = jettons.stream().map(ExpectedTransfer::destination).collect(Collectors.toSet());
    assertThat(owners).hasSizeGreaterThan(1).doesNotContainAnyElementsOf(mixed.expected().stream()
        .filter(t -> !t.paysJetton()).map(ExpectedTransfer::destination).toList())
        .doesNotContainAnyElementsOf(wallets.addresses().values()).doesNotContain(wallets.treasury());
    assertThat(mixed.refusingPayees()).containsExactly(SoakLoad.jettonPayee("run", 0));
    assertThat(owners).contains(mixed.refusingPayees().get(0));
    // the legs over the balance stay TON; the same requests, legs and chaos targets as without jettons
    assertThat(mixed.plan().stream().filter(p -> p.kind() == SoakLoad.Kind.OVER_BALANCE)
        .flatMap(p -> p.request().transfers().stream()).filter(t -> !t.paysJetton())
        .mapToLong(TransferRequest::amountNano).max().orElse(0)).isGreaterThan(StackRun.FUNDING_NANO);
    assertThat(mixed.plan()).extracting(p -> p.request().requestId() + "/" + p.kind() + "/" + p.at())
        .containsExactlyElementsOf(ton.plan().stream().map(p -> p.request().requestId() + "/" + p.kind() + "/"
            + p.at()).toList());
    assertThat(mixed.repeatedPayees()).as("front-runs are TON-only").allSatisfy(p -> assertThat(owners)
        .doesNotContain(p.destination()));
    // a reused id of a jetton transfer is other content too: one more jetton unit
    for (PayoutRequest reused : mixed.reusedIds()) {
      TransferRequest first = reused.transfers().get(0);
      if (first.paysJetton()) {
        assertThat(jettons).noneSatisfy(t -> assertThat(t.requestId().equals(reused.requestId())
            && t.transferId().equals(first.transferId()) && t.jetton().amount().equals(first.jetton().amount()))
            .isTrue());
      }
    }
    // as a producer writes them: no amountNano on a jetton transfer (the request schema refuses one)
    PayoutRequest withJetton = mixed.plan().stream().map(SoakLoad.Planned::request)
        .filter(r -> r.transfers().stream().anyMatch(TransferRequest::paysJetton)).findFirst().orElseThrow();
    com.fasterxml.jackson.databind.JsonNode written = new com.fasterxml.jackson.databind.ObjectMapper()
        .readTree(Topics.PAYOUT_REQUESTS.valueSerde().serializer().serialize("t", withJetton));
    for (com.fasterxml.jackson.databind.JsonNode t : written.get("transfers")) {
      assertThat(t.has("amountNano")).as("%s", t).isEqualTo(!t.hasNonNull("jetton"));
    }
    org.tonpayouts.schemas.PayoutRequestValidator schema = org.tonpayouts.schemas.PayoutRequestValidator.shared();
    assertThat(schema.validate(Topics.PAYOUT_REQUESTS.valueSerde().serializer().serialize("t", withJetton)).isValid())
        .as("%s", schema.validate(Topics.PAYOUT_REQUESTS.valueSerde().serializer().serialize("t", withJetton))).isTrue();
  }

  @Test
  void shouldBuildTheLoadMixFromTheSeed() {
    SoakLoad load = SoakLoad.build(wallets, 1_000, "run", 7, T0);

    assertThat(load.transferCount()).isEqualTo(1_000);
    assertThat(load.plan()).isSortedAccordingTo(java.util.Comparator.comparingDouble(SoakLoad.Planned::at));
    assertThat(load.plan()).allSatisfy(p -> assertThat(p.at()).isBetween(0.0, 1.0));
    long requests = load.count(SoakLoad.Kind.PAYOUT) + load.count(SoakLoad.Kind.OVER_BALANCE);
    assertThat(load.plan().stream().filter(p -> p.request().transfers().size() > 1)).as("multi-leg requests")
        .isNotEmpty();
    assertThat(load.count(SoakLoad.Kind.OVER_BALANCE)).isEqualTo(Math.max(1, requests / 100));
    assertThat(load.count(SoakLoad.Kind.DUPLICATE)).isEqualTo(Math.max(1, requests / 100));
    assertThat(load.count(SoakLoad.Kind.REUSED_ID)).isEqualTo(Math.max(2, requests / 100));
    // comments are unique, so every payment on chain names exactly one transfer
    Set<String> comments = load.expected().stream().map(t -> SoakLoad.comment(t.requestId(), t.transferId()))
        .collect(Collectors.toSet());
    assertThat(comments).hasSize(load.transferCount());
    // a duplicate is the very same request, produced after it
    for (SoakLoad.Planned dup : load.plan().stream().filter(p -> p.kind() == SoakLoad.Kind.DUPLICATE).toList()) {
      SoakLoad.Planned original = load.plan().stream()
          .filter(p -> p.kind() != SoakLoad.Kind.DUPLICATE && p.kind() != SoakLoad.Kind.REUSED_ID
              && p.request().requestId().equals(dup.originalId())).findFirst().orElseThrow();
      assertThat(dup.request()).isSameAs(original.request());
      assertThat(dup.at()).isGreaterThanOrEqualTo(original.at());
    }
    // a reused id carries other content (never expected), half of them on another wallet once the original settled
    for (PayoutRequest reused : load.reusedIds()) {
      TransferRequest first = reused.transfers().get(0);
      assertThat(first.comment()).endsWith(SoakLoad.REUSED_ID_MARK);
      assertThat(load.expected()).noneSatisfy(t -> assertThat(t.requestId().equals(reused.requestId())
          && t.amountNano() == first.amountNano() && t.transferId().equals(first.transferId())).isTrue());
    }
    assertThat(load.plan().stream().filter(SoakLoad.Planned::afterOriginalSettled)).isNotEmpty();
    // over the balance: more than a wallet is funded with
    assertThat(load.plan().stream().filter(p -> p.kind() == SoakLoad.Kind.OVER_BALANCE)
        .flatMap(p -> p.request().transfers().stream()).mapToLong(TransferRequest::amountNano).max().orElse(0))
        .isGreaterThan(StackRun.FUNDING_NANO);

    // payees repeat: every wallet pays one destination one amount in several requests
    Set<SoakLoad.Payee> repeated = load.repeatedPayees();
    assertThat(repeated.stream().map(SoakLoad.Payee::subwalletId).collect(Collectors.toSet()))
        .as("a repeated payee on every wallet").containsExactlyInAnyOrderElementsOf(wallets.subwalletIds());
    for (SoakLoad.Payee payee : repeated) {
      assertThat(load.expected().stream().filter(t -> t.subwalletId() == payee.subwalletId()
          && t.destination().equals(payee.destination()) && t.amountNano() == payee.amountNano())
          .map(ExpectedTransfer::requestId).distinct().count()).isGreaterThanOrEqualTo(2);
    }
    assertThat(repeated).anySatisfy(p -> assertThat(p.destination()).isNotEqualTo(wallets.treasury()));

    assertThat(SoakLoad.build(wallets, 1_000, "run", 7, T0).plan()).as("same seed, same load")
        .isEqualTo(load.plan());
  }

  @Test
  void shouldSpreadKillsEvenlyOverTheInstancesAndDrawTheSamePlanFromTheSameSeed() {
    SoakOptions options = new SoakOptions(1_000, 20, Duration.ofSeconds(100), 42, 40, 40, 2, 0.5,
        SoakOptions.FaultRates.all(0.05), Duration.ofSeconds(10), Duration.ofSeconds(300), DUST);

    ChaosPlan plan = ChaosPlan.draw(options, Soak.INSTANCES, 1_000);

    Map<String, Long> kills = plan.events().stream().filter(ChaosPlan.Kill.class::isInstance)
        .map(e -> ((ChaosPlan.Kill) e).child()).collect(Collectors.groupingBy(c -> c, Collectors.counting()));
    assertThat(kills).containsOnly(Map.entry("streams-app-1", 20L), Map.entry("streams-app-2", 20L),
        Map.entry("chain-poller-1", 20L), Map.entry("chain-poller-2", 20L));
    assertThat(plan.count(ChaosPlan.Pause.class)).isEqualTo(2);
    assertThat(plan.events().stream().filter(ChaosPlan.Pause.class::isInstance)
        .map(e -> ((ChaosPlan.Pause) e).child())).allMatch(c -> c.startsWith("streams-app-"));
    assertThat(plan.count(ChaosPlan.Foreign.class)).isEqualTo(50);
    // half as many again front-run a transfer to a repeated payee, some paying its amount, some another
    List<ChaosPlan.PayeeFrontRun> payees = plan.events().stream().filter(ChaosPlan.PayeeFrontRun.class::isInstance)
        .map(ChaosPlan.PayeeFrontRun.class::cast).toList();
    assertThat(payees).hasSize(25);
    assertThat(payees.stream().map(ChaosPlan.PayeeFrontRun::sameAmount)).contains(true, false);
    assertThat(payees).allSatisfy(p -> assertThat(p.at()).isBetween(0.1, 0.9));
    // each dust flood comes right before a chain-poller kill at the same moment: it bursts while that poller is down
    List<ChaosPlan.DustFlood> floods = plan.events().stream().filter(ChaosPlan.DustFlood.class::isInstance)
        .map(ChaosPlan.DustFlood.class::cast).toList();
    assertThat(floods).hasSize(2).allSatisfy(d -> {
      assertThat(d.burst()).isEqualTo(600);
      assertThat(d.perMinute()).isEqualTo(1_000);
      assertThat(d.whileDown()).startsWith("chain-poller-");
      ChaosPlan.Event next = plan.events().get(plan.events().indexOf(d) + 1);
      assertThat(next).isInstanceOfSatisfying(ChaosPlan.Kill.class, k -> {
        assertThat(k.child()).isEqualTo(d.whileDown());
        assertThat(k.at()).isEqualTo(d.at());
      });
    });
    assertThat(floods.get(0).at()).as("the first flood at the first chain-poller kill").isEqualTo(plan.events()
        .stream().filter(e -> e instanceof ChaosPlan.Kill k && k.child().startsWith("chain-poller-"))
        .mapToDouble(ChaosPlan.Event::at).min().orElseThrow());
    long lagMillis = plan.events().stream().filter(ChaosPlan.Lag.class::isInstance)
        .mapToLong(e -> ((ChaosPlan.Lag) e).duration().toMillis()).sum();
    assertThat(lagMillis).as("5 %% of the window").isBetween(4_000L, 5_000L);
    Set<Boolean> wiped = new HashSet<>();
    plan.events().stream().filter(ChaosPlan.Kill.class::isInstance).forEach(e -> wiped.add(((ChaosPlan.Kill) e)
        .wipeState()));
    assertThat(wiped).containsExactlyInAnyOrder(true, false);
    assertThat(plan.events()).allSatisfy(e -> assertThat(e.at()).isBetween(0.0, 1.0));
    assertThat(ChaosPlan.draw(options, Soak.INSTANCES, 1_000)).isEqualTo(plan);
    assertThat(ChaosPlan.draw(new SoakOptions(1_000, 20, Duration.ofSeconds(100), 43, 40, 40, 2, 0.5,
        SoakOptions.FaultRates.all(0.05), Duration.ofSeconds(10), Duration.ofSeconds(300), DUST), Soak.INSTANCES,
        1_000))
        .as("another seed, another plan").isNotEqualTo(plan);
  }

  @Test
  void shouldDocumentTheSoakAndTakeEachFaultRateOrTheCommonOne() {
    StringWriter help = new StringWriter();
    CommandLine cmd = LocalStackMain.commandLine();
    cmd.setOut(new PrintWriter(help, true));
    assertThat(cmd.execute("soak", "--help")).isZero();
    assertThat(help.toString()).contains("--transfers", "--wallets", "--window-s", "--seed", "--streams-app-kills",
        "--poller-kills", "--zombies", "--wipe-rate", "--fault-rate", "--rate-limit-rate", "--transport-error-rate",
        "--drop-rate", "--stale-rate", "--lag-rate", "--latency-rate", "--foreign-rate", "--dust-floods",
        "--dust-burst", "--dust-per-minute", "--dust-s", "--session-timeout-ms", "--broker-kills",
        "--rolling-restarts", "--ledger-stops", "--ledger-down-s", "--ledger-pauses", "--ledger-pause-s",
        "--provider-outages", "--provider-down-s",
        "--block-ms", "--set", "Long run: ./payouts soak --transfers 20000 --wallets 200");

    SoakCommand soak = new SoakCommand();
    new CommandLine(soak).parseArgs("--fault-rate", "0.1", "--drop-rate", "0.2", "--seed", "5");
    SoakOptions options = soak.options();
    assertThat(options.faults()).isEqualTo(new SoakOptions.FaultRates(0.1, 0.1, 0.2, 0.1, 0.1, 0.1, 0.1));
    assertThat(options.seed()).isEqualTo(5);
    assertThat(options.dust()).isEqualTo(new SoakOptions.Dust(1, 600, 1_000, Duration.ofSeconds(40)));
    assertThat(options.dust().perFlood()).isEqualTo(600 + 666);
    assertThat(options.infrastructure()).isEqualTo(new SoakOptions.Infrastructure(3, 1, 1, 1, 2,
        Duration.ofSeconds(5), Duration.ofSeconds(15), Duration.ofSeconds(30)));
    assertThat(options.childDefaults()).containsEntry("streams.session.timeout.ms", "10000")
        .containsEntry("transfer.valid.until.ttl.seconds", "20");
    assertThatThrownBy(() -> SoakOptions.FaultRates.all(1.5)).hasMessageContaining("within 0..1");
    assertThat(List.of(cmd.getSubcommands().keySet().toArray())).contains("soak");
  }

  /**
   * Issue 27: the infrastructure faults are drawn from a Random of their own, so a seed still draws
   * every earlier act as it did; broker kills take the controller, a busy leader and any node in
   * turn, provider outages go round the processes' own API nodes, all between 5 % and 85 % of the
   * window.
   */
  @Test
  void shouldDrawInfrastructureFaultsWithoutChangingTheRestOfThePlan() {
    SoakOptions.Infrastructure infra = new SoakOptions.Infrastructure(6, 2, 3, 4, 5, Duration.ofSeconds(5),
        Duration.ofSeconds(15), Duration.ofSeconds(30));
    SoakOptions without = new SoakOptions(1_000, 20, Duration.ofSeconds(100), 42, 4, 4, 1, 0.5,
        SoakOptions.FaultRates.all(0.05), Duration.ofSeconds(10), Duration.ofSeconds(300), DUST);
    SoakOptions with = new SoakOptions(1_000, 20, Duration.ofSeconds(100), 42, 4, 4, 1, 0.5,
        SoakOptions.FaultRates.all(0.05), Duration.ofSeconds(10), Duration.ofSeconds(300), DUST, infra);

    ChaosPlan plan = ChaosPlan.draw(with, Soak.INSTANCES, 1_000);

    assertThat(plan.events().stream().filter(e -> !(e instanceof ChaosPlan.InfrastructureFault)).toList())
        .isEqualTo(ChaosPlan.draw(without, Soak.INSTANCES, 1_000).events());
    assertThat(plan.count(ChaosPlan.BrokerKill.class)).isEqualTo(6);
    assertThat(plan.count(ChaosPlan.RollingRestart.class)).isEqualTo(2);
    assertThat(plan.count(ChaosPlan.LedgerStop.class)).isEqualTo(3);
    assertThat(plan.count(ChaosPlan.LedgerPause.class)).isEqualTo(4);
    assertThat(plan.count(ChaosPlan.ProviderOutage.class)).isEqualTo(5);
    assertThat(plan.events().stream().filter(ChaosPlan.BrokerKill.class::isInstance)
        .map(e -> ((ChaosPlan.BrokerKill) e).target()).collect(Collectors.groupingBy(t -> t, Collectors.counting())))
        .containsOnly(Map.entry(ChaosPlan.BrokerTarget.CONTROLLER, 2L), Map.entry(ChaosPlan.BrokerTarget.BUSY_LEADER, 2L),
            Map.entry(ChaosPlan.BrokerTarget.ANY, 2L));
    assertThat(plan.events().stream().filter(ChaosPlan.BrokerKill.class::isInstance)
        .map(e -> ((ChaosPlan.BrokerKill) e))).allSatisfy(k -> {
          assertThat(k.node()).isBetween(1, 3);
          assertThat(k.downFor()).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(5));
        });
    assertThat(plan.events().stream().filter(ChaosPlan.ProviderOutage.class::isInstance)
        .map(e -> ((ChaosPlan.ProviderOutage) e).node()).collect(Collectors.toSet()))
        .as("five outages go round the four processes").containsExactlyInAnyOrder("streams-app-1", "streams-app-2",
            "chain-poller-1", "chain-poller-2");
    assertThat(plan.events()).filteredOn(ChaosPlan.InfrastructureFault.class::isInstance)
        .allSatisfy(e -> assertThat(e.at()).isBetween(0.05, 0.85));
    assertThat(ChaosPlan.draw(with, Soak.INSTANCES, 1_000)).isEqualTo(plan);
  }

  /** The recovery time of a fault: its end to the next settlement on a wallet it affected. */
  @Test
  void shouldMeasureRecoveryFromTheFaultsEndToTheNextSettlementOnAnAffectedWallet() {
    List<InfrastructureChaos.Episode> episodes = List.of(
        new InfrastructureChaos.Episode(InfrastructureChaos.LEDGER_STOP, "stopped", 10_000, 15_000, Set.of()),
        new InfrastructureChaos.Episode(InfrastructureChaos.LEDGER_STOP, "stopped", 30_000, 35_000, Set.of()),
        new InfrastructureChaos.Episode(InfrastructureChaos.PROVIDER_OUTAGE, "down", 10_000, 20_000, Set.of(2L)),
        new InfrastructureChaos.Episode(InfrastructureChaos.BROKER_KILL, "node 1", 50_000, 52_000, Set.of()));
    Map<Long, List<Long>> settled = Map.of(
        1L, List.of(9_000L, 16_000L, 36_500L),
        2L, List.of(12_000L, 21_000L));

    List<RecoveryTimes> times = RecoveryTimes.of(episodes, settled);

    assertThat(times).extracting(RecoveryTimes::kind).containsExactly(InfrastructureChaos.BROKER_KILL,
        InfrastructureChaos.LEDGER_STOP, InfrastructureChaos.PROVIDER_OUTAGE);
    RecoveryTimes broker = times.get(0);
    assertThat(broker.faults()).isEqualTo(1);
    assertThat(broker.withoutSettlementAfter()).as("nothing settled after it").isEqualTo(1);
    RecoveryTimes ledger = times.get(1);
    assertThat(ledger.recoveryMillis().millis()).containsExactly(1_000L, 1_500L);
    // the first stop: settlements at 12 s (wallet 2) and 16 s, longest stretch 12 s -> 16 s; the second 30 s -> 36.5 s
    assertThat(ledger.longestGapMillis().millis()).containsExactly(4_000L, 6_500L);
    RecoveryTimes provider = times.get(2);
    assertThat(provider.recoveryMillis().millis()).as("wallet 1's settlement at 16 s does not count")
        .containsExactly(1_000L);
    assertThat(provider.longestGapMillis().millis()).containsExactly(9_000L);
  }
}
