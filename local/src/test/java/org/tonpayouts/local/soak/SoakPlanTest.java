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
import org.tonpayouts.schemas.TransferRequest;
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
        "--dust-burst", "--dust-per-minute", "--dust-s", "--session-timeout-ms",
        "--block-ms", "--set", "Long run: ./payouts soak --transfers 20000 --wallets 200");

    SoakCommand soak = new SoakCommand();
    new CommandLine(soak).parseArgs("--fault-rate", "0.1", "--drop-rate", "0.2", "--seed", "5");
    SoakOptions options = soak.options();
    assertThat(options.faults()).isEqualTo(new SoakOptions.FaultRates(0.1, 0.1, 0.2, 0.1, 0.1, 0.1, 0.1));
    assertThat(options.seed()).isEqualTo(5);
    assertThat(options.dust()).isEqualTo(new SoakOptions.Dust(1, 600, 1_000, Duration.ofSeconds(40)));
    assertThat(options.dust().perFlood()).isEqualTo(600 + 666);
    assertThat(options.childDefaults()).containsEntry("streams.session.timeout.ms", "10000")
        .containsEntry("transfer.valid.until.ttl.seconds", "20");
    assertThatThrownBy(() -> SoakOptions.FaultRates.all(1.5)).hasMessageContaining("within 0..1");
    assertThat(List.of(cmd.getSubcommands().keySet().toArray())).contains("soak");
  }
}
