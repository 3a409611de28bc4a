package org.tonpayouts.ton.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How {@link TonApiClient}'s HTTP requests are carried out: each attempt takes a token of the
 * client-side rate limit (parked on a scheduler, never blocking a caller), then one of {@code
 * maxInFlight} slots, then runs with {@code callTimeout}; the answer is unwrapped, counted in
 * {@link TonApiMetrics} and mapped, a failure classified ({@link TonApiException} subtypes). Reads
 * are retried with jittered exponential backoff (at least Retry-After), sends never.
 */
final class ApiCalls implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(TonApiClient.class); // one logger for the client's lines
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);
  private static final Duration MAX_RETRY_AFTER = Duration.ofSeconds(30);

  private final TonApiConfig config;
  private final HttpClient http;
  private final ResponseParser parser;
  private final TonApiMetrics metrics;
  private final ScheduledExecutorService scheduler;
  private final RequestRateLimiter limiter;
  /** {@link TonApiConfig#maxInFlight()}: an attempt holds a permit from its request to its answer. */
  private final AsyncPermits inFlight;
  private final AtomicLong requestsSent = new AtomicLong();
  /** What the answers being read hold together ({@link BoundedBody}). */
  private final AnswerBudget answerBudget;
  private volatile boolean closed;

  ApiCalls(TonApiConfig config, HttpClient http, ResponseParser parser, TonApiMetrics metrics) {
    this.config = config;
    this.http = http;
    this.parser = parser;
    this.metrics = metrics;
    this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "ton-api-scheduler");
      t.setDaemon(true);
      return t;
    });
    this.limiter = new RequestRateLimiter(config.requestsPerSecond(), scheduler);
    this.inFlight = new AsyncPermits(config.maxInFlight());
    this.answerBudget = AnswerBudget.forCap(config.maxResponseBytes());
  }

  /** Bytes the answers being read hold now (0 when none is). */
  long answerBytesHeld() {
    return answerBudget.held();
  }

  /** HTTP requests started so far, retries included. */
  long requestsSent() {
    return requestsSent.get();
  }

  /** Stops the retry scheduler; calls already waiting for a permit still go out. */
  @Override
  public void close() {
    closed = true;
    scheduler.shutdown();
  }

  /** A read: retried on transport errors, 429 and 5xx with backoff, up to {@code maxReadAttempts}. */
  <T> CompletableFuture<T> read(String method, HttpRequest request, Function<JsonNode, T> mapper) {
    return execute(method, request, false, mapper);
  }

  /** A send: never retried (after a timeout the message may be on chain; the caller re-sends the same BOC). */
  <T> CompletableFuture<T> send(String method, HttpRequest request, Function<JsonNode, T> mapper) {
    return execute(method, request, true, mapper);
  }

  private <T> CompletableFuture<T> execute(
      String method, HttpRequest request, boolean send, Function<JsonNode, T> mapper) {
    if (closed) {
      return CompletableFuture.failedFuture(new IllegalStateException("TonApiClient is closed"));
    }
    CompletableFuture<T> result = new CompletableFuture<>();
    attempt(method, request, send, mapper, 1, result);
    return result;
  }

  private <T> void attempt(
      String method, HttpRequest request, boolean send, Function<JsonNode, T> mapper,
      int attempt, CompletableFuture<T> result) {
    CompletableFuture<HttpResponse<byte[]>> response;
    long[] startedAt = new long[1];
    try {
      response = limiter.acquire().thenCompose(permit -> inFlight.run(() -> {
        startedAt[0] = System.nanoTime();
        return exchange(method, request, send, attempt);
      }));
    } catch (RejectedExecutionException e) {
      result.completeExceptionally(new IllegalStateException("TonApiClient is closed", e));
      return;
    }
    response.whenComplete((r, error) -> {
      if (error != null && Failures.cause(error) instanceof RejectedExecutionException) {
        result.completeExceptionally(new IllegalStateException("TonApiClient is closed", Failures.cause(error)));
        return;
      }
      TonApiException failure;
      try {
        if (error == null) {
          JsonNode node = parser.unwrap(method, r.statusCode(), r.body(),
              r.headers().firstValue("Retry-After"), send);
          T value = mapper.apply(node);
          metrics.record(method, TonApiMetrics.Outcome.OK, since(startedAt[0]));
          result.complete(value);
          return;
        }
        failure = transportFailure(method, request.uri(), send, error);
      } catch (TonApiException e) {
        failure = e;
      } catch (RuntimeException e) {
        failure = new UnexpectedResponseException(method, "cannot read answer: " + e, e);
      }
      metrics.record(method, TonApiMetrics.Outcome.of(failure), since(startedAt[0]));
      // a block the node does not have yet is the caller's wait: it decides when to ask again
      boolean retry = !send && failure.isTransient() && !(failure instanceof BlockNotReadyException);
      if (retry && attempt < config.maxReadAttempts() && !closed) {
        retryLater(method, request, mapper, attempt, result, failure);
      } else {
        result.completeExceptionally(failure);
      }
    });
  }

  private <T> void retryLater(
      String method, HttpRequest request, Function<JsonNode, T> mapper,
      int attempt, CompletableFuture<T> result, TonApiException failure) {
    Duration delay = backoff(attempt, failure);
    log.warn("ton-api retry method={} attempt={} of={} delayMs={} reason=\"{}\"",
        method, attempt + 1, config.maxReadAttempts(), delay.toMillis(), failure.getMessage());
    try {
      scheduler.schedule(() -> attempt(method, request, false, mapper, attempt + 1, result),
          delay.toNanos(), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      result.completeExceptionally(failure);
    }
  }

  /** Exponential from {@code retryBackoff}, with jitter so many wallets do not retry in step; at least Retry-After. */
  private Duration backoff(int attempt, TonApiException failure) {
    long base = config.retryBackoff().toNanos();
    long exp = base << Math.min(attempt - 1, 20);
    long capped = Math.min(exp < 0 ? Long.MAX_VALUE : exp, MAX_BACKOFF.toNanos());
    long jittered = capped / 2 + (capped > 1 ? ThreadLocalRandom.current().nextLong(capped / 2 + 1) : 0);
    Duration delay = Duration.ofNanos(jittered);
    if (failure instanceof RateLimitedException limited && limited.retryAfter().isPresent()) {
      Duration after = limited.retryAfter().get();
      delay = after.compareTo(MAX_RETRY_AFTER) > 0 ? MAX_RETRY_AFTER : (after.compareTo(delay) > 0 ? after : delay);
    }
    return delay;
  }

  /**
   * One HTTP exchange, bounded by {@code callTimeout} end to end, body included (the request's own
   * timeout stops at the headers, so a node dripping its answer byte by byte would hold the call
   * forever), and by {@code maxResponseBytes} in size ({@link BoundedBody}).
   */
  private CompletableFuture<HttpResponse<byte[]>> exchange(String method, HttpRequest request, boolean send,
      int attempt) {
    long start = System.nanoTime();
    requestsSent.incrementAndGet();
    CompletableFuture<HttpResponse<byte[]>> answer =
        http.sendAsync(request, new BoundedBody(method, config.maxResponseBytes(), send, answerBudget));
    CompletableFuture<HttpResponse<byte[]>> bounded =
        answer.copy().orTimeout(config.callTimeout().toNanos(), TimeUnit.NANOSECONDS);
    return bounded.whenComplete((r, e) -> {
      long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      if (e == null) {
        log.debug("ton-api call method={} status={} latencyMs={} attempt={}", method, r.statusCode(), ms, attempt);
      } else {
        answer.cancel(true);
        log.debug("ton-api call method={} failed=\"{}\" latencyMs={} attempt={}", method, Failures.cause(e), ms, attempt);
      }
    });
  }

  private static Duration since(long startedAtNanos) {
    return startedAtNanos == 0 ? Duration.ZERO : Duration.ofNanos(System.nanoTime() - startedAtNanos);
  }

  /**
   * What went wrong on the wire, naming the URL (without its query: no address or key material)
   * and the exception class: the JDK's {@link ConnectException} often has no message at all.
   */
  private TonApiException transportFailure(String method, URI uri, boolean send, Throwable error) {
    Throwable cause = Failures.cause(error);
    if (cause instanceof TonApiException api) {
      return api;
    }
    String where = " " + withoutQuery(uri);
    String timeout = "timed out after " + config.callTimeout() + where;
    if (cause instanceof HttpConnectTimeoutException) {
      return new TransportException(method, "connect " + timeout, cause, true, false);
    }
    if (cause instanceof HttpTimeoutException || cause instanceof TimeoutException) {
      return new TransportException(method, timeout, cause, true, send);
    }
    if (cause instanceof ConnectException) {
      String detail = describe(cause);
      if (detail.equals(cause.getClass().getName())) {
        // the JDK's HttpClient gives no message here: say what it usually means
        detail += " (nothing listens there, or the host is unreachable)";
      }
      return new TransportException(method, "cannot connect to" + where + ": " + detail, cause, false, false);
    }
    if (cause instanceof IOException || cause instanceof CancellationException) {
      return new TransportException(method, "connection to" + where + " failed: " + describe(cause), cause, false,
          send);
    }
    return new UnexpectedResponseException(method, "request to" + where + " failed: " + describe(cause), cause);
  }

  private static String withoutQuery(URI uri) {
    String s = uri.toString();
    int q = s.indexOf('?');
    return q < 0 ? s : s.substring(0, q);
  }

  /** "ExceptionClass: message", with the first cause that has a message when this one has none. */
  private static String describe(Throwable e) {
    String text = e.getClass().getName();
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t.getMessage() != null && !t.getMessage().isBlank()) {
        return text + ": " + t.getMessage() + (t == e ? "" : " (" + t.getClass().getSimpleName() + ")");
      }
    }
    return text;
  }
}
