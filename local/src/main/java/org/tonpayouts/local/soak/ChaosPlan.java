package org.tonpayouts.local.soak;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.tonpayouts.devnet.Faults;
import org.tonpayouts.local.stack.StackRun;

/**
 * When, during a soak's load window, each act of chaos happens: drawn once from the seed, so a
 * run can be repeated. Moments are shares of the window (0..1).
 */
public record ChaosPlan(List<Event> events) {
  /** One act of chaos. */
  public sealed interface Event permits Kill, Pause, Foreign, PayeeFrontRun, DustFlood, Lag, Latency, TransportMode,
      InfrastructureFault {
    double at();
  }

  /**
   * A failure of what the apps stand on (issue 27): the Kafka cluster, PostgreSQL, a TON API
   * provider. {@link InfrastructureChaos} carries these out one after the other on a thread of their
   * own, so at most one infrastructure fault is on at a time, beside the processes' chaos.
   */
  public sealed interface InfrastructureFault extends Event permits BrokerKill, RollingRestart, LedgerStop,
      LedgerPause, ProviderOutage {}

  /** Which broker a {@link BrokerKill} hits. */
  public enum BrokerTarget {
    /** The active controller (the KRaft quorum's leader): the others elect a new one. */
    CONTROLLER,
    /** The leader of a payout.requests partition: its leadership moves to an in-sync follower. */
    BUSY_LEADER,
    /** Whichever node the plan's random draw names. */
    ANY
  }

  /** kill -9 of a Kafka node ({@code node} names it for {@link BrokerTarget#ANY}), restarted after {@code downFor}. */
  public record BrokerKill(double at, BrokerTarget target, int node, Duration downFor) implements InfrastructureFault {}

  /** A rolling restart of the three Kafka nodes: each killed, restarted, and all in sync before the next. */
  public record RollingRestart(double at) implements InfrastructureFault {}

  /** PostgreSQL stopped (fast shutdown: sessions cut, connections refused) and started after {@code downFor}. */
  public record LedgerStop(double at, Duration downFor) implements InfrastructureFault {}

  /** PostgreSQL frozen with SIGSTOP for {@code pausedFor} (sessions hang, nothing refused), then SIGCONT. */
  public record LedgerPause(double at, Duration pausedFor) implements InfrastructureFault {}

  /** The API node of {@code node} (its first provider) answers 503 to everything for {@code downFor}. */
  public record ProviderOutage(double at, String node, Duration downFor) implements InfrastructureFault {}

  /** kill -9 of {@code child}; it is started again after {@code downFor}, its state directory wiped or not. */
  public record Kill(double at, String child, boolean wipeState, Duration downFor) implements Event {}

  /** SIGSTOP {@code child} (a streams-app) until another instance took its partitions, then SIGCONT: a zombie. */
  public record Pause(double at, String child) implements Event {}

  /**
   * Someone else pays from wallet {@code walletIndex}: with {@code frontRun} ahead of everything
   * waiting in the next block, otherwise as a signed message racing ours.
   */
  public record Foreign(double at, int walletIndex, long amountNano, boolean frontRun) implements Event {}

  /**
   * Someone else pays, from a wallet with a transfer of ours in flight to a payee that wallet paid
   * before (the same amount, in an earlier request), that same payee, ahead of our message in the
   * next block: it takes our transfer's seqno, and the payment on chain under that seqno looks like
   * our transfer's ({@code sameAmount}) or pays the payee another amount. The search for such a
   * transfer starts at wallet {@code walletIndex}.
   */
  public record PayeeFrontRun(double at, int walletIndex, boolean sameAmount) implements Event {}

  /**
   * Once {@code whileDown} (a chain-poller killed at this same moment; null for none) is down, a
   * foreign payment takes the seqno of a transfer in flight (of wallet {@code walletIndex}, or the
   * next wallet with one) and that wallet receives {@code burst} inbound 1-nanoton transfers on top
   * of it, then {@code perMinute} a minute for {@code steady}.
   */
  public record DustFlood(double at, String whileDown, int walletIndex, int burst, int perMinute, Duration steady)
      implements Event {}

