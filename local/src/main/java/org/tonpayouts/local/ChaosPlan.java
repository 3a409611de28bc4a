package org.tonpayouts.local;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.tonpayouts.devnet.Faults;

/**
 * When, during a soak's load window, each act of chaos happens: drawn once from the seed, so a
 * run can be repeated. Moments are shares of the window (0..1).
 */
public record ChaosPlan(List<Event> events) {
  /** One act of chaos. */
  public sealed interface Event permits Kill, Pause, Foreign, Lag, Latency, TransportMode {
    double at();
  }

  /** kill -9 of {@code child}; it is started again after {@code downFor}, its state directory wiped or not. */
  public record Kill(double at, String child, boolean wipeState, Duration downFor) implements Event {}

  /** SIGSTOP {@code child} (a streams-app) until another instance took its partitions, then SIGCONT: a zombie. */
  public record Pause(double at, String child) implements Event {}

  /**
   * Someone else pays from wallet {@code walletIndex}: with {@code frontRun} ahead of everything
   * waiting in the next block, otherwise as a signed message racing ours.
   */
  public record Foreign(double at, int walletIndex, long amountNano, boolean frontRun) implements Event {}

  /** The API node of {@code node} lags {@code blocks} blocks behind for {@code duration}. */
  public record Lag(double at, String node, int blocks, Duration duration) implements Event {}

  /** The API node of {@code node} answers every request {@code latency} late for {@code duration}. */
  public record Latency(double at, String node, Duration latency, Duration duration) implements Event {}

  /** How the API node of {@code node} fails an exchange after accepting a message, from now on. */
  public record TransportMode(double at, String node, Faults.TransportError how) implements Event {}

  public ChaosPlan {
    events = events.stream().sorted(Comparator.comparingDouble(Event::at)).toList();
  }

  /**
   * Draws the chaos of a run: the kills spread evenly over the instances of each kind, the pauses
   * on random streams-app instances, foreign payments ({@code faults.foreign()} per transfer),
   * lag and latency episodes covering their share of the window, and changes of transport-error kind.
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
    return new ChaosPlan(events);
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
