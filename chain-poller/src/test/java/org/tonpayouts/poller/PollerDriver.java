package org.tonpayouts.poller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tonpayouts.poller.Wallets.ALICE;
import static org.tonpayouts.poller.Wallets.TON;
import static org.tonpayouts.poller.Wallets.send;
import static org.tonpayouts.poller.Wallets.submission;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.devnet.ManualClock;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.StreamsProperties;
import org.tonpayouts.runtime.trust.VerdictKeys;
import org.tonpayouts.runtime.wakeup.StreamThreads;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.ConfirmationStatus;
import org.tonpayouts.schemas.Submission;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;
import org.tonpayouts.ton.wallet.SignedTransfer;
import org.tonpayouts.ton.wallet.TransferOrder;

/**
 * The chain poller's topology in a TopologyTestDriver against a real devnet over HTTP with real
 * signed messages. Devnet builds blocks only when a test says so and shares the test's clock, so
 * every round is deterministic: {@link #round()} = one new block, then one wall-clock punctuation.
 */
final class PollerDriver implements AutoCloseable {
  static final Instant START = Instant.parse("2026-05-01T12:00:00Z");
  static final Duration INTERVAL = Duration.ofMillis(100);
  static final Duration SKEW = Duration.ofSeconds(10);
  /** How far streams-app's clock may be from the poller's (poller.feed.clock.margin.ms). */
  static final Duration MARGIN = Duration.ofSeconds(2);
  static final Duration TTL = Duration.ofSeconds(60);
  static final String APP_ID = "poller-test";
  /** The verdict keys the tests' poller signs with (verdict.mac.keys); a test-only key. */
  static final VerdictKeys VERDICT_KEYS = VerdictKeys.parse("test:" + "5e".repeat(32), "the tests' verdict keys");
  static final PollerSettings SETTINGS = new PollerSettings(INTERVAL, SKEW, Duration.ofSeconds(5), 1_000,
      Duration.ofMinutes(10), PollerSettings.DEFAULT_PAGE_SIZE, PollerSettings.DEFAULT_MAX_PAGES, Duration.ofSeconds(30),
      Duration.ZERO, MARGIN);

  final ManualClock clock = ManualClock.fixedAt(START);
  final Wallets wallets = new Wallets();
  final Devnet devnet;
  final TonApiClient api;
  private final Path stateDir;
  private final Rounds rounds = new Rounds();
  PollerMetrics metrics;
  TopologyTestDriver driver;
  TestInputTopic<String, Submission> submissions;
  TestOutputTopic<String, Confirmation> confirmations;

  /** A devnet that builds blocks only on {@link #round()}, and a poller on {@link #SETTINGS}. */
  PollerDriver(Path stateDir) {
    this.stateDir = stateDir;
    devnet = Devnet.builder().blockInterval(Duration.ZERO).clock(clock).start();
    api = new TonApiClient(TonApiConfig.of(devnet.baseUrl()).withRequestsPerSecond(10_000));
    start(clock, SETTINGS);
  }

  /** Follows the processor's rounds, so a test can step the driver until a round has ended. */
  private static final class Rounds implements WatchListProcessor.RoundListener {
    private final Semaphore queued = new Semaphore(0);
    private volatile boolean started;
    private volatile boolean ended;

    @Override
    public void roundStarted() {
      started = true;
    }

    @Override
    public void stepQueued() {
      queued.release();
    }

    @Override
    public void roundEnded() {
      ended = true;
    }
  }

