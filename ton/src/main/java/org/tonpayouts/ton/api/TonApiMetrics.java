package org.tonpayouts.ton.api;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The TON API client's meters, declared once: every HTTP request (retries included, each counts
 * against the API's rate limit) by {@code method} and {@code outcome}, with its latency. In
 * Prometheus: {@code ton_api_requests_seconds_count{method,outcome}}, {@code _sum}, {@code _max}.
 */
public final class TonApiMetrics {
  public static final String REQUESTS = "ton.api.requests";

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
  private final Map<String, Timer> timers = new ConcurrentHashMap<>();

  /** @param registry where the meters go; null records nothing */
  public TonApiMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  void record(String method, Outcome outcome, Duration took) {
    if (registry == null) {
      return;
    }
    timers.computeIfAbsent(method + '/' + outcome, k -> Timer.builder(REQUESTS)
            .description("TON HTTP API requests (each retry counts) by method and outcome")
            .tag("method", method)
            .tag("outcome", outcome.tag())
            .register(registry))
        .record(took);
  }
}
