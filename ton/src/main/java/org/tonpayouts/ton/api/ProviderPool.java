package org.tonpayouts.ton.api;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.ton.address.TonAddress;

/**
 * Several TON API providers behind one {@link TonApi}: each call goes to the first provider in
 * order of preference that is in use; when that provider fails by itself (transport error, timeout,
 * 429, 5xx, an answer refused unread, a refused key) the call goes to the next one. A provider
 * that fails {@code failuresToSetAside} times in a row is set aside for {@code setAsideFor}; then
 * one call probes it, and an answer brings it back.
 *
 * <p>Every call is answered by one provider only: a wallet snapshot, a seqno, a page of
 * transactions come whole from the node that answered, with that node's {@code sync_utime}. The
 * pool never combines one provider's state with another's time, so a lagging provider can delay
 * an expiry but never cause one (DESIGN.md, the safe-retry rule).
 *
 * <p>Sends: the same signed BOC goes to the next provider when one fails by itself. That is safe
 * (one seqno: it applies at most once) and is what the safe-retry rule asks. A rejection of the
 * message ({@link MessageRejectedException}) or a refusal of the request (another 4xx) is an
 * answer about the message, which another provider would repeat: it ends the send. When every
 * provider failed, the failure returned is the first that {@link TonApiException#maybeDelivered()
 * may have delivered} the message (the others are suppressed in it), so "keep watching the hash"
 * reaches the caller even when a later provider failed before delivering. That holds for a
 * rejection after such a failure too: the earlier failure is reported, the rejection suppressed in
 * it, because "seqno already used" is exactly what a message that the first provider delivered and
 * the chain applied gets (today's callers, SendRecorder and Resender, watch the hash either way).
 *
 * <p>A provider can answer every call and still be no use: a node lagging behind the chain.
 * Every {@code lagCheckEvery} the pool asks each provider for its masterchain head and sets aside
 * one more than {@code lagBlocks} blocks behind the most advanced ({@link #checkLag()}); a later
 * check that finds it caught up brings it back.
 *
 * <p>Which provider a call reached shows in {@code ton.api.provider.calls{provider,outcome}}; set
 * aside and back are logged once each and shown by {@code ton.api.provider.set.aside{provider}},
 * how far behind by {@code ton.api.provider.lag.blocks{provider}}.
 */
