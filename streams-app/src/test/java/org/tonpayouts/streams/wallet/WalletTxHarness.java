package org.tonpayouts.streams.wallet;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import javax.sql.DataSource;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.devnet.ManualClock;
import org.tonpayouts.embedded.SharedTestInfrastructure;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.StreamsProperties;
import org.tonpayouts.runtime.trust.VerdictKeys;
import org.tonpayouts.runtime.trust.VerdictSigner;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.ConfirmationStatus;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.Rejected;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.schemas.Submission;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.streams.PayoutTestKit;
import org.tonpayouts.streams.StreamsApp;
import org.tonpayouts.streams.ledger.EmptyLedger;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.metrics.PayoutMetrics;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.ChainMessage;
import org.tonpayouts.ton.api.ChainTransaction;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;
import org.tonpayouts.ton.wallet.Subwallets;

/**
 * streams-app's topology in a TopologyTestDriver against a real devnet whose blocks the test
 * builds ({@link #block()}) on a clock the test moves, and a real PostgreSQL ledger. The test
 * plays the chain poller with verdicts read from devnet ({@link #verdict}, {@link #expiry}), or,
 * on purpose, with a verdict a lying node would give.
 */
final class WalletTxHarness implements AutoCloseable {
  static final Instant START = Instant.parse("2026-11-21T12:00:00Z");
  static final Subwallets SUBWALLETS = new Subwallets(PayoutTestKit.KEY, 0);

  /** The chain's time (devnet's blocks) and, unless {@link #appClock} says otherwise, streams-app's. */
  final ManualClock clock;
  /** streams-app's own clock (processor and ledger). */
  Clock appClock;
  final Devnet devnet;
  final TonApiClient api;
  final DataSource database;
  final Map<String, Object> overrides;
  Ledger ledger;
  PayoutsConfig config;
  PayoutMetrics metrics;
  TopologyTestDriver driver;
  StreamsApp.Wiring wiring;
  TestInputTopic<String, byte[]> requests;
  TestInputTopic<String, Confirmation> confirmations;
  TestOutputTopic<String, Submission> submissions;
  TestOutputTopic<String, Settlement> settlements;
  TestOutputTopic<String, Rejected> rejected;
  private Path stateDir;

  /** A chain that makes a block only when the test calls {@link #block()}, on a clock standing at {@link #START}. */
  WalletTxHarness(Class<?> testClass, Map<String, Object> overrides) throws Exception {
    this(testClass, overrides, ManualClock.fixedAt(START), Duration.ZERO);
  }

  /**
   * A chain that makes a block every 50 ms on the system clock (moved forward by
   * {@link #advance}): messages apply on their own, as on a live network.
   */
  static WalletTxHarness onRunningChain(Class<?> testClass) throws Exception {
    return new WalletTxHarness(testClass, Map.of(), ManualClock.systemPlusOffset(), Duration.ofMillis(50));
  }

  private WalletTxHarness(Class<?> testClass, Map<String, Object> overrides, ManualClock clock, Duration blockInterval)
      throws Exception {
    this.overrides = new java.util.HashMap<>(overrides);
    this.clock = clock;
    this.appClock = clock;
    devnet = Devnet.builder().blockInterval(blockInterval).clock(clock).start();
    api = new TonApiClient(TonApiConfig.of(devnet.baseUrl()).withRequestsPerSecond(10_000));
    database = SharedTestInfrastructure.createDatabase(testClass);
    Ledger.migrate(database);
    EmptyLedger.empty(database);
    open(Files.createTempDirectory("wallet-tx-harness"));
  }

  /** A fresh processor on {@code state} (the old one's directory: a restart; a new one: lost state). */
  void open(Path state) {
    this.stateDir = state;
    config = PayoutTestKit.config(overrides);
    ledger = new Ledger(database, appClock, config.maxAttempts(), config.clockSkewMargin(), config.spendCaps());
    metrics = PayoutMetrics.inMemory();
    Properties props = StreamsProperties.base(config, "wallet-tx-harness");
    props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    wiring = StreamsApp.wire(config, PayoutTestKit.KEY, api, ledger, appClock, metrics);
    driver = new TopologyTestDriver(wiring.topology(), props, START);
    requests = driver.createInputTopic(Topics.PAYOUT_REQUESTS.name(), Serdes.String().serializer(),
        Serdes.ByteArray().serializer());
    // as chain-poller writes them: signed with the deployment's verdict key
    confirmations = driver.createInputTopic(Topics.PAYOUT_CONFIRMATIONS.name(),
        Topics.PAYOUT_CONFIRMATIONS.keySerde().serializer(), new VerdictSigner(VerdictKeys.from(config)));
    submissions = driver.createOutputTopic(Topics.PAYOUT_SUBMISSIONS.name(),
        Topics.PAYOUT_SUBMISSIONS.keySerde().deserializer(), Topics.PAYOUT_SUBMISSIONS.valueSerde().deserializer());
    settlements = driver.createOutputTopic(Topics.PAYOUT_SETTLEMENTS.name(),
        Topics.PAYOUT_SETTLEMENTS.keySerde().deserializer(), Topics.PAYOUT_SETTLEMENTS.valueSerde().deserializer());
    rejected = driver.createOutputTopic(Topics.PAYOUT_REJECTED.name(), Topics.PAYOUT_REJECTED.keySerde().deserializer(),
        Topics.PAYOUT_REJECTED.valueSerde().deserializer());
  }

  /**
   * Another streams-app instance of the same application on the same ledger and chain, with its
   * own state: its task takes the partition (a newer epoch) when it starts.
   */
  StreamsApp.Wiring otherInstance(PayoutMetrics instanceMetrics) {
    return StreamsApp.wire(config, PayoutTestKit.KEY, api, ledger, appClock, instanceMetrics);
  }

