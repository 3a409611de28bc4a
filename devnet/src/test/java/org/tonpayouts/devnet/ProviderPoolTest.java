package org.tonpayouts.devnet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.devnet.chain.BlockInfo;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.MessageRejectedException;
import org.tonpayouts.ton.api.ProviderPool;
import org.tonpayouts.ton.api.RateLimitedException;
import org.tonpayouts.ton.api.SentMessage;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;
import org.tonpayouts.ton.api.TonApiException;
import org.tonpayouts.ton.api.TonApiMetrics;
import org.tonpayouts.ton.api.TransportException;
import org.tonpayouts.ton.api.WalletSnapshot;
import org.tonpayouts.ton.wallet.SignedTransfer;
import org.tonpayouts.ton.wallet.TransferOrder;

/**
 * A {@link ProviderPool} over real devnet nodes of one chain, each with its own faults: reads and
 * sends go to the next provider when one fails by itself, a failing provider is set aside and
 * probed back, a re-sent message applies once, a rejection is not sent elsewhere, and every answer
 * comes whole from one node. Blocks are made by the test; the pool's back-off runs on a clock the
 * test moves.
 */
class ProviderPoolTest {
  private static final long TON = 1_000_000_000L;
  private static final Duration SET_ASIDE = Duration.ofSeconds(30);

  private final ManualClock chainClock = ManualClock.fixedAt(Instant.parse("2026-03-01T12:00:00Z"));
  private final ManualClock poolClock = ManualClock.fixedAt(Instant.parse("2026-03-01T12:00:00Z"));
  private final TestWallet wallet = new TestWallet(27, 698983191L);
  private final TonAddress user = TestWallet.someAddress(61);
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  private Devnet devnet;
  private DevnetNode a;
  private DevnetNode b;
  private ProviderPool pool;

  @BeforeEach
  void start() {
    devnet = Devnet.builder().blockInterval(Duration.ZERO).clock(chainClock).seed(27).start();
    a = devnet.node("a");
    b = devnet.node("b");
    devnet.fund(wallet.address, 10 * TON);
    devnet.fund(user, TON, true);
  }

  @AfterEach
  void stop() {
    if (pool != null) {
      pool.close();
    }
    devnet.close();
  }

  private ProviderPool pool(ProviderPool.Provider... providers) {
    pool = new ProviderPool(List.of(providers), new ProviderPool.Settings(2, SET_ASIDE), registry, poolClock);
    return pool;
  }

  private static ProviderPool.Provider provider(String name, URI url) {
    return new ProviderPool.Provider(name, url, new TonApiClient(TonApiConfig.of(url)
        .withRequestsPerSecond(500)
        .withCallTimeout(Duration.ofSeconds(5))
        .withMaxReadAttempts(1)));
  }

  private static ProviderPool.Provider provider(DevnetNode node) {
    return provider(node.name(), node.apiUrl());
  }

