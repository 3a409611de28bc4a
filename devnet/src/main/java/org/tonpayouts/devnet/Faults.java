package org.tonpayouts.devnet;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Fault injection of one devnet API node: the ways a real TON HTTP API misbehaves, switched on at
 * start (builder, CLI flags) or at run time ({@code POST /admin/faults}, or these methods).
 * Mutable and thread-safe. Every fault can fire with a probability (drawn from a {@link Random}
 * seeded with the devnet seed, so one request sequence gives one fault sequence) or for the next
 * N requests it applies to; every fault that fires is counted ({@link #counts()},
 * {@code GET /admin/state}).
 *
 * <ul>
 *   <li>latency: every API request waits this long first;
 *   <li>rate limit: HTTP 429 with toncenter's body, the request is not processed; on every API
 *       request, or on sendBoc / sendBocReturnHash only ({@link RateLimitScope#SENDS}: a send
 *       fault rate that leaves the reads alone);
 *   <li>transport error: an accepted sendBoc message IS queued, then the HTTP exchange fails
 *       (connection closed without a response, 502 or 504);
 *   <li>drop: sendBoc answers ok but the message never reaches the mempool;
 *   <li>stale reads: getAddressInformation, getWalletInformation, getAddressBalance,
 *       getAddressState and runGetMethod answer with the state as of K blocks ago, one request
 *       at a time;
 *   <li>lag: the whole node is K blocks behind, for a while or until cleared: every read
 *       (transactions and masterchain info included) answers consistently as of the block K
 *       blocks back, and sendBoc checks messages against that block, as a liteserver that has
 *       not caught up does;
 *   <li>outage: the provider is down ({@link #outage(boolean)}): every API request is answered
 *       503 unprocessed (a send reaches no mempool), until it is back.
 * </ul>
 *
 * <p>Transfers "our service did not sign" are injected with {@code POST /admin/foreign-transfer}
 * (or {@link Devnet#foreignTransfer}) and counted in the chain's statistics.
 */
public final class Faults {
  /** How an injected transport error looks to the client. */
  public enum TransportError {
    /** The connection is closed without any response. */
    CLOSE,
    /** 502 Bad Gateway with a proxy's HTML body. */
    HTTP_502,
    /** 504 with toncenter's {@code Liteserver timeout} envelope. */
    HTTP_504
  }

  /** Which API requests the rate limit applies to. */
  public enum RateLimitScope {
    /** Every API request (reads, sends, masterchain info). */
    ALL,
    /** sendBoc and sendBocReturnHash only. */
    SENDS
  }

  /**
   * The replaceable settings ({@code GET/POST /admin/faults} body). Counters ({@code ...Next})
   * count down as faults fire and take precedence over the probabilities.
   *
   * @param latencyMs added to every API request
   * @param staleBlocks how many blocks behind stale reads are (0: stale reads off)
   * @param lagBlocks how many blocks behind the lagging node is (0: not lagging)
   * @param lagMs how long the lag lasts from when it was set, by devnet's clock (0: until cleared)
   * @param rateLimitScope which requests the rate limit applies to (null: {@link RateLimitScope#ALL})
   */
  public record Settings(long latencyMs,
                         double rateLimitProbability, int rateLimitNext,
                         double transportErrorProbability, int transportErrorNext, TransportError transportError,
                         double dropProbability, int dropNext,
                         int staleBlocks, double staleProbability, int staleNext,
                         int lagBlocks, long lagMs, RateLimitScope rateLimitScope) {
    public Settings {
      if (latencyMs < 0) {
        throw new IllegalArgumentException("latencyMs must be >= 0, got " + latencyMs);
      }
      checkProbability("rateLimitProbability", rateLimitProbability);
      checkProbability("transportErrorProbability", transportErrorProbability);
      checkProbability("dropProbability", dropProbability);
      checkProbability("staleProbability", staleProbability);
      checkCount("rateLimitNext", rateLimitNext);
      checkCount("transportErrorNext", transportErrorNext);
      checkCount("dropNext", dropNext);
      checkCount("staleNext", staleNext);
      checkCount("staleBlocks", staleBlocks);
      checkCount("lagBlocks", lagBlocks);
      if (lagMs < 0) {
        throw new IllegalArgumentException("lagMs must be >= 0, got " + lagMs);
      }
      transportError = transportError == null ? TransportError.CLOSE : transportError;
      rateLimitScope = rateLimitScope == null ? RateLimitScope.ALL : rateLimitScope;
    }

    /** No faults. */
    public static Settings none() {
      return new Settings(0, 0, 0, 0, 0, TransportError.CLOSE, 0, 0, 0, 0, 0, 0, 0, RateLimitScope.ALL);
    }

    public Settings withLatencyMs(long ms) {
      return new Settings(ms, rateLimitProbability, rateLimitNext, transportErrorProbability, transportErrorNext,
          transportError, dropProbability, dropNext, staleBlocks, staleProbability, staleNext, lagBlocks, lagMs,
          rateLimitScope);
    }

    public Settings withRateLimit(double probability, int next) {
      return new Settings(latencyMs, probability, next, transportErrorProbability, transportErrorNext,
          transportError, dropProbability, dropNext, staleBlocks, staleProbability, staleNext, lagBlocks, lagMs,
          rateLimitScope);
    }

    public Settings withTransportErrors(double probability, int next, TransportError how) {
      return new Settings(latencyMs, rateLimitProbability, rateLimitNext, probability, next, how, dropProbability,
          dropNext, staleBlocks, staleProbability, staleNext, lagBlocks, lagMs, rateLimitScope);
    }

    public Settings withDrop(double probability, int next) {
      return new Settings(latencyMs, rateLimitProbability, rateLimitNext, transportErrorProbability,
          transportErrorNext, transportError, probability, next, staleBlocks, staleProbability, staleNext, lagBlocks,
          lagMs, rateLimitScope);
    }

    public Settings withStaleReads(int blocksBehind, double probability, int next) {
      return new Settings(latencyMs, rateLimitProbability, rateLimitNext, transportErrorProbability,
          transportErrorNext, transportError, dropProbability, dropNext, blocksBehind, probability, next, lagBlocks,
          lagMs, rateLimitScope);
    }

    public Settings withLag(int blocksBehind, long ms) {
      return new Settings(latencyMs, rateLimitProbability, rateLimitNext, transportErrorProbability,
          transportErrorNext, transportError, dropProbability, dropNext, staleBlocks, staleProbability, staleNext,
          blocksBehind, ms, rateLimitScope);
    }

    public Settings withRateLimitScope(RateLimitScope scope) {
      return new Settings(latencyMs, rateLimitProbability, rateLimitNext, transportErrorProbability,
          transportErrorNext, transportError, dropProbability, dropNext, staleBlocks, staleProbability, staleNext,
          lagBlocks, lagMs, scope);
    }

    private static void checkProbability(String name, double p) {
      if (!(p >= 0 && p <= 1)) {
        throw new IllegalArgumentException(name + " must be within 0..1, got " + p);
      }
    }

    private static void checkCount(String name, int n) {
      if (n < 0) {
        throw new IllegalArgumentException(name + " must be >= 0, got " + n);
      }
    }
  }

  /**
   * How many times each fault fired (foreign transfers are counted by the chain).
   *
   * @param laggedReads requests a lagging node answered from its old block (reads, and the state sendBoc checked against)
   */
  public record Counts(long delayed, long rateLimited, long transportErrors, long dropped, long staleReads,
                       long laggedReads) {}

  private Settings settings = Settings.none();
  private Random random;
  private Clock clock;
  /** When the current lag ends; {@code null} while there is none or it lasts until cleared. */
  private Instant lagEndsAt;
  private long delayed;
  private long rateLimited;
  private long transportErrors;
  private long dropped;
  private long staleReads;
  private long laggedReads;
  /** Requests waiting in the injected latency right now, by API method. */
  private final java.util.Map<String, Integer> inLatency = new java.util.HashMap<>();

  /** No faults; decisions drawn from a generator seeded with 0. */
  /** Methods answered 404 as if this node did not serve them. */
  private Set<String> withheld = Set.of();
  /** Whether the node is down (every request 503), and how many requests it refused so. */
  private boolean down;
  private long outageAnswers;

  public Faults() {
    this(0);
  }

  /** No faults; decisions drawn from a generator seeded with {@code seed}; lag measured on the system clock. */
  public Faults(long seed) {
    this(seed, Clock.systemUTC());
  }

  /** No faults; decisions drawn from a generator seeded with {@code seed}; lag measured on {@code clock}. */
  public Faults(long seed, Clock clock) {
    this.random = new Random(seed);
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Measures the lag's duration on {@code clock} (a devnet binds the faults it is given to its own
   * clock); a lag already set starts over from now, so a lag configured before the devnet started
   * lasts its full duration from the start.
   */
  public synchronized Faults useClock(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    startLag();
    return this;
  }

  public synchronized Settings settings() {
    endLagIfOver();
    return settings;
  }

  /**
   * Replaces all settings (counters of fired faults are kept); a lag in {@code next} starts now
   * and lasts {@code lagMs}.
   */
  public synchronized Faults apply(Settings next) {
    this.settings = Objects.requireNonNull(next, "settings");
    startLag();
    return this;
  }

  /** Turns every fault off (methods withheld are served again, an outage ends). */
  public synchronized Faults clear() {
    withheld = Set.of();
    down = false;
    return apply(Settings.none());
  }

  /**
   * Answers {@code methods} 404 "Not Found", as a provider that does not serve them does (some
   * toncenter-compatible providers have no {@code getBlockTransactionsExt}); empty serves every
   * method again.
   */
  public synchronized Faults withhold(Set<String> methods) {
    withheld = Set.copyOf(methods);
    return this;
  }

  /**
   * Takes the node down ({@code true}: every API request answered 503 "Service Unavailable", not
   * processed, as a provider behind its load balancer in an outage) or brings it back.
   */
  public synchronized Faults outage(boolean down) {
    this.down = down;
    return this;
  }

  /** Whether the next request is refused by an outage; counts it if so. */
  public synchronized boolean nextRefusedByOutage() {
    if (down) {
      outageAnswers++;
    }
    return down;
  }

  /** Requests refused by an outage so far. */
  public synchronized long outageAnswers() {
    return outageAnswers;
  }

  /** True when {@code method} is withheld (see {@link #withhold}). */
  public synchronized boolean withheld(String method) {
    return withheld.contains(method);
  }

  /** Restarts the decision sequence from {@code seed}. */
  public synchronized Faults reseed(long seed) {
    this.random = new Random(seed);
    return this;
  }

  public synchronized Faults latency(Duration latency) {
    return change(s -> s.withLatencyMs(latency.toMillis()));
  }

  /** HTTP 429 on each API request with probability {@code p}. */
  public synchronized Faults rateLimit(double p) {
    return change(s -> s.withRateLimit(p, s.rateLimitNext()));
  }

  /** HTTP 429 with probability {@code p} on the requests of {@code scope} (e.g. sends only). */
  public synchronized Faults rateLimit(double p, RateLimitScope scope) {
    return change(s -> s.withRateLimit(p, s.rateLimitNext()).withRateLimitScope(scope));
  }

  /** HTTP 429 on the next {@code n} API requests (of the rate limit's scope). */
  public synchronized Faults rateLimitNext(int n) {
    return change(s -> s.withRateLimit(s.rateLimitProbability(), n));
  }

  /** With probability {@code p}, an accepted sendBoc message is queued and then the exchange fails as {@code how}. */
  public synchronized Faults transportErrors(double p, TransportError how) {
    return change(s -> s.withTransportErrors(p, s.transportErrorNext(), how));
  }

  /** The next {@code n} accepted sendBoc messages are queued and then the exchange fails as {@code how}. */
  public synchronized Faults transportErrorNext(int n, TransportError how) {
    return change(s -> s.withTransportErrors(s.transportErrorProbability(), n, how));
  }

  /** With probability {@code p}, sendBoc answers ok and the message never applies. */
  public synchronized Faults drop(double p) {
    return change(s -> s.withDrop(p, s.dropNext()));
  }

  /** The next {@code n} accepted sendBoc messages answer ok and never apply. */
  public synchronized Faults dropNext(int n) {
    return change(s -> s.withDrop(s.dropProbability(), n));
  }

  /** State reads answer as of {@code blocksBehind} blocks ago with probability {@code p}. */
  public synchronized Faults staleReads(int blocksBehind, double p) {
    return change(s -> s.withStaleReads(blocksBehind, p, s.staleNext()));
  }

  /** The next {@code n} state reads answer as of {@code blocksBehind} blocks ago. */
  public synchronized Faults staleReadNext(int blocksBehind, int n) {
    return change(s -> s.withStaleReads(blocksBehind, s.staleProbability(), n));
  }

  /**
   * The node lags {@code blocksBehind} blocks behind the chain for {@code duration} (from now, by
   * devnet's clock), then catches up. {@code blocksBehind} 0 ends a lag.
   */
  public synchronized Faults lag(int blocksBehind, Duration duration) {
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException("lag duration must be positive, got " + duration + " (lag(int): until cleared)");
    }
    settings = settings.withLag(blocksBehind, duration.toMillis());
    startLag();
    return this;
  }

  /** The node lags {@code blocksBehind} blocks behind the chain until the lag is cleared ({@code lag(0)}, {@link #clear()}). */
  public synchronized Faults lag(int blocksBehind) {
    settings = settings.withLag(blocksBehind, 0);
    startLag();
    return this;
  }

  public synchronized Counts counts() {
    return new Counts(delayed, rateLimited, transportErrors, dropped, staleReads, laggedReads);
  }

  // ---- decisions, taken by the API server once per request ----------------------------------

  /**
   * Marks a request of {@code method} as waiting in the injected latency, until {@link #latencyOver};
   * what {@link #waitingInLatency} reports.
   */
  public synchronized void latencyStarted(String method) {
    inLatency.merge(method, 1, Integer::sum);
  }

  /** The request marked by {@link #latencyStarted} goes on to be processed. */
  public synchronized void latencyOver(String method) {
    inLatency.computeIfPresent(method, (m, n) -> n > 1 ? n - 1 : null);
  }

  /**
   * How many requests of {@code method} (a toncenter method name, as in the URL) wait in the
   * injected latency right now: a test can pause a client while one of its calls is in flight.
   */
  public synchronized int waitingInLatency(String method) {
    return inLatency.getOrDefault(method, 0);
  }

  /** Milliseconds this API request waits before it is processed (counted when positive). */
  public synchronized long nextLatencyMs() {
    if (settings.latencyMs() > 0) {
      delayed++;
    }
    return settings.latencyMs();
  }

  /**
   * Whether this API request is answered with HTTP 429; a request outside the rate limit's scope
   * never is, and draws nothing (the fault sequence of the requests in scope stays the same).
   *
   * @param send the request is sendBoc or sendBocReturnHash
   */
  public synchronized boolean nextRateLimited(boolean send) {
    Settings s = settings;
    if (s.rateLimitScope() == RateLimitScope.SENDS && !send) {
      return false;
    }
    if (s.rateLimitNext() > 0) {
      settings = s.withRateLimit(s.rateLimitProbability(), s.rateLimitNext() - 1);
      rateLimited++;
      return true;
    }
    if (fires(s.rateLimitProbability())) {
      rateLimited++;
      return true;
    }
    return false;
  }

  /** Whether this accepted sendBoc message is dropped instead of queued. */
  public synchronized boolean nextDropped() {
    Settings s = settings;
    if (s.dropNext() > 0) {
      settings = s.withDrop(s.dropProbability(), s.dropNext() - 1);
      dropped++;
      return true;
    }
    if (fires(s.dropProbability())) {
      dropped++;
      return true;
    }
    return false;
  }

  /** How the exchange of this queued sendBoc message fails, or {@code null} when it does not. */
  public synchronized TransportError nextTransportError() {
    Settings s = settings;
    if (s.transportErrorNext() > 0) {
      settings = s.withTransportErrors(s.transportErrorProbability(), s.transportErrorNext() - 1, s.transportError());
      transportErrors++;
      return s.transportError();
    }
    if (fires(s.transportErrorProbability())) {
      transportErrors++;
      return s.transportError();
    }
    return null;
  }

  /** How many blocks behind this state read answers (0: up to date). */
  public synchronized int nextStaleBlocks() {
    Settings s = settings;
    if (s.staleBlocks() == 0) {
      return 0;
    }
    if (s.staleNext() > 0) {
      settings = s.withStaleReads(s.staleBlocks(), s.staleProbability(), s.staleNext() - 1);
      staleReads++;
      return s.staleBlocks();
    }
    if (fires(s.staleProbability())) {
      staleReads++;
      return s.staleBlocks();
    }
    return 0;
  }

  /** How many blocks behind the node answers this request (0: up to date); counted when lagging. */
  public synchronized int nextLagBlocks() {
    endLagIfOver();
    if (settings.lagBlocks() == 0) {
      return 0;
    }
    laggedReads++;
    return settings.lagBlocks();
  }

  private Faults change(UnaryOperator<Settings> update) {
    settings = update.apply(settings);
    return this;
  }

  private void startLag() {
    lagEndsAt = settings.lagBlocks() > 0 && settings.lagMs() > 0
        ? clock.instant().plusMillis(settings.lagMs()) : null;
  }

  /** A lag whose time is over is cleared from the settings, as a fired counter counts down. */
  private void endLagIfOver() {
    if (lagEndsAt != null && !clock.instant().isBefore(lagEndsAt)) {
      settings = settings.withLag(0, 0);
      lagEndsAt = null;
    }
  }

  /** Draws only when the probability is positive, so settings without it leave the sequence alone. */
  private boolean fires(double probability) {
    return probability > 0 && (probability >= 1 || random.nextDouble() < probability);
  }

  @Override
  public synchronized String toString() {
    return "Faults[" + settings() + ", " + counts() + "]";
  }
}
