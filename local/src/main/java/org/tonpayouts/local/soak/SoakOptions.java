package org.tonpayouts.local.soak;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tonpayouts.runtime.PayoutsConfig;

/**
 * How one soak run is set up: the load, the chaos and the fault rates. Every random choice of the
 * run (the load's mix, when each kill, pause and fault episode happens, the devnet nodes' fault
 * decisions) follows from {@code seed}, so a run can be repeated.
 *
 * @param transfers transfers to pay (requests carry 1 to 4 of them)
 * @param wallets paying subwallets
 * @param window how long the load is produced for; every kill, pause and fault episode falls inside it
 * @param seed the seed of every random choice
 * @param streamsAppKills kill -9 of a streams-app process in total, spread evenly over the instances
 * @param pollerKills kill -9 of a chain-poller process in total, spread evenly over the instances
 * @param zombies SIGSTOPs of a streams-app instance past its session timeout, then SIGCONT
 * @param wipeRate the share of restarts that find their state directory wiped (the others keep it)
 * @param faults the devnet fault rates
 * @param sessionTimeout the apps' {@code streams.session.timeout.ms}: how long a killed or paused
 *     instance keeps its partitions
 * @param drainTimeout how long to wait, after the window, for every transfer's settlement
 * @param dust the dust floods: inbound transfers burying a wallet's own transactions
 * @param infrastructure the failures of what the apps stand on: brokers, PostgreSQL, API providers
 * @param jettons the jetton transfers mixed into the load
 */