  /** The API node of {@code node} lags {@code blocks} blocks behind for {@code duration}. */
  public record Lag(double at, String node, int blocks, Duration duration) implements Event {}

  /** The API node of {@code node} answers every request {@code latency} late for {@code duration}. */
  public record Latency(double at, String node, Duration latency, Duration duration) implements Event {}

  /** How the API node of {@code node} fails an exchange after accepting a message, from now on. */
  public record TransportMode(double at, String node, Faults.TransportError how) implements Event {}

  public ChaosPlan {
    // a dust flood comes just before the kill it is planned at: it waits for that kill to burst
    events = events.stream().sorted(Comparator.comparingDouble(Event::at)
        .thenComparing(e -> e instanceof DustFlood ? 0 : 1)).toList();
  }

  /**
   * Draws the chaos of a run: the kills spread evenly over the instances of each kind, the pauses
   * on random streams-app instances, foreign payments ({@code faults.foreign()} per transfer, and
   * half as many again front-running a transfer to a repeated payee), lag and latency episodes
   * covering their share of the window, changes of transport-error kind, and the dust floods, each
   * at a chain-poller kill.
   */
  public static ChaosPlan draw(SoakOptions options, StackRun.Instances instances, int transfers) {
    Random random = new Random(options.seed() * 7919 + 17);
    List<Event> events = new ArrayList<>();
    kills(random, instances.streamsAppNames(), options.streamsAppKills(), options.wipeRate(), events);
    kills(random, instances.chainPollerNames(), options.pollerKills(), options.wipeRate(), events);
    List<String> streamsApps = instances.streamsAppNames();
    for (int i = 0; i < options.zombies(); i++) {
      events.add(new Pause(0.1 + 0.6 * random.nextDouble(), streamsApps.get(random.nextInt(streamsApps.size()))));
    }
    SoakOptions.FaultRates rates = options.faults();
    long foreign = Math.round(rates.foreign() * transfers);
    if (rates.foreign() > 0 && foreign == 0) {
      foreign = 1;
    }
    for (long i = 0; i < foreign; i++) {
      events.add(new Foreign(random.nextDouble(), random.nextInt(options.wallets()),
          2_000_000L + 1_000_000L * random.nextInt(8), random.nextBoolean()));
    }
    List<String> nodes = new ArrayList<>(streamsApps);
    nodes.addAll(instances.chainPollerNames());
    for (Duration d : episodes(random, rates.lag(), options.window())) {
      events.add(new Lag(start(random, d, options.window()), pick(random, nodes), 2 + random.nextInt(3), d));
    }
    for (Duration d : episodes(random, rates.latency(), options.window())) {
      events.add(new Latency(start(random, d, options.window()), pick(random, nodes),
          Duration.ofMillis(100 + random.nextInt(400)), d));
    }
    if (rates.transportError() > 0) {
      Faults.TransportError[] kinds = Faults.TransportError.values();
      for (int i = 0; i < 3; i++) {
        events.add(new TransportMode(random.nextDouble(), pick(random, streamsApps),
            kinds[random.nextInt(kinds.length)]));
      }
    }
    drawPayeesAndDust(options, instances, foreign, events);
    drawInfrastructure(options, instances, events);
    return new ChaosPlan(events);
  }

