package org.tonpayouts.ton.api;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.Boc;
import org.tonpayouts.ton.cell.TonCell;
import org.tonpayouts.ton.wallet.WalletData;

/**
 * Asynchronous TON HTTP API v2 client (toncenter-compatible, also talks to devnet): reads wallet
 * state and transactions, sends signed messages, on {@link HttpClient} + Jackson.
 *
 * <p>This class builds the requests and reads the answers; {@link ApiCalls} carries them out.
 * Every HTTP attempt first takes a permit from a client-side rate limiter (bucket4j, parked on a
 * scheduler, never blocking a caller), then one of {@code maxInFlight} slots (the others wait in
 * order, so a thousand wallets' reads reuse tens of keep-alive connections), then runs with
 * {@code callTimeout}. Reads are retried on transport errors, 429 and 5xx with exponential
 * backoff, up to {@code maxReadAttempts}. Sends are never retried here: after a timeout the
 * message may be on chain, and only the caller, who watches the message hash, may decide to
 * re-send the same BOC.
 *
 * <p>The API key travels only in the {@code X-API-Key} header: never in a URL, a log line or an
 * exception message.
 */
public final class TonApiClient implements TonApi, AutoCloseable {
  /** What a get-method on an account without code ends with (toncenter and devnet): not deployed. */
  static final int UNINITIALIZED_EXIT_CODE = -13;
  private static final Logger log = LoggerFactory.getLogger(TonApiClient.class);
  private static final String API_KEY_HEADER = "X-API-Key";
  private static final int MAX_TRANSACTIONS_LIMIT = 100;
  /** Configuration parameter 19: {@code _ global_id:int32 = ConfigParam 19;}. */
  private static final int GLOBAL_ID_PARAM = 19;

  private final TonApiConfig config;
  private final ApiCalls calls;
  private final ObjectMapper json;
  private final ResponseParser parser;
  private final String apiRoot;
  private final HttpClient.Version version;

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

  /**
   * As {@link #TonApiClient(TonApiConfig, MeterRegistry)}, its requests tagged {@code provider} =
   * {@code provider} (a provider's name in a pool) rather than the API's host and port.
   */
  public TonApiClient(TonApiConfig config, MeterRegistry registry, String provider) {
    this(config, HttpClient.newBuilder().connectTimeout(config.callTimeout()).executor(Runnable::run).build(),
        registry, provider);
  }

  /** Uses {@code http} for the requests and records them in {@code registry} (null: nowhere). */
  public TonApiClient(TonApiConfig config, HttpClient http, MeterRegistry registry) {
    this(config, http, registry, hostAndPort(config.baseUrl()));
  }

  private TonApiClient(TonApiConfig config, HttpClient http, MeterRegistry registry, String provider) {
    this.config = Objects.requireNonNull(config, "config");
    this.json = boundedJson(config);
    this.parser = new ResponseParser(json, config.apiKey());
    this.calls = new ApiCalls(config, Objects.requireNonNull(http, "http"), parser,
        new TonApiMetrics(registry, provider));
    this.apiRoot = apiRoot(config.baseUrl());
    // plain-http servers (devnet) get HTTP/1.1: the JDK's h2c upgrade attempt confuses simple servers
    this.version = "https".equalsIgnoreCase(config.baseUrl().getScheme())
        ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1;
    CommonPool.problem().ifPresent(log::warn);
  }

  /** The {@code provider} tag of a client outside a pool: {@code host:port}, or the host without a port. */
  private static String hostAndPort(java.net.URI url) {
    return url.getPort() > 0 ? url.getHost() + ":" + url.getPort() : url.getHost();
  }

  /**
   * JSON read within limits no honest answer reaches ({@link TonApiConfig#MAX_JSON_DEPTH} levels,
   * {@link TonApiConfig#MAX_JSON_NUMBER_LENGTH} digits, no string or document beyond the answer cap),
   * so a hostile answer costs neither deep recursion nor a number parse of megabytes.
   */
  private static ObjectMapper boundedJson(TonApiConfig config) {
    int maxLength = (int) config.maxResponseBytes();
    return new ObjectMapper(JsonFactory.builder().streamReadConstraints(StreamReadConstraints.builder()
        .maxNestingDepth(TonApiConfig.MAX_JSON_DEPTH)
        .maxNumberLength(TonApiConfig.MAX_JSON_NUMBER_LENGTH)
        .maxStringLength(maxLength)
        .maxDocumentLength(maxLength)
        .build()).build());
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
    return calls.requestsSent();
  }