public record SoakOptions(int transfers, int wallets, Duration window, long seed, int streamsAppKills,
                          int pollerKills, int zombies, double wipeRate, FaultRates faults, Duration sessionTimeout,
                          Duration drainTimeout, Dust dust, Infrastructure infrastructure, Jettons jettons) {
  /** With the default jetton mix ({@link Jettons#DEFAULT}). */
  public SoakOptions(int transfers, int wallets, Duration window, long seed, int streamsAppKills, int pollerKills,
      int zombies, double wipeRate, FaultRates faults, Duration sessionTimeout, Duration drainTimeout, Dust dust,
      Infrastructure infrastructure) {
    this(transfers, wallets, window, seed, streamsAppKills, pollerKills, zombies, wipeRate, faults, sessionTimeout,
        drainTimeout, dust, infrastructure, Jettons.DEFAULT);
  }

  /** Without infrastructure faults. */
  public SoakOptions(int transfers, int wallets, Duration window, long seed, int streamsAppKills, int pollerKills,
      int zombies, double wipeRate, FaultRates faults, Duration sessionTimeout, Duration drainTimeout, Dust dust) {
    this(transfers, wallets, window, seed, streamsAppKills, pollerKills, zombies, wipeRate, faults, sessionTimeout,
        drainTimeout, dust, Infrastructure.NONE);
  }

  public SoakOptions {
    positive("transfers", transfers);
    positive("wallets", wallets);
    if (window.toMillis() < 1_000) {
      throw new IllegalArgumentException("the load window must be at least 1 s, got " + window);
    }
    if (streamsAppKills < 0 || pollerKills < 0 || zombies < 0) {
      throw new IllegalArgumentException("kill and pause counts must be >= 0");
    }
    FaultRates.check("wipe rate", wipeRate);
    java.util.Objects.requireNonNull(dust, "dust");
    java.util.Objects.requireNonNull(infrastructure, "infrastructure");
    java.util.Objects.requireNonNull(jettons, "jettons");
  }

  /**
   * The jetton transfers of the load: the run's jetton (USDT on devnet, minted to every paying
   * wallet) paid to fresh owners nobody else pays it to.
   *
   * @param share each leg's chance of paying the jetton instead of TON (0: a TON-only load)
   * @param refusingPayees jetton owners whose jetton wallet is locked for receiving before the load:
   *     transfers to them are refused by the receiver and must end FAILED, the jettons back with the payer
   */
  public record Jettons(double share, int refusingPayees) {
    /** About a fifth of the transfers, one refusing owner. */
    public static final Jettons DEFAULT = new Jettons(0.2, 1);
    /** None. */
    public static final Jettons NONE = new Jettons(0, 0);

    public Jettons {
      FaultRates.check("jetton share", share);
      if (refusingPayees < 0) {
        throw new IllegalArgumentException("refusing jetton payees must be >= 0, got " + refusingPayees);
      }
    }

    public boolean on() {
      return share > 0;
    }
  }

  /**
   * The failures of what the apps stand on, each kind a number of times over the window (issue 27).
   * The soak always runs on a cluster of three Kafka nodes, and gives each process a second API
   * node to fall back on, whether or not these are drawn.
   *
   * @param brokerKills kill -9 of a Kafka node, restarted a few seconds later: in turn the active
   *     controller, the leader of a payout.requests partition, any node
   * @param rollingRestarts restarts of the three nodes one after the other, each back in sync before the next
   * @param ledgerStops PostgreSQL stopped for {@code ledgerDownFor}, then started on the same port
   * @param ledgerPauses PostgreSQL frozen (SIGSTOP) for {@code ledgerPausedFor}, then resumed
   * @param providerOutages a process's own API node down (503) for {@code providerDownFor}
   */
  public record Infrastructure(int brokerKills, int rollingRestarts, int ledgerStops, int ledgerPauses,
                               int providerOutages, Duration ledgerDownFor, Duration ledgerPausedFor,
                               Duration providerDownFor) {
    /** None. */
    public static final Infrastructure NONE = new Infrastructure(0, 0, 0, 0, 0, Duration.ofSeconds(5),
        Duration.ofSeconds(15), Duration.ofSeconds(30));

    public Infrastructure {
      if (brokerKills < 0 || rollingRestarts < 0 || ledgerStops < 0 || ledgerPauses < 0 || providerOutages < 0) {
        throw new IllegalArgumentException("infrastructure fault counts must be >= 0");
      }
      for (Duration d : List.of(ledgerDownFor, ledgerPausedFor, providerDownFor)) {
        if (d.isNegative() || d.isZero()) {
          throw new IllegalArgumentException("infrastructure fault durations must be positive, got " + d);
        }
      }
    }

    /** The same durations with these counts. */
    public Infrastructure times(int brokerKills, int rollingRestarts, int ledgerStops, int ledgerPauses,
        int providerOutages) {
      return new Infrastructure(brokerKills, rollingRestarts, ledgerStops, ledgerPauses, providerOutages,
          ledgerDownFor, ledgerPausedFor, providerDownFor);
    }
  }

  /**
   * Dust floods: anyone can send a wallet a 1-nanoton transfer, and each is one more transaction
   * on its account that a watcher pages through to find the wallet's own. In each flood, right
   * after a chain-poller is killed, a foreign payment takes the seqno of a transfer in flight, and
   * that wallet receives {@code burst} of them at once on top of it, then {@code perMinute} a
   * minute for {@code steady}: the transfer's verdict rests on a scan of the wallet's history back
   * through all of them (more than a poller's page budget per round), and the wallet has to keep
   * paying throughout.
   *
   * @param floods how many floods in the run (0: none), each at one of the planned chain-poller
   *     kills, spread over them (at 30 % of the window if there is no such kill)
   */
  public record Dust(int floods, int burst, int perMinute, Duration steady) {
    /** No dust. */
    public static final Dust NONE = new Dust(0, 0, 0, Duration.ZERO);

    public Dust {
      if (floods < 0 || burst < 0 || perMinute < 0 || steady.isNegative()) {
        throw new IllegalArgumentException("dust counts and durations must be >= 0, got " + floods + " floods, burst "
            + burst + ", " + perMinute + " a minute for " + steady);
      }
    }

    /** The transfers one flood sends. */
    public int perFlood() {
      return burst + (int) (perMinute * steady.toMillis() / 60_000);
    }
  }

  /**
   * The devnet faults, each a probability in 0..1.
   *
   * @param rateLimit HTTP 429 on an API request (the request is not processed)
   * @param transportError a sendBoc whose message IS queued, then the exchange fails (closed, 502, 504)
   * @param drop a sendBoc answered ok whose message never applies
   * @param stale a state read answered as of a few blocks ago
   * @param lag the share of the window during which one process's API node lags a few blocks behind
   * @param latency the share of the window during which one process's API node answers slowly
   * @param foreign foreign signings per transfer: someone else holding the key pays from one of the
   *     wallets with its current seqno
   */
  public record FaultRates(double rateLimit, double transportError, double drop, double stale, double lag,
                           double latency, double foreign) {
    public FaultRates {
      check("rate-limit rate", rateLimit);
      check("transport-error rate", transportError);
      check("drop rate", drop);
      check("stale-read rate", stale);
      check("lag rate", lag);
      check("latency rate", latency);
      check("foreign-signer rate", foreign);
    }

    /** Every fault at {@code rate}. */
    public static FaultRates all(double rate) {
      return new FaultRates(rate, rate, rate, rate, rate, rate, rate);
    }

    static void check(String name, double p) {
      if (!(p >= 0 && p <= 1)) {
        throw new IllegalArgumentException(name + " must be within 0..1, got " + p);
      }
    }
  }

  private static void positive(String name, int n) {
    if (n < 1) {
      throw new IllegalArgumentException(name + " must be at least 1, got " + n);
    }
  }

  /**
   * What the soak sets for both apps unless {@code --set} says otherwise: a short {@code valid_until}
   * and skew margin, so a transfer whose seqno a foreign signer took is concluded
   * (RECONCILIATION_REQUIRED) within the run (the margin still above what a lagging node's
   * {@code sync_utime} trails by, or the start-up clock check stops a restarted process), a short
   * verdict timeout, the session timeout, and
   * API and wallet-read timeouts longer than a zombie's pause: the answers a paused instance was
   * waiting for arrive while it stands still, and once resumed it must carry on with them (sign,
   * try to record) rather than time out, because that is the case fencing exists for.
   */
  public Map<String, String> childDefaults() {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put(PayoutsConfig.TRANSFER_TTL_SECONDS_CONFIG, "20");
    settings.put(PayoutsConfig.TRANSFER_CLOCK_SKEW_SECONDS_CONFIG, "5");
    settings.put(PayoutsConfig.TRANSFER_VERDICT_TIMEOUT_MS_CONFIG, "10000");
    settings.put(PayoutsConfig.TON_API_TIMEOUT_MS_CONFIG, "60000");
    settings.put(PayoutsConfig.TRANSFER_SEQNO_TIMEOUT_MS_CONFIG, "60000");
    settings.put(PayoutsConfig.STREAMS_SESSION_TIMEOUT_MS_CONFIG, Long.toString(sessionTimeout.toMillis()));
    return settings;
  }
}