  /**
   * The infrastructure faults, from a Random of their own (a seed still draws what it drew before
   * these existed), between 5 % and 85 % of the window: the kinds of broker kill in turn (the
   * controller, a busy partition's leader, any node), provider outages on the processes' own API
   * nodes in turn.
   */
  private static void drawInfrastructure(SoakOptions options, StackRun.Instances instances, List<Event> events) {
    Random random = new Random(options.seed() * 15_485_863 + 41);
    SoakOptions.Infrastructure infra = options.infrastructure();
    BrokerTarget[] targets = BrokerTarget.values();
    for (int i = 0; i < infra.brokerKills(); i++) {
      events.add(new BrokerKill(moment(random), targets[i % targets.length], 1 + random.nextInt(3),
          Duration.ofMillis(1_000 + random.nextInt(4_000))));
    }
    for (int i = 0; i < infra.rollingRestarts(); i++) {
      events.add(new RollingRestart(moment(random)));
    }
    for (int i = 0; i < infra.ledgerStops(); i++) {
      events.add(new LedgerStop(moment(random), infra.ledgerDownFor()));
    }
    for (int i = 0; i < infra.ledgerPauses(); i++) {
      events.add(new LedgerPause(moment(random), infra.ledgerPausedFor()));
    }
    List<String> nodes = new ArrayList<>(instances.streamsAppNames());
    nodes.addAll(instances.chainPollerNames());
    int first = random.nextInt(nodes.size());
    for (int i = 0; i < infra.providerOutages(); i++) {
      events.add(new ProviderOutage(moment(random), nodes.get((first + i) % nodes.size()), infra.providerDownFor()));
    }
  }

  private static double moment(Random random) {
    return 0.05 + 0.8 * random.nextDouble();
  }

  /**
   * Front-runs of transfers to repeated payees and the dust floods, drawn from a Random of their
   * own: a seed still draws the kills, pauses and faults it drew before these existed.
   */
  private static void drawPayeesAndDust(SoakOptions options, StackRun.Instances instances, long foreign,
      List<Event> events) {
    Random random = new Random(options.seed() * 104_729 + 29);
    long payees = foreign == 0 ? 0 : Math.max(1, Math.round(foreign / 2.0));
    for (long i = 0; i < payees; i++) {
      // from 10 % of the window on, once wallets have paid their payees; every other one the same amount
      events.add(new PayeeFrontRun(0.1 + 0.8 * random.nextDouble(), random.nextInt(options.wallets()), i % 2 == 0));
    }
    SoakOptions.Dust dust = options.dust();
    List<Kill> pollerKills = events.stream().filter(Kill.class::isInstance).map(Kill.class::cast)
        .filter(k -> instances.chainPollerNames().contains(k.child())).sorted(Comparator.comparingDouble(Kill::at))
        .toList();
    for (int i = 0; i < dust.floods(); i++) {
      Kill kill = pollerKills.isEmpty() ? null : pollerKills.get(i * pollerKills.size() / dust.floods());
      events.add(new DustFlood(kill == null ? 0.3 : kill.at(), kill == null ? null : kill.child(),
          random.nextInt(options.wallets()), dust.burst(), dust.perMinute(), dust.steady()));
    }
  }

  private static void kills(Random random, List<String> names, int count, double wipeRate, List<Event> events) {
    for (int i = 0; i < count; i++) {
      events.add(new Kill(0.02 + 0.88 * random.nextDouble(), names.get(i % names.size()),
          random.nextDouble() < wipeRate, Duration.ofMillis(500 + random.nextInt(2_500))));
    }
  }

  /** Episodes of 2 to 5 s whose total is {@code share} of the window. */
  private static List<Duration> episodes(Random random, double share, Duration window) {
    List<Duration> out = new ArrayList<>();
    long left = (long) (share * window.toMillis());
    while (left >= 1_000) {
      long d = Math.min(left, 2_000 + random.nextInt(3_001));
      out.add(Duration.ofMillis(d));
      left -= d;
    }
    return out;
  }

  private static double start(Random random, Duration episode, Duration window) {
    double room = Math.max(0, 1 - (double) episode.toMillis() / window.toMillis());
    return random.nextDouble() * room;
  }

  private static String pick(Random random, List<String> names) {
    return names.get(random.nextInt(names.size()));
  }

  public long count(Class<? extends Event> kind) {
    return events.stream().filter(kind::isInstance).count();
  }
}