  /** A loopback URL where nothing listens: connection refused, a real transport error. */
  private static URI nobodyListening() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return URI.create("http://127.0.0.1:" + s.getLocalPort());
    }
  }

  private double calls(String provider, TonApiMetrics.ProviderOutcome outcome) {
    Counter c = registry.find(TonApiMetrics.PROVIDER_CALLS).tag("provider", provider)
        .tag("outcome", outcome.name().toLowerCase(java.util.Locale.ROOT)).counter();
    return c == null ? 0 : c.count();
  }

  private double allCalls(String provider) {
    double sum = 0;
    for (TonApiMetrics.ProviderOutcome o : TonApiMetrics.ProviderOutcome.values()) {
      sum += calls(provider, o);
    }
    return sum;
  }

  private SignedTransfer transfer(long seqno) {
    return wallet.sign(seqno, chainClock.instant().plus(Duration.ofHours(1)),
        new TransferOrder(user, TON / 10, "payout " + seqno, false));
  }

  private BlockInfo block() {
    chainClock.advance(Duration.ofSeconds(5));
    return devnet.produceBlock();
  }

  private static TonApiException failureOf(CompletableFuture<?> future) {
    assertThatThrownBy(future::join).isInstanceOf(CompletionException.class);
    return (TonApiException) future.handle((v, e) -> e.getCause()).join();
  }

  @Test
  void shouldReadFromTheNextProviderWhileTheFirstIsRateLimited() {
    a.faults().rateLimit(1.0);
    ProviderPool pool = pool(provider(a), provider(b));

    WalletSnapshot snapshot = pool.getWalletSnapshot(wallet.address).join();

    assertThat(snapshot.isUninitialized()).isTrue();
    assertThat(calls("a", TonApiMetrics.ProviderOutcome.FAILED)).isEqualTo(1);
    assertThat(calls("b", TonApiMetrics.ProviderOutcome.OK)).isEqualTo(1);
    assertThat(pool.isSetAside("a")).as("one failure is not yet a pattern").isFalse();
  }

  @Test
  void shouldReadFromTheNextProviderWhenTheFirstCannotBeReached() throws IOException {
    ProviderPool pool = pool(provider("dead", nobodyListening()), provider(b));

    assertThat(pool.getGlobalId().join()).isEqualTo(pool.providers().get(1).api().getGlobalId().join());
    assertThat(calls("dead", TonApiMetrics.ProviderOutcome.FAILED)).isEqualTo(1);
  }

  @Test
  void shouldSetAFailingProviderAsideAndProbeItBackOnceItHealed() {
    a.faults().rateLimit(1.0);
    ProviderPool pool = pool(provider(a), provider(b));
    pool.getMasterchainInfo().join();
    pool.getMasterchainInfo().join();
    assertThat(pool.isSetAside("a")).isTrue();
    assertThat(registry.get(TonApiMetrics.PROVIDER_SET_ASIDE).tag("provider", "a").gauge().value()).isEqualTo(1);

    pool.getMasterchainInfo().join();
    assertThat(allCalls("a")).as("set aside: not asked").isEqualTo(2);

    a.faults().clear();
    pool.getMasterchainInfo().join();
    assertThat(allCalls("a")).as("healed, but its back-off is not over").isEqualTo(2);

    poolClock.advance(SET_ASIDE);
    pool.getMasterchainInfo().join();
    assertThat(calls("a", TonApiMetrics.ProviderOutcome.OK)).as("the probe").isEqualTo(1);
    assertThat(pool.isSetAside("a")).isFalse();
    assertThat(registry.get(TonApiMetrics.PROVIDER_SET_ASIDE).tag("provider", "a").gauge().value()).isZero();
    double bBefore = allCalls("b");
    pool.getMasterchainInfo().join();
    assertThat(allCalls("b")).as("back in front").isEqualTo(bBefore);
  }

  @Test
  void shouldKeepAProviderAsideWhenItsProbeFails() {
    a.faults().rateLimit(1.0);
    ProviderPool pool = pool(provider(a), provider(b));
    pool.getMasterchainInfo().join();
    pool.getMasterchainInfo().join();

    poolClock.advance(SET_ASIDE);
    pool.getMasterchainInfo().join(); // the probe fails, b answers
    assertThat(calls("a", TonApiMetrics.ProviderOutcome.FAILED)).isEqualTo(3);
    assertThat(pool.isSetAside("a")).isTrue();
    pool.getMasterchainInfo().join();
    assertThat(calls("a", TonApiMetrics.ProviderOutcome.FAILED)).as("a new back-off").isEqualTo(3);
  }

  @Test
  void shouldAskTheNextProviderForAMethodTheFirstWithholds() {
    a.faults().withhold(Set.of("getAddressInformation"));
    ProviderPool pool = pool(provider(a), provider(b));
    pool.getWalletSnapshot(wallet.address).join();
    pool.getWalletSnapshot(wallet.address).join();

    assertThat(calls("a", TonApiMetrics.ProviderOutcome.PASSED)).isEqualTo(2);
    assertThat(pool.isSetAside("a")).as("a 404 says nothing about the provider's health").isFalse();
  }

  @Test
  void shouldSendTheSameBocThroughTheNextProviderWhenTheFirstFailsAfterAccepting() {
    a.faults().transportErrorNext(1, Faults.TransportError.CLOSE);
    ProviderPool pool = pool(provider(a), provider(b));
    SignedTransfer first = transfer(0);
    int before = devnet.transactions(wallet.address).size();

    SentMessage sent = pool.sendBocReturnHash(first.boc()).join();
    block();

    assertThat(sent.hash()).isEqualTo(first.messageHash());
    assertThat(calls("a", TonApiMetrics.ProviderOutcome.FAILED)).isEqualTo(1);
    assertThat(calls("b", TonApiMetrics.ProviderOutcome.OK)).isEqualTo(1);
    assertThat(devnet.seqno(wallet.address)).as("applied once").isEqualTo(1);
    assertThat(devnet.transactions(wallet.address)).hasSize(before + 1);
    block();
    assertThat(devnet.seqno(wallet.address)).isEqualTo(1);
    assertThat(devnet.transactions(wallet.address)).hasSize(before + 1);
  }

  @Test
  void shouldReturnTheFailureThatMayHaveDeliveredWhenEveryProviderFails() {
    a.faults().transportErrorNext(1, Faults.TransportError.CLOSE);
    b.faults().rateLimit(1.0, Faults.RateLimitScope.SENDS);
    ProviderPool pool = pool(provider(a), provider(b));
    SignedTransfer first = transfer(0);
    int before = devnet.transactions(wallet.address).size();

    TonApiException failure = failureOf(pool.sendBocReturnHash(first.boc()));

    assertThat(failure).isInstanceOf(TransportException.class);
    assertThat(failure.maybeDelivered()).as("a queued it: keep watching the hash").isTrue();
    assertThat(failure.getSuppressed()).singleElement().isInstanceOf(RateLimitedException.class);
    block();
    assertThat(devnet.seqno(wallet.address)).isEqualTo(1);
    assertThat(devnet.transactions(wallet.address)).hasSize(before + 1);
  }

  @Test
  void shouldNotSendARejectedMessageToAnotherProvider() {
    ProviderPool pool = pool(provider(a), provider(b));
    pool.sendBocReturnHash(transfer(0).boc()).join();
    block();
    double bBefore = allCalls("b");
    SignedTransfer wrongSeqno = transfer(5);

    TonApiException failure = failureOf(pool.sendBocReturnHash(wrongSeqno.boc()));

    assertThat(failure).isInstanceOf(MessageRejectedException.class);
    assertThat(((MessageRejectedException) failure).isSeqnoMismatch()).isTrue();
    assertThat(allCalls("b")).as("the same contract would refuse it again").isEqualTo(bBefore);
    assertThat(pool.isSetAside("a")).isFalse();
  }

  @Test
  void shouldAnswerEachReadWholeFromOneNodeWithThatNodesTime() {
    ProviderPool pool = pool(provider(a), provider(b));
    pool.sendBocReturnHash(transfer(0).boc()).join();
    BlockInfo old = block();
    pool.sendBocReturnHash(transfer(1).boc()).join();
    BlockInfo now = block();
    a.faults().lag(1);

    WalletSnapshot fromA = pool.getWalletSnapshot(wallet.address).join();

    assertThat(fromA.seqno()).as("the lagging node's old state...").isEqualTo(1);
    assertThat(fromA.syncUtime()).as("...with its own old time").isEqualTo(old.utime()).isLessThan(now.utime());
  }

  @Test
  void shouldNeverSetALoneProviderAside() {
    a.faults().rateLimit(1.0);
    ProviderPool pool = pool(provider(a));
    for (int i = 0; i < 3; i++) {
      assertThat(failureOf(pool.getMasterchainInfo())).isInstanceOf(RateLimitedException.class);
    }
    assertThat(pool.isSetAside("a")).isFalse();
    assertThat(calls("a", TonApiMetrics.ProviderOutcome.FAILED)).isEqualTo(3);
  }

  /**
   * Issue 27: a provider that lags behind answers every call, so no failure sets it aside; the lag
   * check does (more than 2 blocks behind the most advanced provider), reads go to the other one
   * meanwhile, and a later check that finds it caught up brings it back.
   */
  @Test
  void shouldSetALaggingProviderAsideUntilItCaughtUp() {
    pool = new ProviderPool(List.of(provider(a), provider(b)),
        new ProviderPool.Settings(2, SET_ASIDE, 2, Duration.ZERO), registry, poolClock);
    for (int i = 0; i < 4; i++) {
      block();
    }
    a.faults().lag(2);
    pool.checkLag();
    assertThat(pool.isSetAside("a")).as("2 blocks behind is within the limit").isFalse();

    a.faults().lag(3);
    pool.checkLag();

    assertThat(pool.isSetAside("a")).isTrue();
    assertThat(registry.get(TonApiMetrics.PROVIDER_LAG).tag("provider", "a").gauge().value()).isEqualTo(3);
    double bBefore = calls("b", TonApiMetrics.ProviderOutcome.OK);
    long head = pool.getMasterchainInfo().join().seqno();
    assertThat(head).as("answered by the node that is up to date").isEqualTo(devnet.masterchainSeqno());
    assertThat(calls("b", TonApiMetrics.ProviderOutcome.OK)).isEqualTo(bBefore + 1);
    poolClock.advance(SET_ASIDE.multipliedBy(2));
    pool.getMasterchainInfo().join();
    assertThat(pool.isSetAside("a")).as("no probe brings a lagging provider back: it would answer").isTrue();

    a.faults().lag(0);
    pool.checkLag();

    assertThat(pool.isSetAside("a")).as("caught up").isFalse();
    assertThat(registry.get(TonApiMetrics.PROVIDER_LAG).tag("provider", "a").gauge().value()).isZero();
    double aBefore = calls("a", TonApiMetrics.ProviderOutcome.OK);
    pool.getMasterchainInfo().join();
    assertThat(calls("a", TonApiMetrics.ProviderOutcome.OK)).as("the preferred provider in use again")
        .isEqualTo(aBefore + 1);
  }

  /** The pool runs the lag check by itself every lagCheckEvery. */
  @Test
  void shouldCheckForLagByItself() {
    for (int i = 0; i < 5; i++) {
      block();
    }
    a.faults().lag(4);
    pool = new ProviderPool(List.of(provider(a), provider(b)),
        new ProviderPool.Settings(2, SET_ASIDE, 2, Duration.ofMillis(100)), registry, poolClock);

    org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> pool.isSetAside("a"));
    a.faults().lag(0);
    org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !pool.isSetAside("a"));
  }
}
