package org.tonpayouts.devnet;

import java.time.Duration;
import java.util.Objects;
import java.util.Random;

/**
 * Fault injection of devnet's API: the ways a real TON HTTP API misbehaves, switched on at start
 * (builder, CLI flags) or at run time ({@code POST /admin/faults}, or these methods). Mutable and
 * thread-safe. Every fault can fire with a probability (drawn from a {@link Random} seeded with
 * the devnet seed, so one request sequence gives one fault sequence) or for the next N requests
 * it applies to; every fault that fires is counted ({@link #counts()}, {@code GET /admin/state}).
 *
 * <ul>
 *   <li>latency: every API request waits this long first;
 *   <li>rate limit: HTTP 429 with toncenter's body, the request is not processed;
 *   <li>transport error: an accepted sendBoc message IS queued, then the HTTP exchange fails
 *       (connection closed without a response, 502 or 504);
 *   <li>drop: sendBoc answers ok but the message never reaches the mempool;
 *   <li>stale reads: getAddressInformation, getWalletInformation, getAddressBalance,
 *       getAddressState and runGetMethod answer with the state as of K blocks ago.
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

  /**
   * The replaceable settings ({@code GET/POST /admin/faults} body). Counters ({@code ...Next})
   * count down as faults fire and take precedence over the probabilities.
   *
   * @param latencyMs added to every API request
   * @param staleBlocks how many blocks behind stale reads are (0: stale reads off)
   */
  public record Settings(long latencyMs,
                         double rateLimitProbability, int rateLimitNext,
                         double transportErrorProbability, int transportErrorNext, TransportError transportError,
                         double dropProbability, int dropNext,
                         int staleBlocks, double staleProbability, int staleNext) {
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
      transportError = transportError == null ? TransportError.CLOSE : transportError;
    }

    /** No faults. */
    public static Settings none() {
      return new Settings(0, 0, 0, 0, 0, TransportError.CLOSE, 0, 0, 0, 0, 0);
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

  /** How many times each fault fired (foreign transfers are counted by the chain). */
  public record Counts(long delayed, long rateLimited, long transportErrors, long dropped, long staleReads) {}

  private Settings settings = Settings.none();
  private Random random;
  private long delayed;
  private long rateLimited;
  private long transportErrors;
  private long dropped;
  private long staleReads;

  /** No faults; decisions drawn from a generator seeded with 0. */
  public Faults() {
    this(0);
  }

  /** No faults; decisions drawn from a generator seeded with {@code seed}. */
  public Faults(long seed) {
    this.random = new Random(seed);
  }

  public synchronized Settings settings() {
    return settings;
  }

  /** Replaces all settings (counters of fired faults are kept). */
  public synchronized Faults apply(Settings next) {
    this.settings = Objects.requireNonNull(next, "settings");
    return this;
  }

  /** Turns every fault off. */
  public synchronized Faults clear() {
    return apply(Settings.none());
  }

  /** Restarts the decision sequence from {@code seed}. */
  public synchronized Faults reseed(long seed) {
    this.random = new Random(seed);
    return this;
  }

  public synchronized Faults latency(Duration latency) {
    Settings s = settings;
    return apply(new Settings(latency.toMillis(), s.rateLimitProbability(), s.rateLimitNext(),
        s.transportErrorProbability(), s.transportErrorNext(), s.transportError(), s.dropProbability(), s.dropNext(),
        s.staleBlocks(), s.staleProbability(), s.staleNext()));
  }

  /** HTTP 429 on each API request with probability {@code p}. */
  public synchronized Faults rateLimit(double p) {
    Settings s = settings;
    return apply(new Settings(s.latencyMs(), p, s.rateLimitNext(), s.transportErrorProbability(),
        s.transportErrorNext(), s.transportError(), s.dropProbability(), s.dropNext(), s.staleBlocks(),
        s.staleProbability(), s.staleNext()));
  }

  /** HTTP 429 on the next {@code n} API requests. */
  public synchronized Faults rateLimitNext(int n) {
    Settings s = settings;
    return apply(new Settings(s.latencyMs(), s.rateLimitProbability(), n, s.transportErrorProbability(),
        s.transportErrorNext(), s.transportError(), s.dropProbability(), s.dropNext(), s.staleBlocks(),
        s.staleProbability(), s.staleNext()));
  }

  /** With probability {@code p}, an accepted sendBoc message is queued and then the exchange fails as {@code how}. */
  public synchronized Faults transportErrors(double p, TransportError how) {
    Settings s = settings;
    return apply(new Settings(s.latencyMs(), s.rateLimitProbability(), s.rateLimitNext(), p, s.transportErrorNext(),
        how, s.dropProbability(), s.dropNext(), s.staleBlocks(), s.staleProbability(), s.staleNext()));
  }

  /** The next {@code n} accepted sendBoc messages are queued and then the exchange fails as {@code how}. */
  public synchronized Faults transportErrorNext(int n, TransportError how) {
    Settings s = settings;
    return apply(new Settings(s.latencyMs(), s.rateLimitProbability(), s.rateLimitNext(),
        s.transportErrorProbability(), n, how, s.dropProbability(), s.dropNext(), s.staleBlocks(),
        s.staleProbability(), s.staleNext()));
  }

  /** With probability {@code p}, sendBoc answers ok and the message never applies. */
  public synchronized Faults drop(double p) {
    Settings s = settings;
    return apply(new Settings(s.latencyMs(), s.rateLimitProbability(), s.rateLimitNext(),
        s.transportErrorProbability(), s.transportErrorNext(), s.transportError(), p, s.dropNext(), s.staleBlocks(),
        s.staleProbability(), s.staleNext()));
  }

  /** The next {@code n} accepted sendBoc messages answer ok and never apply. */
  public synchronized Faults dropNext(int n) {
    Settings s = settings;
    return apply(new Settings(s.latencyMs(), s.rateLimitProbability(), s.rateLimitNext(),
        s.transportErrorProbability(), s.transportErrorNext(), s.transportError(), s.dropProbability(), n,
        s.staleBlocks(), s.staleProbability(), s.staleNext()));
  }

  /** State reads answer as of {@code blocksBehind} blocks ago with probability {@code p}. */
  public synchronized Faults staleReads(int blocksBehind, double p) {
    Settings s = settings;
    return apply(new Settings(s.latencyMs(), s.rateLimitProbability(), s.rateLimitNext(),
        s.transportErrorProbability(), s.transportErrorNext(), s.transportError(), s.dropProbability(), s.dropNext(),
        blocksBehind, p, s.staleNext()));
  }

  /** The next {@code n} state reads answer as of {@code blocksBehind} blocks ago. */
  public synchronized Faults staleReadNext(int blocksBehind, int n) {
    Settings s = settings;
    return apply(new Settings(s.latencyMs(), s.rateLimitProbability(), s.rateLimitNext(),
        s.transportErrorProbability(), s.transportErrorNext(), s.transportError(), s.dropProbability(), s.dropNext(),
        blocksBehind, s.staleProbability(), n));
  }

  public synchronized Counts counts() {
    return new Counts(delayed, rateLimited, transportErrors, dropped, staleReads);
  }

  // ---- decisions, taken by the API server once per request ----------------------------------

  /** Milliseconds this API request waits before it is processed (counted when positive). */
  public synchronized long nextLatencyMs() {
    if (settings.latencyMs() > 0) {
      delayed++;
    }
    return settings.latencyMs();
  }

  /** Whether this API request is answered with HTTP 429. */
  public synchronized boolean nextRateLimited() {
    Settings s = settings;
    if (s.rateLimitNext() > 0) {
      settings = new Settings(s.latencyMs(), s.rateLimitProbability(), s.rateLimitNext() - 1,
          s.transportErrorProbability(), s.transportErrorNext(), s.transportError(), s.dropProbability(), s.dropNext(),
          s.staleBlocks(), s.staleProbability(), s.staleNext());
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
      settings = new Settings(s.latencyMs(), s.rateLimitProbability(), s.rateLimitNext(),
          s.transportErrorProbability(), s.transportErrorNext(), s.transportError(), s.dropProbability(),
          s.dropNext() - 1, s.staleBlocks(), s.staleProbability(), s.staleNext());
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
      settings = new Settings(s.latencyMs(), s.rateLimitProbability(), s.rateLimitNext(),
          s.transportErrorProbability(), s.transportErrorNext() - 1, s.transportError(), s.dropProbability(),
          s.dropNext(), s.staleBlocks(), s.staleProbability(), s.staleNext());
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
      settings = new Settings(s.latencyMs(), s.rateLimitProbability(), s.rateLimitNext(),
          s.transportErrorProbability(), s.transportErrorNext(), s.transportError(), s.dropProbability(), s.dropNext(),
          s.staleBlocks(), s.staleProbability(), s.staleNext() - 1);
      staleReads++;
      return s.staleBlocks();
    }
    if (fires(s.staleProbability())) {
      staleReads++;
      return s.staleBlocks();
    }
    return 0;
  }

  /** Draws only when the probability is positive, so settings without it leave the sequence alone. */
  private boolean fires(double probability) {
    return probability > 0 && (probability >= 1 || random.nextDouble() < probability);
  }

  @Override
  public synchronized String toString() {
    return "Faults[" + settings + ", " + counts() + "]";
  }
}
