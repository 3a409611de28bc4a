package org.tonpayouts.ton.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.wallet.WalletData;

/**
 * Asynchronous TON HTTP API v2 client (toncenter-compatible, also talks to devnet): reads wallet
 * state and transactions, sends signed messages, on {@link HttpClient} + Jackson.
 *
 * <p>Every HTTP attempt first takes a permit from a client-side rate limiter (bucket4j, parked on
 * a scheduler, never blocking a caller), then one of {@code maxInFlight} slots (the others wait in
 * order, so a thousand wallets' reads reuse tens of keep-alive connections), then runs with
 * {@code callTimeout}. Reads are retried on
 * transport errors, 429 and 5xx with exponential backoff, up to {@code maxReadAttempts}. Sends are
 * never retried here: after a timeout the message may be on chain, and only the caller, who
 * watches the message hash, may decide to re-send the same BOC.
 *
 * <p>The API key travels only in the {@code X-API-Key} header: never in a URL, a log line or an
 * exception message.
 */
public final class TonApiClient implements TonApi, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(TonApiClient.class);
  private static final String API_KEY_HEADER = "X-API-Key";
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);
  private static final Duration MAX_RETRY_AFTER = Duration.ofSeconds(30);
  private static final int MAX_TRANSACTIONS_LIMIT = 100;

  private final TonApiConfig config;
  private final HttpClient http;
  /** {@link TonApiConfig#maxInFlight()}: an attempt holds a permit from its request to its answer. */
  private final AsyncPermits inFlight;
  private final ScheduledExecutorService scheduler;
  private final RequestRateLimiter limiter;
  private final ObjectMapper json = new ObjectMapper();
  private final ResponseParser parser;
  private final String apiRoot;
  private final HttpClient.Version version;
  private final AtomicLong requestsSent = new AtomicLong();
  private final TonApiMetrics metrics;
  private volatile boolean closed;

  public TonApiClient(TonApiConfig config) {
    this(config, (MeterRegistry) null);
  }

  /**
   * Records every HTTP request in {@code registry} ({@link TonApiMetrics}); null records nothing.
   *
   * <p>The HTTP client runs its work on its selector thread instead of handing each step to a
   * pool of workers (at 1,000 wallets on devnet those hand-offs cost streams-app more CPU than its
   * stream thread). The JDK completes {@code sendAsync}'s futures on the common {@link
   * java.util.concurrent.ForkJoinPool} whatever the executor ({@link CommonPool}), so the returned
   * futures complete there: callers must not block in dependent actions (hand blocking work to an
   * executor of their own with the {@code ...Async} forms).
   */
  public TonApiClient(TonApiConfig config, MeterRegistry registry) {
    this(config, HttpClient.newBuilder().connectTimeout(config.callTimeout()).executor(Runnable::run).build(),
        registry);
  }

  /** Uses {@code http} for the requests (shared connection pools, proxies, TLS settings). */
  public TonApiClient(TonApiConfig config, HttpClient http) {
    this(config, http, null);
  }

  /** Uses {@code http} for the requests and records them in {@code registry} (null: nowhere). */
  public TonApiClient(TonApiConfig config, HttpClient http, MeterRegistry registry) {
    this.metrics = new TonApiMetrics(registry);
    this.config = Objects.requireNonNull(config, "config");
    this.http = Objects.requireNonNull(http, "http");
    this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "ton-api-scheduler");
      t.setDaemon(true);
      return t;
    });
    this.limiter = new RequestRateLimiter(config.requestsPerSecond(), scheduler);
    this.inFlight = new AsyncPermits(config.maxInFlight());
    this.parser = new ResponseParser(json, config.apiKey());
    this.apiRoot = apiRoot(config.baseUrl());
    // plain-http servers (devnet) get HTTP/1.1: the JDK's h2c upgrade attempt confuses simple servers
    this.version = "https".equalsIgnoreCase(config.baseUrl().getScheme())
        ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1;
    if (!CommonPool.isShared()) {
      log.warn("the JDK's HttpClient will start a thread for every answer: the common ForkJoinPool has parallelism {}"
          + " (fewer than three processors); call CommonPool.ensureShared() first in main, or start the JVM with -D{}=2",
          java.util.concurrent.ForkJoinPool.getCommonPoolParallelism(), CommonPool.PARALLELISM_PROPERTY);
    }
  }

  private static String apiRoot(URI base) {
    String s = base.toString();
    while (s.endsWith("/")) {
      s = s.substring(0, s.length() - 1);
    }
    return s.endsWith("/api/v2") ? s + "/" : s + "/api/v2/";
  }

  public TonApiConfig config() {
    return config;
  }

  /** HTTP requests started so far, retries included: the "API calls per settled transfer" numerator. */
  public long requestsSent() {
    return requestsSent.get();
  }

  // ---------------------------------------------------------------- API

  @Override
  public CompletableFuture<WalletInfo> getWalletInformation(TonAddress address) {
    String method = "getWalletInformation";
    return read(method, get(method, Map.of("address", address.toRaw())), r -> parser.walletInfo(method, r));
  }

  @Override
  public CompletableFuture<Long> getSeqno(TonAddress address) {
    return getWalletInformation(address).thenCompose(info -> {
      if (info.isUninitialized()) {
        return CompletableFuture.completedFuture(0L);
      }
      if (info.seqno() != null) {
        return CompletableFuture.completedFuture(info.seqno());
      }
      if (info.isActive()) {
        // a contract the server does not recognise as a wallet: ask the contract itself
        return runGetMethod(address, "seqno").thenApply(r -> {
          if (r.exitCode() != 0) {
            throw new UnexpectedResponseException("runGetMethod", "seqno get-method exited with " + r.exitCode()
                + " on " + address.toRaw());
          }
          return r.number(0).longValueExact();
        });
      }
      return CompletableFuture.failedFuture(new UnexpectedResponseException(
          "getWalletInformation", "account " + address.toRaw() + " is " + info.accountState() + ": it has no seqno"));
    });
  }

  @Override
  public CompletableFuture<AddressInfo> getAddressInformation(TonAddress address) {
    String method = "getAddressInformation";
    return read(method, get(method, Map.of("address", address.toRaw())), r -> parser.addressInfo(method, r));
  }

  @Override
  public CompletableFuture<WalletSnapshot> getWalletSnapshot(TonAddress address) {
    return getAddressInformation(address).thenApply(info -> snapshotOf(address, info));
  }

  static WalletSnapshot snapshotOf(TonAddress address, AddressInfo info) {
    if ("uninitialized".equals(info.state()) || ("active".equals(info.state()) && info.data() == null)) {
      if (!"uninitialized".equals(info.state())) {
        throw new UnexpectedResponseException("getAddressInformation",
            "account " + address.toRaw() + " is active but has no data: not a wallet");
      }
      return new WalletSnapshot(info.state(), info.balance(), 0, null, info.lastTransaction(), info.syncUtime());
    }
    if (!"active".equals(info.state())) {
      throw new UnexpectedResponseException("getAddressInformation",
          "account " + address.toRaw() + " is " + info.state() + ": it has no seqno");
    }
    WalletData data;
    try {
      data = WalletData.parse(info.data());
    } catch (IllegalArgumentException e) {
      throw new UnexpectedResponseException("getAddressInformation",
          "account " + address.toRaw() + " data is not a WalletV4R2 data cell: " + e.getMessage());
    }
    return new WalletSnapshot(info.state(), info.balance(), data.seqno(), data.subwalletId(), info.lastTransaction(),
        info.syncUtime());
  }

  /** Runs a get-method with an empty stack ({@code runGetMethod}); a read, so retried like one. */
  public CompletableFuture<GetMethodResult> runGetMethod(TonAddress address, String getMethod) {
    String method = "runGetMethod";
    ObjectNode body = json.createObjectNode();
    body.put("address", address.toRaw());
    body.put("method", getMethod);
    body.putArray("stack");
    return read(method, post(method, body), r -> parser.getMethodResult(method, r));
  }

  @Override
  public CompletableFuture<SentMessage> sendBocReturnHash(String bocBase64) {
    Objects.requireNonNull(bocBase64, "bocBase64");
    String method = "sendBocReturnHash";
    ObjectNode body = json.createObjectNode();
    body.put("boc", bocBase64);
    return execute(method, post(method, body), true, r -> parser.sentMessage(method, r));
  }

  @Override
  public CompletableFuture<List<ChainTransaction>> getTransactions(
      TonAddress address, int limit, TransactionId from, Long toLt) {
    if (limit < 1 || limit > MAX_TRANSACTIONS_LIMIT) {
      throw new IllegalArgumentException("limit must be 1.." + MAX_TRANSACTIONS_LIMIT + ", got " + limit);
    }
    String method = "getTransactions";
    Map<String, String> params = new LinkedHashMap<>();
    params.put("address", address.toRaw());
    params.put("limit", Integer.toString(limit));
    if (from != null) {
      params.put("lt", Long.toString(from.lt()));
      params.put("hash", from.hash());
    }
    if (toLt != null) {
      params.put("to_lt", Long.toString(toLt));
    }
    return read(method, get(method, params), r -> parser.transactions(method, r, address));
  }

  @Override
  public CompletableFuture<MasterchainInfo> getMasterchainInfo() {
    String method = "getMasterchainInfo";
    return read(method, get(method, Map.of()), r -> parser.masterchainInfo(method, r));
  }

  @Override
  public CompletableFuture<List<BlockId>> getShards(long masterchainSeqno) {
    if (masterchainSeqno < 1) {
      throw new IllegalArgumentException("masterchainSeqno must be positive, got " + masterchainSeqno);
    }
    String method = "shards";
    return read(method, get(method, Map.of("seqno", Long.toString(masterchainSeqno))),
        r -> parser.shards(method, r));
  }

  @Override
  public CompletableFuture<BlockTransactions> getBlockTransactions(
      BlockId block, BlockTransactions.After after, int count) {
    Objects.requireNonNull(block, "block");
    if (count < 1 || count > BlockTransactions.MAX_COUNT) {
      throw new IllegalArgumentException("count must be 1.." + BlockTransactions.MAX_COUNT + ", got " + count);
    }
    if (block.seqno() < 1) {
      throw new IllegalArgumentException("block seqno must be positive, got " + block);
    }
    String method = "getBlockTransactionsExt";
    Map<String, String> params = new LinkedHashMap<>();
    params.put("workchain", Integer.toString(block.workchain()));
    params.put("shard", Long.toString(block.shard()));
    params.put("seqno", Long.toString(block.seqno()));
    if (block.hasHashes()) {
      // the exact block: the server skips its lookup by seqno
      params.put("root_hash", block.rootHash());
      params.put("file_hash", block.fileHash());
    }
    if (after != null) {
      params.put("after_lt", Long.toString(after.lt()));
      params.put("after_hash", after.accountHex());
    }
    params.put("count", Integer.toString(count));
    return read(method, get(method, params), r -> parser.blockTransactions(method, r, block));
  }

  /** Stops the retry scheduler; calls already waiting for a permit still go out. */
  @Override
  public void close() {
    closed = true;
    scheduler.shutdown();
  }

  // ---------------------------------------------------------------- requests

  private HttpRequest get(String method, Map<String, String> params) {
    StringBuilder query = new StringBuilder();
    params.forEach((k, v) -> {
      query.append(query.length() == 0 ? '?' : '&')
          .append(URLEncoder.encode(k, StandardCharsets.UTF_8))
          .append('=')
          .append(URLEncoder.encode(v, StandardCharsets.UTF_8));
    });
    return request(method, query.toString()).GET().build();
  }

  private HttpRequest post(String method, JsonNode body) {
    byte[] bytes;
    try {
      bytes = json.writeValueAsBytes(body);
    } catch (IOException e) {
      throw new IllegalStateException("cannot serialise request of " + method, e);
    }
    return request(method, "")
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(bytes))
        .build();
  }

  private HttpRequest.Builder request(String method, String query) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(apiRoot + method + query))
        .timeout(config.callTimeout())
        .version(version)
        .header("Accept", "application/json");
    config.apiKey().ifPresent(key -> b.header(API_KEY_HEADER, key));
    return b;
  }

  // ---------------------------------------------------------------- execution

  private <T> CompletableFuture<T> read(String method, HttpRequest request, Function<JsonNode, T> mapper) {
    return execute(method, request, false, mapper);
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
        return exchange(method, request, attempt);
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

  /** One HTTP exchange, bounded by {@code callTimeout} end to end (the request timeout alone stops at the headers). */
  private CompletableFuture<HttpResponse<byte[]>> exchange(String method, HttpRequest request, int attempt) {
    long start = System.nanoTime();
    requestsSent.incrementAndGet();
    CompletableFuture<HttpResponse<byte[]>> inFlight = http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray());
    CompletableFuture<HttpResponse<byte[]>> bounded =
        inFlight.copy().orTimeout(config.callTimeout().toNanos(), TimeUnit.NANOSECONDS);
    return bounded.whenComplete((r, e) -> {
      long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      if (e == null) {
        log.debug("ton-api call method={} status={} latencyMs={} attempt={}", method, r.statusCode(), ms, attempt);
      } else {
        inFlight.cancel(true);
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
  static String describe(Throwable e) {
    String text = e.getClass().getName();
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t.getMessage() != null && !t.getMessage().isBlank()) {
        return text + ": " + t.getMessage() + (t == e ? "" : " (" + t.getClass().getSimpleName() + ")");
      }
    }
    return text;
  }
}