  /** A new poller process (fresh processor and stores) on {@code pollerClock} and {@code settings}. */
  void start(Clock pollerClock, PollerSettings settings) {
    metrics = PollerMetrics.inMemory();
    driver = new TopologyTestDriver(ChainPollerTopology.build(api, pollerClock, settings, metrics,
        StreamThreads.none(), VERDICT_KEYS, rounds), props(),
        START);
    submissions = driver.createInputTopic(Topics.PAYOUT_SUBMISSIONS.name(),
        Topics.PAYOUT_SUBMISSIONS.keySerde().serializer(), Topics.PAYOUT_SUBMISSIONS.valueSerde().serializer());
    confirmations = driver.createOutputTopic(Topics.PAYOUT_CONFIRMATIONS.name(),
        Topics.PAYOUT_CONFIRMATIONS.keySerde().deserializer(), Topics.PAYOUT_CONFIRMATIONS.valueSerde().deserializer());
  }

  /** Stops this poller process and starts another on {@code settings}, on the test's clock. */
  void restart(PollerSettings settings) {
    driver.close();
    start(clock, settings);
  }

  private Properties props() {
    PayoutsConfig config = PayoutsConfig.load(Optional.empty(), Map.of(
        PayoutsConfig.envName(PayoutsConfig.STREAMS_STATE_DIR_CONFIG), stateDir.toString()));
    Properties props = StreamsProperties.base(config, APP_ID);
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    return props;
  }

  /** A new block on devnet, then one poll round. */
  void round() {
    devnet.produceBlock();
    idleRound();
  }

  /**
   * One poll tick, and, if it started a round, the round to its end: each time its calls come
   * back (on the HTTP threads), a short advance lets the stream thread apply them.
   */
  void idleRound() {
    rounds.started = false;
    rounds.ended = false;
    driver.advanceWallClockTime(INTERVAL);
    while (rounds.started && !rounds.ended) {
      try {
        assertThat(rounds.queued.tryAcquire(10, TimeUnit.SECONDS)).as("the round's calls came back").isTrue();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
      driver.advanceWallClockTime(Duration.ofMillis(2));
    }
  }

  void watch(Submission s) {
    submissions.pipeInput(Topics.walletKey(s.subwalletId()), s, clock.instant());
  }

  SignedTransfer sign(long subwallet, long seqno, TonAddress to, long amount) {
    return wallets.sign(subwallet, seqno, clock.instant().plus(TTL), to, amount);
  }

  /** A message paying {@code amount} to {@code to} with a bounceable internal message carrying {@code comment}. */
  SignedTransfer signBounceable(long subwallet, long seqno, TonAddress to, long amount, String comment) {
    return wallets.signer.sign(subwallet, seqno, clock.instant().plus(TTL),
        List.of(new TransferOrder(to, amount, comment, true)));
  }

  /**
   * A bounceable payout of 2 TON from {@code subwallet} (funded here) to an address of {@code
   * filler} bytes that nobody funded, so it cannot take the message: sent, it bounces.
   */
  SignedTransfer sendBounceable(long subwallet, int filler, String comment) {
    devnet.fund(wallets.address(subwallet), 5 * TON);
    SignedTransfer t = signBounceable(subwallet, 0, nobody(filler), 2 * TON, comment);
    send(api, t);
    return t;
  }

  /** An address of {@code filler} bytes that nobody funded: it cannot take a bounceable message. */
  static TonAddress nobody(int filler) {
    byte[] hash = new byte[32];
    java.util.Arrays.fill(hash, (byte) filler);
    return TonAddress.of(0, hash);
  }

  /** Deploys {@code subwallet} with its seqno-0 message and consumes that message's confirmation. */
  void deploy(long subwallet) {
    devnet.fund(wallets.address(subwallet), 5 * TON);
    SignedTransfer first = sign(subwallet, 0, ALICE, TON / 10);
    send(api, first);
    watch(submission(first, "deploy-" + subwallet, clock.instant()));
    round();
    assertThat(confirmations.readValue().status()).isEqualTo(ConfirmationStatus.CONFIRMED);
  }

  KeyValueStore<String, WatchedWallet> store() {
    return driver.getKeyValueStore(ChainPollerTopology.WATCHED_WALLETS_STORE);
  }

  @Override
  public void close() {
    if (driver != null) {
      driver.close();
    }
    api.close();
    devnet.close();
  }
}