  TopologyTestDriver driverOf(StreamsApp.Wiring instance, Path state) {
    Properties props = StreamsProperties.base(config, "wallet-tx-harness");
    props.put(StreamsConfig.STATE_DIR_CONFIG, state.toString());
    return new TopologyTestDriver(instance.topology(), props, START);
  }

  /** Restarts streams-app on its state with its clock {@code offset} away from the chain's. */
  void skewAppClock(Duration offset) {
    stop();
    appClock = ManualClock.following(clock, offset);
    open(stateDir);
  }

  /** Restarts streams-app on its state with {@code more} configuration (e.g. a jetton deployed on devnet). */
  void reconfigure(Map<String, Object> more) {
    stop();
    overrides.putAll(more);
    open(stateDir);
  }

  /** Stops the processor as a crash would (nothing more is committed) and starts a new one with empty state. */
  void restartWithLostState() throws Exception {
    stop();
    open(Files.createTempDirectory("wallet-tx-harness-lost"));
  }

  TonAddress fund(long subwalletId, long nano) {
    TonAddress wallet = SUBWALLETS.address(subwalletId);
    devnet.fund(wallet, nano);
    return wallet;
  }

  void send(PayoutRequest request) {
    requests.pipeInput(Topics.walletKey(request.subwalletId()), PayoutTestKit.json(request));
  }

  private void stop() {
    driver.close();
    wiring.close();
  }

  /**
   * Lets the processor's hand-overs run and their results come back: waits for the I/O threads,
   * then moves the driver's wall clock by {@code by} (deferred wallets come due, the watchdog
   * runs), waits again and drains what came back.
   */
  void step(Duration by) {
    awaitIo();
    driver.advanceWallClockTime(by);
    awaitIo();
    driver.advanceWallClockTime(Duration.ofMillis(5));
  }

  private void awaitIo() {
    assertThat(PayoutTestKit.awaitIdle(wiring.io()::idle, Duration.ofSeconds(20))).as("the I/O threads finished their work")
        .isTrue();
  }

  /** One issuing round (ready wallets handed over, results applied); the submissions it published. */
  List<Submission> issue() {
    step(Duration.ofMillis(300));
    return submissions.readValuesToList();
  }

  /** Exactly one submission from the next round. */
  Submission issueOne() {
    List<Submission> issued = issue();
    assertThat(issued).hasSize(1);
    return issued.get(0);
  }

  /** The next block on devnet, at the clock's time. */
  void block() {
    devnet.produceBlock();
  }

  void advance(Duration by) {
    clock.advance(by);
  }

  /** Pipes a verdict and lets the ledger record it and the processor apply it. */
  void pipe(Confirmation verdict) {
    confirmations.pipeInput(Topics.walletKey(verdict.subwalletId()), verdict);
    step(Duration.ofMillis(5));
  }

  /** Plays the poller on a running chain: waits for the transfer's transaction and pipes its verdict. */
  Confirmation confirm(Submission s) {
    Confirmation verdict = PayoutTestKit.verdictOf(s, PayoutTestKit.awaitTransaction(api, s));
    pipe(verdict);
    return verdict;
  }

  /** The poller's CONFIRMED/FAILED for the transfer, from devnet's transactions. */
  Confirmation verdict(Submission s) {
    ChainTransaction tx = PayoutTestKit.transactionOf(api, s);
    assertThat(tx).as("a transaction carrying one of %s", s.transferHashes()).isNotNull();
    return PayoutTestKit.verdictOf(s, tx);
  }

  /** The poller's EXPIRED for the transfer, proven by devnet's own time and seqno. */
  Confirmation expiry(Submission s) {
    return PayoutTestKit.expiryOf(api, s);
  }

  /** Moves the chain past the message's valid_until + margin and proves its expiry. */
  Confirmation expireOnChain(Submission s) {
    advance(PayoutTestKit.TTL.plus(PayoutTestKit.SKEW).plusSeconds(1));
    block();
    return expiry(s);
  }

  /** The poller's BOUNCED for a confirmed payout, from the bounced message devnet delivered back. */
  Confirmation bounce(Submission s, Confirmation confirmed) {
    TonAddress wallet = TonAddress.parse(s.walletAddress());
    TonAddress destination = TonAddress.parse(s.destination());
    for (ChainTransaction tx : api.getTransactions(wallet, 50, null, null).join()) {
      ChainMessage in = tx.inMsg();
      if (tx.id().lt() > confirmed.lt() && in != null && destination.equals(in.source()) && in.isBounce()) {
        return Confirmation.of(s.requestId(), s.transferId(), s.subwalletId(), confirmed.messageHash(), s.seqno(),
            ConfirmationStatus.BOUNCED, tx.id().hash(), tx.id().lt(), tx.utime(), tx.fee(),
            "the payout bounced back from " + s.destination(), clock.instant(), null, in.value());
      }
    }
    throw new AssertionError("no bounce from " + s.destination() + " after lt " + confirmed.lt());
  }

  /** Every outgoing payout the wallet made to {@code to}, by amount, read from devnet's chain. */
  List<Long> paymentsTo(TonAddress wallet, TonAddress to) {
    List<Long> amounts = new ArrayList<>();
    for (ChainTransaction tx : api.getTransactions(wallet, 100, null, null).join()) {
      for (ChainMessage out : tx.outMsgs()) {
        if (to.equals(out.destination())) {
          amounts.add(out.value());
        }
      }
    }
    return amounts;
  }

  @Override
  public void close() {
    stop();
    api.close();
    devnet.close();
  }
}
