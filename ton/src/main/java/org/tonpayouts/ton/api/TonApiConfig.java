package org.tonpayouts.ton.api;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Where and how the TON HTTP API v2 client talks: base URL (the client appends
 * {@code /api/v2/<method>}), API key (sent only in the {@code X-API-Key} header), client-side
 * request rate, per-attempt timeout and the retry budget for reads.
 *
 * <p>toncenter allows 1 request/s without a key and 10 to 100/s with one: set
 * {@code requestsPerSecond} to what the key allows so the service never earns 429s by itself.
 *
 * @param baseUrl           e.g. {@code https://toncenter.com} or {@code http://127.0.0.1:8081}
 * @param apiKey            the key, if any; never shown by {@link #toString()}
 * @param requestsPerSecond client-side limit over all calls of one client, greater than 0
 * @param callTimeout       limit of one HTTP attempt (connect, send, answer)
 * @param maxReadAttempts   attempts of a read, first one included (1 = no retry); sends are never retried
 * @param retryBackoff      delay before the first retry of a read; doubles per retry, capped
 * @param maxInFlight       HTTP requests of one client in flight at most, so also the connections it
 *                          keeps open; the others wait their turn in order
 * @param maxResponseBytes  the largest answer body read; a larger one fails its call once the cap is
 *                          passed (or at once, by its Content-Length), before it fills the heap
 * @param plainHttpAllowed  whether {@code http://} is accepted for a host that is not loopback: off, such
 *                          a URL is refused, since anyone on the path could read the API key and forge
 *                          the answers verdicts rest on
 */
public record TonApiConfig(
    URI baseUrl,
    Optional<String> apiKey,
    double requestsPerSecond,
    Duration callTimeout,
    int maxReadAttempts,
    Duration retryBackoff,
    int maxInFlight,
    long maxResponseBytes,
    boolean plainHttpAllowed) {

  public static final double DEFAULT_REQUESTS_PER_SECOND = 10;
  public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(10);
  public static final int DEFAULT_MAX_READ_ATTEMPTS = 3;
  public static final Duration DEFAULT_RETRY_BACKOFF = Duration.ofMillis(200);
  /**
   * Enough for a round of many wallets' reads and sends to overlap; few enough that a thousand
   * wallets starting at once reuse tens of keep-alive connections instead of opening (and, past
   * the server's idle limit, closing) hundreds: at 1,000 wallets on devnet, unbounded requests made
   * about 165 new connections a second.
   */
  public static final int DEFAULT_MAX_IN_FLIGHT = 64;
  /**
   * 16 MiB. The largest answers are chain-poller's {@code getBlockTransactionsExt} pages of up to
   * 1,024 transactions, each with its BOC, in-message and out-messages: a few KB each for wallet and
   * jetton transfers (4 to 8 MB for a full page), tens of KB for one carrying contract code. A full
   * page of heavy transactions still fits; a node streaming without end does not.
   */
  public static final long DEFAULT_MAX_RESPONSE_BYTES = 16L * 1024 * 1024;
  /**
   * Nesting of an answer at most: toncenter's deepest (a transaction's out-message's data) is under
   * ten levels; Jackson's own limit (1,000) would let a hostile answer cost deep recursion.
   */
  public static final int MAX_JSON_DEPTH = 64;
  /** Digits of a JSON number at most: TON's largest integers (257-bit stack values) have 78. */
  public static final int MAX_JSON_NUMBER_LENGTH = 100;

  public TonApiConfig {
    Objects.requireNonNull(baseUrl, "baseUrl");
    Objects.requireNonNull(apiKey, "apiKey");
    Objects.requireNonNull(callTimeout, "callTimeout");
    Objects.requireNonNull(retryBackoff, "retryBackoff");
    String scheme = baseUrl.getScheme();
    if (!"http".equalsIgnoreCase(scheme) && !"https".equalsIgnoreCase(scheme)) {
      throw new IllegalArgumentException("baseUrl must be http or https, got " + baseUrl);
    }
    if (baseUrl.getRawQuery() != null || baseUrl.getRawFragment() != null || baseUrl.getRawUserInfo() != null) {
      // a key or a password in the URL would end up in logs: only the header carries credentials
      throw new IllegalArgumentException("baseUrl must not have a query, fragment or user info");
    }
    if (!(requestsPerSecond > 0) || Double.isInfinite(requestsPerSecond)) {
      throw new IllegalArgumentException("requestsPerSecond must be a positive number, got " + requestsPerSecond);
    }
    if (callTimeout.isNegative() || callTimeout.isZero()) {
      throw new IllegalArgumentException("callTimeout must be positive, got " + callTimeout);
    }
    if (maxReadAttempts < 1) {
      throw new IllegalArgumentException("maxReadAttempts must be at least 1, got " + maxReadAttempts);
    }
    if (retryBackoff.isNegative()) {
      throw new IllegalArgumentException("retryBackoff must not be negative, got " + retryBackoff);
    }
    if (maxInFlight < 1) {
      throw new IllegalArgumentException("maxInFlight must be at least 1, got " + maxInFlight);
    }
    if (maxResponseBytes < 1024 || maxResponseBytes > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("maxResponseBytes must lie within 1024.." + (Integer.MAX_VALUE - 8)
          + ", got " + maxResponseBytes);
    }
    if (!plainHttpAllowed && isPlainHttpToRemoteHost(baseUrl)) {
      throw new IllegalArgumentException("baseUrl " + baseUrl + " is plain http to " + baseUrl.getHost()
          + ", which is not a loopback address: anyone on the path could read the API key and forge the answers"
          + " verdicts rest on. Use https, or allow plain http explicitly for a network you trust");
    }
    apiKey = apiKey.filter(k -> !k.isBlank());
  }

  /**
   * Defaults: no key, 10 requests/s, 10 s per attempt, 3 read attempts, 200 ms first backoff, 64 in
   * flight, answers up to 16 MiB, plain http only to a loopback host.
   */
  public static TonApiConfig of(URI baseUrl) {
    return new TonApiConfig(
        baseUrl, Optional.empty(), DEFAULT_REQUESTS_PER_SECOND, DEFAULT_CALL_TIMEOUT,
        DEFAULT_MAX_READ_ATTEMPTS, DEFAULT_RETRY_BACKOFF, DEFAULT_MAX_IN_FLIGHT, DEFAULT_MAX_RESPONSE_BYTES, false);
  }

  /** Whether {@code url} is {@code http://} to a host other than this machine ({@link #isLoopback(String)}). */
  public static boolean isPlainHttpToRemoteHost(URI url) {
    return "http".equalsIgnoreCase(url.getScheme()) && !isLoopback(url.getHost());
  }

  /**
   * Whether {@code host} (of a URL) is this machine by its name or address: {@code localhost},
   * 127.0.0.0/8 or ::1. Other names are not resolved: what a name points to can change.
   */
  public static boolean isLoopback(String host) {
    if (host == null || host.isEmpty()) {
      return false;
    }
    String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    if (h.equalsIgnoreCase("localhost")) {
      return true;
    }
    boolean ipLiteral = h.contains(":") || h.matches("\\d{1,3}(\\.\\d{1,3}){3}");
    if (!ipLiteral) {
      return false;
    }
    try {
      return InetAddress.getByName(h).isLoopbackAddress(); // a literal: parsed, never looked up
    } catch (UnknownHostException e) {
      return false;
    }
  }

  public TonApiConfig withApiKey(String key) {
    return new TonApiConfig(baseUrl, Optional.ofNullable(key), requestsPerSecond, callTimeout, maxReadAttempts,
        retryBackoff, maxInFlight, maxResponseBytes, plainHttpAllowed);
  }

  public TonApiConfig withRequestsPerSecond(double rps) {
    return new TonApiConfig(baseUrl, apiKey, rps, callTimeout, maxReadAttempts, retryBackoff, maxInFlight,
        maxResponseBytes, plainHttpAllowed);
  }

  public TonApiConfig withCallTimeout(Duration timeout) {
    return new TonApiConfig(baseUrl, apiKey, requestsPerSecond, timeout, maxReadAttempts, retryBackoff, maxInFlight,
        maxResponseBytes, plainHttpAllowed);
  }

  public TonApiConfig withMaxReadAttempts(int attempts) {
    return new TonApiConfig(baseUrl, apiKey, requestsPerSecond, callTimeout, attempts, retryBackoff, maxInFlight,
        maxResponseBytes, plainHttpAllowed);
  }

  public TonApiConfig withRetryBackoff(Duration backoff) {
    return new TonApiConfig(baseUrl, apiKey, requestsPerSecond, callTimeout, maxReadAttempts, backoff, maxInFlight,
        maxResponseBytes, plainHttpAllowed);
  }

  public TonApiConfig withMaxInFlight(int max) {
    return new TonApiConfig(baseUrl, apiKey, requestsPerSecond, callTimeout, maxReadAttempts, retryBackoff, max,
        maxResponseBytes, plainHttpAllowed);
  }

  public TonApiConfig withMaxResponseBytes(long max) {
    return new TonApiConfig(baseUrl, apiKey, requestsPerSecond, callTimeout, maxReadAttempts, retryBackoff, maxInFlight,
        max, plainHttpAllowed);
  }

  /** Accepts {@code http://} for any host: only for a network where nobody can read or change the traffic. */
  public TonApiConfig withPlainHttpAllowed(boolean allowed) {
    return new TonApiConfig(baseUrl, apiKey, requestsPerSecond, callTimeout, maxReadAttempts, retryBackoff, maxInFlight,
        maxResponseBytes, allowed);
  }

  /** Shows whether a key is set, never the key. */
  @Override
  public String toString() {
    return "TonApiConfig[baseUrl=" + baseUrl
        + ", apiKey=" + (apiKey.isPresent() ? "<set>" : "<none>")
        + ", requestsPerSecond=" + requestsPerSecond
        + ", callTimeout=" + callTimeout
        + ", maxReadAttempts=" + maxReadAttempts
        + ", retryBackoff=" + retryBackoff
        + ", maxInFlight=" + maxInFlight
        + ", maxResponseBytes=" + maxResponseBytes
        + (plainHttpAllowed ? ", plainHttpAllowed" : "") + "]";
  }
}