  // ---------------------------------------------------------------- API

  @Override
  public CompletableFuture<WalletInfo> getWalletInformation(TonAddress address) {
    String method = "getWalletInformation";
    return calls.read(method, get(method, Map.of("address", address.toRaw())), r -> parser.walletInfo(method, r));
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
    return calls.read(method, get(method, Map.of("address", address.toRaw())), r -> parser.addressInfo(method, r));
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
    return runGetMethod(address, getMethod, null);
  }

  /** Runs a get-method with one slice argument (null: none), as toncenter takes it: {@code [["tvm.Slice", "<b64 BOC>"]]}. */
  private CompletableFuture<GetMethodResult> runGetMethod(TonAddress address, String getMethod, TonCell slice) {
    String method = "runGetMethod";
    ObjectNode body = json.createObjectNode();
    body.put("address", address.toRaw());
    body.put("method", getMethod);
    com.fasterxml.jackson.databind.node.ArrayNode stack = body.putArray("stack");
    if (slice != null) {
      stack.addArray().add("tvm.Slice").add(java.util.Base64.getEncoder().encodeToString(Boc.serialize(slice)));
    }
    return calls.read(method, post(method, body), r -> parser.getMethodResult(method, r));
  }

  @Override
  public CompletableFuture<TonAddress> getJettonWalletAddress(TonAddress master, TonAddress owner) {
    Objects.requireNonNull(master, "master");
    Objects.requireNonNull(owner, "owner");
    return runGetMethod(master, "get_wallet_address", TonCell.builder().storeAddress(owner).endCell()).thenApply(r -> {
      if (r.exitCode() != 0) {
        throw new UnexpectedResponseException("runGetMethod", "get_wallet_address of " + master.toRaw()
            + " ended with exit code " + r.exitCode() + (r.exitCode() == UNINITIALIZED_EXIT_CODE
            ? ": no contract there, so no jetton master" : ""));
      }
      TonAddress wallet = r.address(0);
      if (wallet == null) {
        throw new UnexpectedResponseException("runGetMethod", "get_wallet_address of " + master.toRaw()
            + " answered no address");
      }
      return wallet;
    });
  }

  @Override
  public CompletableFuture<java.util.Optional<JettonWalletData>> getJettonWalletData(TonAddress jettonWallet) {
    Objects.requireNonNull(jettonWallet, "jettonWallet");
    return runGetMethod(jettonWallet, "get_wallet_data").thenApply(r -> {
      if (r.exitCode() == UNINITIALIZED_EXIT_CODE) {
        return java.util.Optional.<JettonWalletData>empty();
      }
      if (r.exitCode() != 0) {
        throw new UnexpectedResponseException("runGetMethod", "get_wallet_data of " + jettonWallet.toRaw()
            + " ended with exit code " + r.exitCode());
      }
      return java.util.Optional.of(new JettonWalletData(r.number(0), r.address(1), r.address(2)));
    });
  }

  @Override
  public CompletableFuture<SentMessage> sendBocReturnHash(String bocBase64) {
    Objects.requireNonNull(bocBase64, "bocBase64");
    String method = "sendBocReturnHash";
    ObjectNode body = json.createObjectNode();
    body.put("boc", bocBase64);
    return calls.send(method, post(method, body), r -> parser.sentMessage(method, r));
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
    return calls.read(method, get(method, params), r -> parser.transactions(method, r, address));
  }

  @Override
  public CompletableFuture<MasterchainInfo> getMasterchainInfo() {
    String method = "getMasterchainInfo";
    return calls.read(method, get(method, Map.of()), r -> parser.masterchainInfo(method, r));
  }

  @Override
  public CompletableFuture<Integer> getGlobalId() {
    String method = "getConfigParam";
    return calls.read(method, get(method, Map.of("config_id", Integer.toString(GLOBAL_ID_PARAM))),
        r -> parser.globalId(method, r));
  }

  @Override
  public CompletableFuture<List<BlockId>> getShards(long masterchainSeqno) {
    if (masterchainSeqno < 1) {
      throw new IllegalArgumentException("masterchainSeqno must be positive, got " + masterchainSeqno);
    }
    String method = "shards";
    return calls.read(method, get(method, Map.of("seqno", Long.toString(masterchainSeqno))),
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
    return calls.read(method, get(method, params), r -> parser.blockTransactions(method, r, block));
  }

  /** Stops the retry scheduler; calls already waiting for a permit still go out. */
  @Override
  public void close() {
    calls.close();
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
}
