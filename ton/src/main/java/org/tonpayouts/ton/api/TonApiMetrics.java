package org.tonpayouts.ton.api;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * The TON API client's meters, declared once: every HTTP request (retries included, each counts
 * against the API's rate limit) by {@code method}, {@code outcome} and {@code provider} (the
 * provider's name in {@code ton.api.urls}, else the API's host and port), with its latency. In
 * Prometheus: {@code ton_api_requests_seconds_count{method,outcome,provider}}, {@code _sum}, {@code _max}.
 */
public final class TonApiMetrics {
  public static final String REQUESTS = "ton.api.requests";
  /** Calls a {@link ProviderPool} gave each provider, by {@code provider} and {@link ProviderOutcome}. */
  public static final String PROVIDER_CALLS = "ton.api.provider.calls";
  /** 1 while a provider is set aside by its {@link ProviderPool}, else 0; tag {@code provider}. */
  public static final String PROVIDER_SET_ASIDE = "ton.api.provider.set.aside";
  public static final String PROVIDER_LAG = "ton.api.provider.lag.blocks";

  /** How one provider's part of a pooled call ended; the {@code outcome} tag of {@link #PROVIDER_CALLS}. */
  public enum ProviderOutcome {
    /** It answered (a rejection of a message or another refusal about the request included). */
    OK,
    /** It failed by itself (transport, timeout, 429, 5xx, refused answer or key): the call went to the next one. */
    FAILED,
    /** A 404 or a block it does not have yet: the call went to the next one, not counted against it. */
    PASSED;

    String tag() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** How one HTTP request ended; the {@code outcome} tag. */
  public enum Outcome {
    /** A 2xx answer the client could read. */
    OK,
    /** 429: the API's rate limit (retried for reads). */
    RATE_LIMITED,
    /** The liteserver refused a sent message (a verdict on the message, not an API failure). */
    REJECTED,
    /** 404: e.g. an unknown transaction. */
    NOT_FOUND,
    /** The node does not have the block yet (a lagging node, or a block asked for too early). */
    NOT_READY,
    /** Another 4xx: a bad request, a bad key. */
    CLIENT_ERROR,
    /** 5xx: the API or its liteserver failed. */
    SERVER_ERROR,
    /** No answer within the call timeout. */
    TIMEOUT,
    /** Connection refused, reset or closed. */
    TRANSPORT_ERROR,
    /** An answer the client could not read. */
    BAD_ANSWER;

    String tag() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    static Outcome of(TonApiException e) {
      if (e instanceof RateLimitedException) {
        return RATE_LIMITED;
      }
      if (e instanceof MessageRejectedException) {
        return REJECTED;
      }
      if (e instanceof NotFoundException) {
        return NOT_FOUND;
      }
      if (e instanceof BlockNotReadyException) {
        return NOT_READY;
      }
      if (e instanceof TransportException t) {
        return t.isTimeout() ? TIMEOUT : TRANSPORT_ERROR;
      }
      if (e instanceof ApiErrorException) {
        return e.httpStatus() >= 500 ? SERVER_ERROR : CLIENT_ERROR;
      }
      return BAD_ANSWER;
    }
  }

  private final MeterRegistry registry;
  private final String provider;
  private final Map<String, Timer> timers = new ConcurrentHashMap<>();
  private final Map<String, Counter> counters = new ConcurrentHashMap<>();

  /** @param registry where the meters go; null records nothing */
  public TonApiMetrics(MeterRegistry registry) {
    this(registry, "");
  }

  /**
   * @param registry where the meters go; null records nothing
   * @param provider the {@code provider} tag of the client's requests: which provider answered
   */
  public TonApiMetrics(MeterRegistry registry, String provider) {
    this.registry = registry;
    this.provider = java.util.Objects.requireNonNull(provider, "provider");
  }

  void providerCall(String provider, ProviderOutcome outcome) {
    if (registry == null) {
      return;
    }
    counters.computeIfAbsent(provider + '/' + outcome, k -> Counter.builder(PROVIDER_CALLS)
            .description("TON API calls a provider pool gave each provider, by provider and outcome")
            .tag("provider", provider)
            .tag("outcome", outcome.tag())
            .register(registry))
        .increment();
  }

  void providerSetAside(String provider, BooleanSupplier setAside) {
    if (registry == null) {
      return;
    }
    Gauge.builder(PROVIDER_SET_ASIDE, () -> setAside.getAsBoolean() ? 1 : 0)
        .description("1 while the provider is set aside (failing; probed again after its back-off), else 0")
        .tag("provider", provider)
        .register(registry);
  }

  void providerLag(String provider, java.util.function.LongSupplier blocksBehind) {
    if (registry == null) {
      return;
    }
    Gauge.builder(PROVIDER_LAG, () -> blocksBehind.getAsLong())
        .description("Masterchain blocks the provider was behind the most advanced provider at the last lag check")
        .tag("provider", provider)
        .register(registry);
  }

  void record(String method, Outcome outcome, Duration took) {
    if (registry == null) {
      return;
    }
    timers.computeIfAbsent(method + '/' + outcome, k -> Timer.builder(REQUESTS)
            .description("TON HTTP API requests (each retry counts) by method, outcome and provider")
            .tag("method", method)
            .tag("outcome", outcome.tag())
            .tag("provider", provider)
            .register(registry))
        .record(took);
  }
}