public final class ProviderPool implements TonApi, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ProviderPool.class);

  /**
   * One provider: a name (the {@code provider} tag, in logs), its base URL (in logs and start-up
   * messages; it holds no key) and its client.
   */
  public record Provider(String name, URI url, TonApi api) {
    public Provider {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(url, "url");
      Objects.requireNonNull(api, "api");
    }
  }

  /**
   * @param failuresToSetAside failures in a row that set a provider aside
   * @param setAsideFor        how long a provider stays aside before one call probes it
   * @param lagBlocks          masterchain blocks behind the most advanced provider that set a provider
   *                           aside as lagging (0: no lag check)
   * @param lagCheckEvery      how often the pool compares the providers' masterchain heads (zero: only
   *                           when {@link #checkLag()} is called)
   */
  public record Settings(int failuresToSetAside, Duration setAsideFor, int lagBlocks, Duration lagCheckEvery) {
    public static final Settings DEFAULT = new Settings(3, Duration.ofSeconds(30), 10, Duration.ofSeconds(10));

    /** Without a lag check. */
    public Settings(int failuresToSetAside, Duration setAsideFor) {
      this(failuresToSetAside, setAsideFor, 0, Duration.ZERO);
    }

    public Settings {
      if (lagBlocks < 0) {
        throw new IllegalArgumentException("lagBlocks must be >= 0, got " + lagBlocks);
      }
      if (lagCheckEvery.isNegative()) {
        throw new IllegalArgumentException("lagCheckEvery must be >= 0, got " + lagCheckEvery);
      }
      if (failuresToSetAside < 1) {
        throw new IllegalArgumentException("failuresToSetAside must be at least 1, got " + failuresToSetAside);
      }
      if (setAsideFor.isNegative() || setAsideFor.isZero()) {
        throw new IllegalArgumentException("setAsideFor must be positive, got " + setAsideFor);
      }
    }
  }

  /** What one provider's failure means for the call. */
  private enum Fault {
    /** The provider failed: count it, ask the next one. */
    PROVIDER,
    /** Not this provider's answer to give (404: method withheld or object unknown; block not there yet): ask the next. */
    ASK_ELSEWHERE,
    /** An answer about the chain or the request, which every provider would give: the call ends. */
    FINAL
  }

  private static final class Member {
    final Provider provider;
    final ProviderHealth health;
    /** Blocks behind the most advanced provider at the last lag check. */
    volatile long blocksBehind;

    Member(Provider provider, ProviderHealth health) {
      this.provider = provider;
      this.health = health;
    }

    Provider provider() {
      return provider;
    }

    ProviderHealth health() {
      return health;
    }
  }

  /** How long a lag check waits for each provider's masterchain head. */
  private static final Duration LAG_CHECK_TIMEOUT = Duration.ofSeconds(10);

  private final List<Member> members;
  private final TonApiMetrics metrics;
  private final int lagBlocks;
  private final ScheduledExecutorService lagChecks;

  public ProviderPool(List<Provider> providers, Settings settings, MeterRegistry registry, Clock clock) {
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(clock, "clock");
    if (providers.isEmpty()) {
      throw new IllegalArgumentException("at least one provider is needed");
    }
    if (new HashSet<>(providers.stream().map(Provider::name).toList()).size() != providers.size()) {
      throw new IllegalArgumentException("provider names must differ: " + providers.stream().map(Provider::name).toList());
    }
    // a lone provider is never set aside: there is nowhere else to go, and "set aside" would only mislead
    int failuresToSetAside = providers.size() == 1 ? Integer.MAX_VALUE : settings.failuresToSetAside();
    List<Member> list = new ArrayList<>();
    this.metrics = new TonApiMetrics(registry);
    for (Provider p : providers) {
      ProviderHealth health = new ProviderHealth(failuresToSetAside, settings.setAsideFor(), clock);
      list.add(new Member(p, health));
      metrics.providerSetAside(p.name(), health::isSetAside);
    }
    this.members = List.copyOf(list);
    this.lagBlocks = providers.size() == 1 ? 0 : settings.lagBlocks();
    if (lagBlocks > 0) {
      members.forEach(m -> metrics.providerLag(m.provider().name(), () -> m.blocksBehind));
    }
    if (lagBlocks > 0 && !settings.lagCheckEvery().isZero()) {
      lagChecks = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "ton-api-provider-lag-check");
        t.setDaemon(true);
        return t;
      });
      long every = settings.lagCheckEvery().toMillis();
      lagChecks.scheduleWithFixedDelay(this::checkLagQuietly, every, every, TimeUnit.MILLISECONDS);
    } else {
      lagChecks = null;
    }
  }

  /**
   * Compares the providers' masterchain heads (each asked directly, set aside or not) and sets aside
   * every provider more than {@code lagBlocks} behind the most advanced one; one found caught up
   * again is back in use. A provider that does not answer keeps its standing (its calls' failures
   * decide). Runs every {@code lagCheckEvery}; public so a test can run one at a chosen moment.
   */
  public void checkLag() {
    if (lagBlocks == 0) {
      return;
    }
    java.util.Map<Member, Long> heads = new java.util.HashMap<>();
    for (Member m : members) {
      try {
        heads.put(m, m.provider().api().getMasterchainInfo()
            .get(LAG_CHECK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).seqno());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (ExecutionException | TimeoutException | RuntimeException e) {
        log.debug("lag check: no masterchain head provider={} error={}", m.provider().name(), e.toString());
      }
    }
    if (heads.size() < 2) {
      return; // nothing to compare with
    }
    long best = heads.values().stream().mapToLong(Long::longValue).max().orElseThrow();
    heads.forEach((m, head) -> {
      m.blocksBehind = best - head;
      boolean behind = best - head > lagBlocks;
      boolean wasLagging = m.health().isLagging();
      m.health().lagging(behind);
      if (behind && !wasLagging) {
        log.warn("ton api provider set aside: lagging provider={} url={} blocks_behind={} head={} best_head={}"
            + " limit={}", m.provider().name(), m.provider().url(), best - head, head, best, lagBlocks);
      } else if (!behind && wasLagging) {
        log.info("ton api provider caught up: back in use unless failing provider={} url={} blocks_behind={}",
            m.provider().name(), m.provider().url(), best - head);
      }
    });
  }

  private void checkLagQuietly() {
    try {
      checkLag();
    } catch (RuntimeException e) {
      log.warn("ton api provider lag check failed error={}", e.toString()); // the next one runs all the same
    }
  }

  /** The providers in order of preference: start-up checks each one. */
  public List<Provider> providers() {
    return members.stream().map(Member::provider).toList();
  }

  /** Whether {@code name} is set aside now. */
  public boolean isSetAside(String name) {
    return members.stream().filter(m -> m.provider().name().equals(name)).anyMatch(m -> m.health().isSetAside());
  }

  // ---------------------------------------------------------------- TonApi: one provider per answer

  @Override
  public CompletableFuture<WalletInfo> getWalletInformation(TonAddress address) {
    return read(api -> api.getWalletInformation(address));
  }

  @Override
  public CompletableFuture<Long> getSeqno(TonAddress address) {
    return read(api -> api.getSeqno(address));
  }

  @Override
  public CompletableFuture<WalletSnapshot> getWalletSnapshot(TonAddress address) {
    return read(api -> api.getWalletSnapshot(address));
  }

  @Override
  public CompletableFuture<AddressInfo> getAddressInformation(TonAddress address) {
    return read(api -> api.getAddressInformation(address));
  }

  @Override
  public CompletableFuture<SentMessage> sendBocReturnHash(String bocBase64) {
    Objects.requireNonNull(bocBase64, "bocBase64");
    return call(api -> api.sendBocReturnHash(bocBase64), true);
  }

  @Override
  public CompletableFuture<List<ChainTransaction>> getTransactions(
      TonAddress address, int limit, TransactionId from, Long toLt) {
    return read(api -> api.getTransactions(address, limit, from, toLt));
  }

  @Override
  public CompletableFuture<TonAddress> getJettonWalletAddress(TonAddress master, TonAddress owner) {
    return read(api -> api.getJettonWalletAddress(master, owner));
  }

  @Override
  public CompletableFuture<java.util.Optional<JettonWalletData>> getJettonWalletData(TonAddress jettonWallet) {
    return read(api -> api.getJettonWalletData(jettonWallet));
  }

  @Override
  public CompletableFuture<Integer> getGlobalId() {
    return read(TonApi::getGlobalId);
  }

  @Override
  public CompletableFuture<MasterchainInfo> getMasterchainInfo() {
    return read(TonApi::getMasterchainInfo);
  }

  @Override
  public CompletableFuture<List<BlockId>> getShards(long masterchainSeqno) {
    return read(api -> api.getShards(masterchainSeqno));
  }

  @Override
  public CompletableFuture<BlockTransactions> getBlockTransactions(
      BlockId block, BlockTransactions.After after, int count) {
    return read(api -> api.getBlockTransactions(block, after, count));
  }

  /** Stops the lag checks and closes the providers' clients. */
  @Override
  public void close() {
    if (lagChecks != null) {
      lagChecks.shutdownNow();
    }
    for (Member m : members) {
      if (m.provider().api() instanceof AutoCloseable c) {
        try {
          c.close();
        } catch (Exception e) {
          log.warn("ton api provider did not close provider={} error={}", m.provider().name(), e.toString());
        }
      }
    }
  }

  // ---------------------------------------------------------------- routing

  private <T> CompletableFuture<T> read(Function<TonApi, CompletableFuture<T>> call) {
    return call(call, false);
  }

  private <T> CompletableFuture<T> call(Function<TonApi, CompletableFuture<T>> call, boolean send) {
    return attempt(call, send, 0, false, new ArrayList<>());
  }

  /**
   * Asks the next usable provider from index {@code from}. When none is usable at all (every one set
   * aside), the call still goes out, to each in order ({@code anyway}): refusing it would stall the
   * pipeline for nothing, and an answer brings its provider back.
   */
  private <T> CompletableFuture<T> attempt(Function<TonApi, CompletableFuture<T>> call, boolean send, int from,
      boolean anyway, List<TonApiException> failures) {
    int i = next(from, anyway);
    if (i < 0) {
      if (!anyway && failures.isEmpty()) {
        return attempt(call, send, 0, true, failures);
      }
      return CompletableFuture.failedFuture(failureOf(failures));
    }
    Member member = members.get(i);
    CompletableFuture<T> answer;
    try {
      answer = call.apply(member.provider().api());
    } catch (RuntimeException e) {
      member.health().inconclusive(); // a refused argument: let a claimed probe go to the next call
      throw e;
    }
    return answer.handle((value, error) -> {
      if (error == null) {
        answered(member);
        return CompletableFuture.completedFuture(value);
      }
      Throwable cause = Failures.cause(error);
      if (!(cause instanceof TonApiException e)) {
        member.health().inconclusive();
        return CompletableFuture.<T>failedFuture(cause);
      }
      switch (faultOf(e, send)) {
        case FINAL -> {
          answered(member);
          failures.add(e);
          return CompletableFuture.<T>failedFuture(failureOf(failures));
        }
        case PROVIDER -> providerFailed(member, e);
        case ASK_ELSEWHERE -> {
          member.health().inconclusive();
          metrics.providerCall(member.provider().name(), TonApiMetrics.ProviderOutcome.PASSED);
        }
      }
      failures.add(e);
      return attempt(call, send, i + 1, anyway, failures);
    }).thenCompose(Function.identity());
  }

  private int next(int from, boolean anyway) {
    for (int i = from; i < members.size(); i++) {
      if (anyway || members.get(i).health().tryUse()) {
        return i;
      }
    }
    return -1;
  }

  private static Fault faultOf(TonApiException e, boolean send) {
    if (e instanceof MessageRejectedException) {
      return Fault.FINAL; // the wallet's verdict on this message: another node runs the same contract
    }
    if (e.isTransient() && !(e instanceof BlockNotReadyException)) {
      return Fault.PROVIDER;
    }
    if (e.httpStatus() == 401 || e.httpStatus() == 403) {
      return Fault.PROVIDER; // this provider refuses our key: another one may not
    }
    if (e instanceof NotFoundException || (!send && e instanceof BlockNotReadyException)) {
      // a 404 processed nothing, so a send may go elsewhere as well
      return Fault.ASK_ELSEWHERE;
    }
    return Fault.FINAL;
  }

  private void answered(Member member) {
    metrics.providerCall(member.provider().name(), TonApiMetrics.ProviderOutcome.OK);
    if (member.health().succeeded() == ProviderHealth.Change.BACK) {
      log.info("ton api provider back in use provider={} url={}", member.provider().name(), member.provider().url());
    }
  }

  private void providerFailed(Member member, TonApiException e) {
    metrics.providerCall(member.provider().name(), TonApiMetrics.ProviderOutcome.FAILED);
    if (member.health().failed() == ProviderHealth.Change.SET_ASIDE) {
      log.warn("ton api provider set aside provider={} url={} until={} error=\"{}\"", member.provider().name(),
          member.provider().url(), member.health().setAsideUntil(), e.getMessage());
    }
  }

  /**
   * The failure the caller sees: the first that may have delivered a sent message, else the last;
   * the others ride along as suppressed.
   */
  private static TonApiException failureOf(List<TonApiException> failures) {
    TonApiException chosen = failures.stream().filter(TonApiException::maybeDelivered).findFirst()
        .orElse(failures.get(failures.size() - 1));
    for (TonApiException f : failures) {
      if (f != chosen) {
        chosen.addSuppressed(f);
      }
    }
    return chosen;
  }
}
