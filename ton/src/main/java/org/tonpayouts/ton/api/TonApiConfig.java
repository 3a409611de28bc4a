package org.tonpayouts.ton.api;

import java.net.URI;
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
 */
public record TonApiConfig(
    URI baseUrl,
    Optional<String> apiKey,
    double requestsPerSecond,
    Duration callTimeout,
    int maxReadAttempts,
    Duration retryBackoff,
    int maxInFlight) {

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
    apiKey = apiKey.filter(k -> !k.isBlank());
  }

  /** Defaults: no key, 10 requests/s, 10 s per attempt, 3 read attempts, 200 ms first backoff, 64 in flight. */
  public static TonApiConfig of(URI baseUrl) {
    return new TonApiConfig(
        baseUrl, Optional.empty(), DEFAULT_REQUESTS_PER_SECOND, DEFAULT_CALL_TIMEOUT,
        DEFAULT_MAX_READ_ATTEMPTS, DEFAULT_RETRY_BACKOFF, DEFAULT_MAX_IN_FLIGHT);
  }

  public TonApiConfig withApiKey(String key) {
    return new TonApiConfig(baseUrl, Optional.ofNullable(key), requestsPerSecond, callTimeout, maxReadAttempts, retryBackoff,
        maxInFlight);
  }

  public TonApiConfig withRequestsPerSecond(double rps) {
    return new TonApiConfig(baseUrl, apiKey, rps, callTimeout, maxReadAttempts, retryBackoff, maxInFlight);
  }

  public TonApiConfig withCallTimeout(Duration timeout) {
    return new TonApiConfig(baseUrl, apiKey, requestsPerSecond, timeout, maxReadAttempts, retryBackoff, maxInFlight);
  }

  public TonApiConfig withMaxReadAttempts(int attempts) {
    return new TonApiConfig(baseUrl, apiKey, requestsPerSecond, callTimeout, attempts, retryBackoff, maxInFlight);
  }

  public TonApiConfig withRetryBackoff(Duration backoff) {
    return new TonApiConfig(baseUrl, apiKey, requestsPerSecond, callTimeout, maxReadAttempts, backoff, maxInFlight);
  }

  public TonApiConfig withMaxInFlight(int max) {
    return new TonApiConfig(baseUrl, apiKey, requestsPerSecond, callTimeout, maxReadAttempts, retryBackoff, max);
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
        + ", maxInFlight=" + maxInFlight + "]";
  }
}
