package org.tonpayouts.poller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tonpayouts.poller.Wallets.ALICE;
import static org.tonpayouts.poller.Wallets.BOB;
import static org.tonpayouts.poller.Wallets.TON;
import static org.tonpayouts.poller.Wallets.send;
import static org.tonpayouts.poller.Wallets.submission;
import static org.tonpayouts.poller.Wallets.transactionOf;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.devnet.ManualClock;
import org.tonpayouts.devnet.chain.DevnetTransaction;
import org.tonpayouts.devnet.chain.Fees;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.StreamsProperties;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.ConfirmationStatus;
import org.tonpayouts.schemas.JsonSerde;
import org.tonpayouts.schemas.Submission;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;
import org.tonpayouts.ton.wallet.SignedTransfer;

/**
 * The chain poller's topology against a real devnet over HTTP with real signed messages. Devnet
 * builds blocks only when a test says so and shares the test's clock, so every round is
 * deterministic: {@link #round()} = one new block, then one wall-clock punctuation.
 */
class WatchListTopologyTest {
  private static final Instant START = PollerDriver.START;
  private static final Duration SKEW = PollerDriver.SKEW;
  private static final Duration MARGIN = PollerDriver.MARGIN;
  private static final Duration TTL = PollerDriver.TTL;
  private static final String APP_ID = PollerDriver.APP_ID;
  private static final PollerSettings SETTINGS = PollerDriver.SETTINGS;

  @TempDir
  Path stateDir;

  private PollerDriver poller;
  private ManualClock clock;
  private Wallets wallets;
  private Devnet devnet;
  private TonApiClient api;
  private PollerMetrics metrics;
  private TopologyTestDriver driver;
  private TestOutputTopic<String, Confirmation> confirmations;

  @BeforeEach
  void setUp() {
    poller = new PollerDriver(stateDir);
    clock = poller.clock;
    wallets = poller.wallets;
    devnet = poller.devnet;
    api = poller.api;
    started();
  }

  @AfterEach
  void tearDown() {
    poller.close();
  }

  /** Takes the new poller process's parts. */
  private void started() {
    metrics = poller.metrics;
    driver = poller.driver;
    confirmations = poller.confirmations;
  }

  private void startDriver(Clock pollerClock) {
    startDriver(pollerClock, SETTINGS);
  }

  private void startDriver(Clock pollerClock, PollerSettings settings) {
    poller.start(pollerClock, settings);
    started();
  }

  private void round() {
    poller.round();
  }

  private void idleRound() {
    poller.idleRound();
  }

  private void watch(Submission s) {
    poller.watch(s);
  }

  private SignedTransfer sendBounceable(long subwallet, int filler, String comment) {
    return poller.sendBounceable(subwallet, filler, comment);
  }

  private SignedTransfer sign(long subwallet, long seqno, TonAddress to, long amount) {
    return poller.sign(subwallet, seqno, to, amount);
  }

  private void deploy(long subwallet) {
    poller.deploy(subwallet);
  }

  private KeyValueStore<String, WatchedWallet> store() {
    return poller.store();
  }

  @Test
  void shouldConfirmASentMessageWithItsTransaction() {
    long sub = 1001;
    devnet.fund(wallets.address(sub), 5 * TON);
    SignedTransfer t = sign(sub, 0, BOB, 2 * TON);
    send(api, t);
    watch(submission(t, "req-confirm", clock.instant()));

    round();

    TestRecord<String, Confirmation> out = confirmations.readRecord();
    DevnetTransaction tx = transactionOf(devnet, wallets.address(sub), t.messageHash()).orElseThrow();
    Confirmation c = out.value();
    assertThat(out.key()).isEqualTo("1001");
    assertThat(c.status()).isEqualTo(ConfirmationStatus.CONFIRMED);
    assertThat(c.requestId()).isEqualTo("req-confirm");
    assertThat(c.transferId()).isEqualTo("req-confirm-t0");
    assertThat(c.messageHash()).isEqualTo(t.messageHash());
    assertThat(c.seqno()).isZero();
    assertThat(c.txHash()).isEqualTo(tx.hash());
    assertThat(c.lt()).isEqualTo(tx.lt());
    assertThat(c.utime()).isEqualTo(tx.utime());
    assertThat(c.feeNano()).isEqualTo(tx.totalFee()).isPositive();
    assertThat(c.reason()).isNull();
    assertThat(c.observedAt()).isEqualTo(clock.instant());
    assertThat(store().get("1001").pending()).isEmpty();

    round();
    assertThat(confirmations.isEmpty()).isTrue();
  }

  @Test
  void shouldSignEveryVerdictSoStreamsAppCanTellItFromAnIntrudersRecord() {
    long sub = 1002;
    devnet.fund(wallets.address(sub), 5 * TON);
    SignedTransfer t = sign(sub, 0, BOB, TON);
    send(api, t);
    watch(submission(t, "req-signed", clock.instant()));

    round();

    TestRecord<String, byte[]> out = driver.createOutputTopic(Topics.PAYOUT_CONFIRMATIONS.name(),
        Serdes.String().deserializer(), Serdes.ByteArray().deserializer()).readRecord();
    org.apache.kafka.common.header.Header mac = out.headers().lastHeader(
        org.tonpayouts.runtime.trust.VerdictKeys.HEADER);
    assertThat(mac).as("the verdict's MAC header").isNotNull();
    byte[] value = out.value();
    assertThat(new String(value, java.nio.charset.StandardCharsets.UTF_8)).contains("req-signed", "CONFIRMED");
    assertThat(PollerDriver.VERDICT_KEYS.verify(Topics.PAYOUT_CONFIRMATIONS.name(), value,
        new String(mac.value(), java.nio.charset.StandardCharsets.US_ASCII))).contains("test");
    assertThat(PollerDriver.VERDICT_KEYS.verify(Topics.PAYOUT_SETTLEMENTS.name(), value,
        new String(mac.value(), java.nio.charset.StandardCharsets.US_ASCII))).as("bound to its topic").isEmpty();
  }

  @Test
  void shouldReportABounceOfAConfirmedBounceablePayoutAndStopWatchingAfterTheWindow() {
    long sub = 1040;
    SignedTransfer t = sendBounceable(sub, 9, null);
    watch(submission(t, "req-bounce", clock.instant()));

    round();

    List<Confirmation> verdicts = confirmations.readValuesToList();
    assertThat(verdicts).extracting(Confirmation::status)
        .containsExactly(ConfirmationStatus.CONFIRMED, ConfirmationStatus.BOUNCED);
    Confirmation bounce = verdicts.get(1);
    DevnetTransaction back = devnet.transactions(wallets.address(sub)).stream()
        .filter(tx -> !tx.inMsg().external()).reduce((a, b) -> b).orElseThrow();
    assertThat(bounce.txHash()).isEqualTo(back.hash());
    assertThat(bounce.messageHash()).isEqualTo(t.messageHash());
    assertThat(bounce.returnedNano()).isEqualTo(back.inMsg().value()).isLessThan(2 * TON);
    assertThat(bounce.reason()).contains("bounced back");

    clock.advance(SETTINGS.bounceWindow());
    round();
    assertThat(confirmations.isEmpty()).isTrue();
    assertThat(store().get("1040") == null || !store().get("1040").needsPolling()).isTrue();
  }

  @Test
  void shouldReportFailedWhenTheWalletCannotAffordTheSend() {
    long sub = 1002;
    // enough for the compute fee only: the wallet accepts the message, consumes the seqno and skips the mode-3 send
    devnet.fund(wallets.address(sub), Fees.COMPUTE_FEE + 100_000);
    SignedTransfer t = sign(sub, 0, BOB, TON);
    send(api, t);
    watch(submission(t, "req-poor", clock.instant()));

    round(); // the transaction sent nothing: only a state that has seen it can tell skipped from aborted
    assertThat(confirmations.isEmpty()).isTrue();
    assertThat(metrics.apiCalls("getAddressInformation")).isZero();
    round();

    Confirmation c = confirmations.readValue();
    DevnetTransaction tx = transactionOf(devnet, wallets.address(sub), t.messageHash()).orElseThrow();
    assertThat(tx.outMsgs()).isEmpty();
    assertThat(devnet.seqno(wallets.address(sub))).isEqualTo(1);
    assertThat(c.status()).isEqualTo(ConfirmationStatus.FAILED);
    assertThat(c.txHash()).isEqualTo(tx.hash());
    assertThat(c.lt()).isEqualTo(tx.lt());
    assertThat(c.reason()).contains("sent nothing").contains("seqno 0 consumed");
    assertThat(confirmations.isEmpty()).isTrue();
  }

  @Test
  void shouldExpireAMessageThatWasNeverSentOnlyAfterValidUntilPlusMargin() {
    long sub = 1003;
    devnet.fund(wallets.address(sub), 5 * TON);
    SignedTransfer t = sign(sub, 0, BOB, TON);
    watch(submission(t, "req-unsent", clock.instant()));

    round();
    clock.advance(TTL.plus(SKEW).minusSeconds(1)); // one second short of valid_until + margin
    round();
    assertThat(confirmations.isEmpty()).isTrue();
    assertThat(metrics.apiCalls("getAddressInformation")).isZero();

    clock.advance(Duration.ofSeconds(1));
    round();

    Confirmation c = confirmations.readValue();
    assertThat(c.status()).isEqualTo(ConfirmationStatus.EXPIRED);
    assertThat(c.messageHash()).isEqualTo(t.messageHash());
    assertThat(c.txHash()).isNull();
    assertThat(c.evidenceUtime()).as("devnet's own block time").isEqualTo(clock.instant().getEpochSecond());
    assertThat(c.reason()).contains("valid_until " + t.validUntil()).contains("wallet seqno at 0 <= 0");
    assertThat(metrics.apiCalls("getAddressInformation")).isEqualTo(1);
    round();
    assertThat(confirmations.isEmpty()).isTrue();
  }

  @Test
  void shouldExpireAMessageDevnetSilentlyDropped() {
    long sub = 1004;
    deploy(sub);
    devnet.faults().dropNext(1);
    SignedTransfer t = sign(sub, 1, BOB, TON);
    send(api, t); // answered ok, never reaches the mempool
    watch(submission(t, "req-dropped", clock.instant()));
    round();
    assertThat(confirmations.isEmpty()).isTrue();

    clock.advance(TTL.plus(SKEW));
    round();

    Confirmation c = confirmations.readValue();
    assertThat(c.status()).isEqualTo(ConfirmationStatus.EXPIRED);
    assertThat(c.seqno()).isEqualTo(1);
    assertThat(c.reason()).contains("wallet seqno at 1 <= 1");
    assertThat(devnet.faults().counts().dropped()).isEqualTo(1);
  }

  @Test
  void shouldConfirmRatherThanExpireWhenTheMessageAppliedWhileOurClockRunsAhead() {
    driver.close();
    ManualClock aheadOfChain = ManualClock.fixedAt(START.plus(TTL).plus(SKEW).plusSeconds(30));
    startDriver(aheadOfChain);
    long sub = 1005;
    devnet.fund(wallets.address(sub), 5 * TON);
    SignedTransfer t = sign(sub, 0, BOB, TON);
    send(api, t);
    watch(submission(t, "req-late", clock.instant()));

    round();

    Confirmation c = confirmations.readValue();
    assertThat(c.status()).isEqualTo(ConfirmationStatus.CONFIRMED);
    assertThat(c.txHash()).isEqualTo(transactionOf(devnet, wallets.address(sub), t.messageHash()).orElseThrow().hash());
    assertThat(metrics.verdicts(ConfirmationStatus.EXPIRED)).isZero();
  }

  @Test
  void shouldRecoverTheTransactionByDestinationAndAmountWhenAForeignMessageConsumedTheSeqno() {
    long sub = 1006;
    deploy(sub);
    SignedTransfer ours = sign(sub, 1, BOB, 3 * TON);
    watch(submission(ours, "req-foreign-same", clock.instant()));
    // someone else sends the same payout under seqno 1: our message can never apply
    devnet.foreignTransfer(wallets.address(sub), BOB, 3 * TON, null);
    round();
    assertThat(confirmations.isEmpty()).isTrue();

    clock.advance(TTL.plus(SKEW));
    round(); // state read: seqno 2 > 1, and no transaction carries our hash: rescan the window before concluding
    assertThat(confirmations.isEmpty()).isTrue();
    assertThat(metrics.verdicts(ConfirmationStatus.EXPIRED)).isZero();

    round();

    Confirmation c = confirmations.readValue();
    DevnetTransaction foreign = devnet.transactions(wallets.address(sub)).stream()
        .filter(tx -> tx.outMsgs().stream().anyMatch(m -> m.destination().equals(BOB))).findFirst().orElseThrow();
    assertThat(c.status()).isEqualTo(ConfirmationStatus.CONFIRMED);
    assertThat(c.messageHash()).as("the foreign message that applied: the ledger claims nothing for it")
        .isNotEqualTo(ours.messageHash()).isEqualTo(foreign.inMsg().hash());
    assertThat(c.txHash()).isEqualTo(foreign.hash());
    assertThat(c.lt()).isEqualTo(foreign.lt());
    assertThat(confirmations.isEmpty()).isTrue();
  }

  @Test
  void shouldRequireReconciliationWhenAForeignMessageConsumedTheSeqnoForSomethingElse() {
    long sub = 1007;
    deploy(sub);
    SignedTransfer ours = sign(sub, 1, BOB, 3 * TON);
    watch(submission(ours, "req-foreign-other", clock.instant()));
    devnet.foreignTransfer(wallets.address(sub), BOB, TON, null); // another amount
    round();
    clock.advance(TTL.plus(SKEW));
    round();
    assertThat(confirmations.isEmpty()).isTrue();

    round();

    Confirmation c = confirmations.readValue();
    assertThat(c.status()).isEqualTo(ConfirmationStatus.RECONCILIATION_REQUIRED);
    assertThat(c.txHash()).isNull();
    assertThat(c.reason()).contains("seqno moved to 2 past the transfer's seqno 1").contains("0 outgoing messages");
    assertThat(confirmations.isEmpty()).isTrue();
  }

  @Test
  void shouldNeverExpireOnAStaleStateWhateverOurClockSays() {
    long sub = 1008;
    deploy(sub);
    SignedTransfer ours = sign(sub, 1, BOB, 3 * TON);
    watch(submission(ours, "req-stale", clock.instant()));
    devnet.foreignTransfer(wallets.address(sub), ALICE, TON, null);
    devnet.produceBlock(); // the foreign transaction consumes seqno 1
    clock.advance(TTL.plus(SKEW));
    // the next state read answers as of before the foreign transaction: seqno 1, as if ours could
    // still apply; our clock is past valid_until + margin, the stale node's own time is not
    devnet.faults().staleReadNext(2, 1);

    round();

    assertThat(confirmations.isEmpty()).isTrue();
    assertThat(metrics.apiCalls("getAddressInformation")).isEqualTo(1);
    round(); // fresh read: seqno 2
    round(); // rescan: no hash, no destination+amount match
    Confirmation c = confirmations.readValue();
    assertThat(c.status()).isEqualTo(ConfirmationStatus.RECONCILIATION_REQUIRED);
    assertThat(metrics.verdicts(ConfirmationStatus.EXPIRED)).isZero();
  }

  @Test
  void shouldWatchADuplicatedSubmissionOnceAndSayItsVerdictAgainWhenItComesBack() {
    long sub = 1009;
    devnet.fund(wallets.address(sub), 5 * TON);
    SignedTransfer t = sign(sub, 0, BOB, TON);
    send(api, t);
    Submission s = submission(t, "req-dup", clock.instant());
    watch(s);
    watch(s); // streams-app re-emits after resuming from a crash
    assertThat(store().get("1009").pending()).hasSize(1);

    round();
    Confirmation first = confirmations.readValue();
    double transactionReads = metrics.apiCalls("getTransactions");
    watch(s); // once more after the verdict: streams-app lost or refused it, it must not wait forever
    round();

    assertThat(confirmations.readValuesToList()).singleElement().satisfies(c -> {
      assertThat(c.status()).isEqualTo(ConfirmationStatus.CONFIRMED);
      assertThat(c.txHash()).isEqualTo(first.txHash());
    });
    assertThat(metrics.apiCalls("getTransactions")).as("said from memory").isEqualTo(transactionReads);
  }

  @Test
  void shouldMergeANewAttemptIntoItsTransfer() {
    long sub = 1010;
    devnet.fund(wallets.address(sub), 5 * TON);
    SignedTransfer first = sign(sub, 0, BOB, TON);
    watch(submission(first, "req-retry", clock.instant()));
    clock.advance(Duration.ofSeconds(1));
    SignedTransfer second = sign(sub, 0, BOB, TON); // same seqno, another valid_until: another hash
    watch(submission(second, "req-retry", clock.instant()));

    assertThat(store().get("1010").pending()).singleElement().satisfies(t -> {
      assertThat(t.hashes()).containsExactly(first.messageHash(), second.messageHash());
      assertThat(t.validUntil()).isEqualTo(second.validUntil());
    });
    send(api, first); // the older attempt applies: it settles the transfer
    round();
    assertThat(confirmations.readValue().messageHash()).isEqualTo(first.messageHash());
  }

  @Test
  void shouldPollEachWalletOncePerRoundWhateverItsPendingCount() {
    long busy = 1011;
    long quiet = 1012;
    devnet.fund(wallets.address(busy), 5 * TON);
    devnet.fund(wallets.address(quiet), 5 * TON);
    for (int i = 0; i < 3; i++) {
      watch(submission(sign(busy, 0, BOB, TON + i), "req-busy-" + i, clock.instant()));
    }
    watch(submission(sign(quiet, 0, BOB, TON), "req-quiet", clock.instant()));
    long requestsBefore = api.requestsSent();

    round();

    assertThat(metrics.apiCalls("getTransactions")).isEqualTo(2);
    assertThat(metrics.apiCalls("getMasterchainInfo")).isEqualTo(1);
    assertThat(api.requestsSent() - requestsBefore).isEqualTo(3);

    idleRound(); // no new block: only the masterchain is read
    assertThat(metrics.apiCalls("getTransactions")).isEqualTo(2);
    assertThat(metrics.apiCalls("getMasterchainInfo")).isEqualTo(2);

    round();
    assertThat(metrics.apiCalls("getTransactions")).isEqualTo(4);
    assertThat(confirmations.isEmpty()).isTrue();
  }

  @Test
  void shouldMakeNoApiCallWhileNothingIsWatched() {
    round();
    round();
    assertThat(api.requestsSent()).isZero();
  }

  @Test
  void shouldFindAMessageThatAppliedBeforeItsSubmissionArrivedEvenPastTheCursor() {
    long sub = 1013;
    deploy(sub); // the wallet has a cursor now, and keeps its entry for the remembered verdict
    SignedTransfer t = sign(sub, 1, BOB, TON);
    send(api, t);
    devnet.produceBlock(); // applied before the submission reaches the poller
    SignedTransfer other = sign(sub, 2, BOB, 2 * TON);
    watch(submission(other, "req-other", clock.instant())); // a pending message makes the next round scan
    round(); // the cursor moves past t's transaction while t is not watched yet
    watch(submission(t, "req-before", clock.instant().minusSeconds(1)));

    round();

    Confirmation c = confirmations.readValue();
    assertThat(c.requestId()).isEqualTo("req-before");
    assertThat(c.status()).isEqualTo(ConfirmationStatus.CONFIRMED);
    assertThat(c.txHash()).isEqualTo(transactionOf(devnet, wallets.address(sub), t.messageHash()).orElseThrow().hash());
  }

  @Test
  void shouldResumeWatchingFromItsChangelogAfterARestart() {
    long sub = 1014;
    devnet.fund(wallets.address(sub), 5 * TON);
    SignedTransfer t = sign(sub, 0, BOB, TON);
    watch(submission(t, "req-restart", clock.instant()));
    round();
    assertThat(confirmations.isEmpty()).isTrue();
    List<KeyValue<String, WatchedWallet>> changelog = driver.createOutputTopic(
            APP_ID + "-" + ChainPollerTopology.WATCHED_WALLETS_STORE + "-changelog",
            Serdes.String().deserializer(), JsonSerde.of(WatchedWallet.class).deserializer())
        .readKeyValuesToList();
    assertThat(changelog).isNotEmpty();

    // a new process: fresh processor and store, rebuilt from the changelog as Kafka Streams restores it
    driver.close();
    startDriver(clock);
    KeyValueStore<String, WatchedWallet> restored = store();
    for (KeyValue<String, WatchedWallet> kv : changelog) {
      if (kv.value == null) {
        restored.delete(kv.key);
      } else {
        restored.put(kv.key, kv.value);
      }
    }
    send(api, t);
    round();

    Confirmation c = confirmations.readValue();
    assertThat(c.status()).isEqualTo(ConfirmationStatus.CONFIRMED);
    assertThat(c.requestId()).isEqualTo("req-restart");
  }

  @Test
  void shouldPublishVerdictsOfSeveralWalletsFromOneRound() {
    List<SignedTransfer> sent = new ArrayList<>();
    for (long sub = 1020; sub < 1025; sub++) {
      devnet.fund(wallets.address(sub), 5 * TON);
      SignedTransfer t = sign(sub, 0, BOB, TON);
      send(api, t);
      watch(submission(t, "req-many-" + sub, clock.instant()));
      sent.add(t);
    }

    round();

    assertThat(confirmations.readValuesToList())
        .extracting(Confirmation::messageHash)
        .containsExactlyInAnyOrderElementsOf(sent.stream().map(SignedTransfer::messageHash).toList());
    assertThat(metrics.apiCalls("getTransactions")).isEqualTo(5);
  }

  @Test
  void shouldFailLoudlyOnAnUnreadableSubmission() {
    long sub = 1030;
    devnet.fund(wallets.address(sub), 5 * TON);
    SignedTransfer t = sign(sub, 0, BOB, TON);
    send(api, t);
    TestInputTopic<String, byte[]> raw = driver.createInputTopic(Topics.PAYOUT_SUBMISSIONS.name(),
        Serdes.String().serializer(), Serdes.ByteArray().serializer());
    // payout.submissions is written by streams-app only: an unreadable record is a bug, and skipping
    // it would silently drop a watch-list entry and wedge a wallet
    assertThatThrownBy(() -> raw.pipeInput("1030",
        "{\"schemaVersion\":1,\"requestId\":".getBytes(java.nio.charset.StandardCharsets.UTF_8)))
        .isInstanceOf(StreamsException.class)
        .hasStackTraceContaining("Deserialization exception handler is set to fail");
  }

  /**
   * The same topology reading the chain block by block: verdicts from the block feed, scans only
   * where the feed cannot vouch for every transaction a transfer could have.
   */
  @Nested
  class WithTheBlockFeed {
    private static final long WATCHER = 1100;
    /** The feed started at or before this moment. */
    private Instant feedStartedBy;

    @BeforeEach
    void startWithTheFeed() {
      driver.close();
      startDriver(clock, SETTINGS.withFeedRetention(Duration.ofMinutes(1)));
      // a first watched wallet starts the feed; its own transfer predates it, so it is scanned
      deploy(WATCHER);
      feedStartedBy = clock.instant();
      assertThat(metrics.walletsObserved("scan")).isPositive();
      // from now on, transfers are submitted after the feed started (beyond any margin)
      clock.advance(SKEW.plusSeconds(2));
    }

    private double scans() {
      return metrics.apiCalls("getTransactions");
    }

    @Test
    void shouldConfirmFromTheBlockWithoutReadingTheWallet() {
      long sub = 1101;
      devnet.fund(wallets.address(sub), 5 * TON);
      SignedTransfer t = sign(sub, 0, BOB, 2 * TON);
      send(api, t);
      watch(submission(t, "req-feed", clock.instant()));
      double before = scans();

      round();

      Confirmation c = confirmations.readValue();
      assertThat(c.status()).isEqualTo(ConfirmationStatus.CONFIRMED);
      assertThat(c.messageHash()).isEqualTo(t.messageHash());
      assertThat(c.txHash()).isEqualTo(transactionOf(devnet, wallets.address(sub), t.messageHash()).orElseThrow().hash());
      assertThat(scans()).as("no getTransactions for a wallet the feed covers").isEqualTo(before);
      assertThat(metrics.apiCalls("getBlockTransactionsExt")).isPositive();
      assertThat(metrics.walletsObserved("feed")).isPositive();
    }

    @Test
    void shouldFindATransactionWhoseBlockWasReadBeforeItsSubmissionArrivedWithoutWaitingForTheNextBlock() {
      long busy = 1105;
      devnet.fund(wallets.address(busy), 5 * TON);
      watch(submission(sign(busy, 0, BOB, TON), "req-pending", clock.instant())); // keeps rounds going
      long sub = 1106;
      devnet.fund(wallets.address(sub), 5 * TON);
      SignedTransfer t = sign(sub, 0, ALICE, TON);
      send(api, t);
      round(); // the feed reads the block applying t before t's submission reaches the poller
      assertThat(confirmations.isEmpty()).isTrue();
      long height = devnet.masterchainSeqno();
      double before = scans();

      watch(submission(t, "req-after-its-block", clock.instant().minusSeconds(1)));
      idleRound(); // a tick, no new block

      assertThat(devnet.masterchainSeqno()).isEqualTo(height);
      assertThat(confirmations.readValue()).satisfies(c -> {
        assertThat(c.status()).isEqualTo(ConfirmationStatus.CONFIRMED);
        assertThat(c.requestId()).isEqualTo("req-after-its-block");
      });
      assertThat(scans()).isEqualTo(before);
    }

    @Test
    void shouldLeaveASubmissionTheFeedHasNotSeenForTheNextBlock() {
      long sub = 1107;
      devnet.fund(wallets.address(sub), 5 * TON);
      SignedTransfer t = sign(sub, 0, ALICE, TON);
      send(api, t); // in the mempool: no block applied it yet
      watch(submission(t, "req-not-yet", clock.instant()));

      idleRound();
      idleRound();

      assertThat(confirmations.isEmpty()).as("nothing concluded from a feed that has not seen the message").isTrue();
      round();
      assertThat(confirmations.readValue().status()).isEqualTo(ConfirmationStatus.CONFIRMED);
    }

    @Test
    void shouldReportABounceFromTheBlocksItKeeps() {
      SignedTransfer t = sendBounceable(1108, 8, "comment");
      watch(submission(t, "req-feed-bounce", clock.instant()));
      double before = scans();

      round();
      round();

      assertThat(confirmations.readValuesToList()).extracting(Confirmation::status)
          .containsExactly(ConfirmationStatus.CONFIRMED, ConfirmationStatus.BOUNCED);
      assertThat(scans()).as("found in the feed's blocks, without bodies but the bounce's").isEqualTo(before);
    }

    @Test
    void shouldReadEveryBlockMadeBetweenTwoRounds() {
      long sub = 1104;
      devnet.fund(wallets.address(sub), 5 * TON);
      SignedTransfer t = sign(sub, 0, BOB, TON);
      send(api, t);
      watch(submission(t, "req-behind", clock.instant()));
      devnet.produceBlock(); // applies t
      devnet.produceBlock();
      double before = scans();

      round();

      assertThat(confirmations.readValue().status()).isEqualTo(ConfirmationStatus.CONFIRMED);
      assertThat(scans()).isEqualTo(before);
    }

    @Test
    void shouldScanATransferFromBeforeTheFeedStarted() {
      // first submitted before the feed's coverage began: its transaction may sit in a block the feed never read
      double scansInRound = confirmOneTransferRecordedAt(1105, "req-old", clock.instant().minus(SKEW).minusSeconds(30));

      assertThat(scansInRound).as("scanned on its own").isPositive();
    }

    @Test
    void shouldVouchForATransferRecordedAfterTheFeedStartedLessTheHostsClockMargin() {
      // recorded 3 s after the feed started: within the node's clock-skew margin (10 s), which has no
      // part here, and beyond the margin between streams-app's clock and the poller's (2 s)
      double scansInRound = confirmOneTransferRecordedAt(1107, "req-margin", feedStartedBy.plus(MARGIN).plusSeconds(1));

      assertThat(scansInRound).as("the feed vouches: no getTransactions").isZero();
    }

    @Test
    void shouldScanATransferRecordedWithinTheHostsClockMarginOfTheFeedStart() {
      // recorded a second before the feed started, by a clock that may be up to MARGIN ahead of ours
      double scansInRound = confirmOneTransferRecordedAt(1108, "req-edge", feedStartedBy.minusSeconds(1));

      assertThat(scansInRound).as("scanned on its own").isPositive();
    }

    /**
     * Sends a funded wallet's first transfer, watches it as first recorded at {@code recordedAt},
     * runs a round that must confirm it and returns the getTransactions calls of that round.
     */
    private double confirmOneTransferRecordedAt(long sub, String requestId, Instant recordedAt) {
      devnet.fund(wallets.address(sub), 5 * TON);
      SignedTransfer t = sign(sub, 0, BOB, TON);
      send(api, t);
      watch(submission(t, requestId, recordedAt));
      double before = scans();

      round();

      assertThat(confirmations.readValue().status()).isEqualTo(ConfirmationStatus.CONFIRMED);
      return scans() - before;
    }

    @Test
    void shouldStartAgainAfterAGapAndScanWhatItCannotVouchFor() {
      long sub = 1106;
      devnet.fund(wallets.address(sub), 5 * TON);
      SignedTransfer t = sign(sub, 0, BOB, TON);
      send(api, t);
      watch(submission(t, "req-gap", clock.instant()));
      // more blocks than the feed catches up on: it restarts from the tops, and t's block is behind them
      for (int i = 0; i <= BlockFeed.MAX_BLOCKS_BEHIND + 1; i++) {
        devnet.produceBlock();
      }
      double before = scans();

      idleRound();

      assertThat(confirmations.readValue().status()).isEqualTo(ConfirmationStatus.CONFIRMED);
      assertThat(scans()).as("t is from before the restart: scanned").isGreaterThan(before);
    }

    /**
     * A provider without {@code getBlockTransactionsExt} (404): the feed stands down for a while
     * instead of failing at every block with a warning each, the wallets are scanned meanwhile, and
     * the feed tries again once the stand-down is over.
     */
    @Test
    void shouldStandDownWhileTheProviderDoesNotServeBlockReadsAndScanTheWalletsMeanwhile() {
      devnet.faults().withhold(Set.of("getBlockTransactionsExt"));
      long sub = 1109;
      devnet.fund(wallets.address(sub), 5 * TON);
      SignedTransfer t = sign(sub, 0, BOB, TON);
      send(api, t);
      watch(submission(t, "req-no-feed", clock.instant()));
      double before = scans();

      round();
      round();

      assertThat(confirmations.readValue().status()).isEqualTo(ConfirmationStatus.CONFIRMED);
      assertThat(scans()).as("scanned while the feed stands down").isGreaterThan(before);
      assertThat(metrics.count(PollerMetrics.FEED_STAND_DOWNS)).isEqualTo(1);
      double blockReads = metrics.apiCalls("getBlockTransactionsExt");
      for (int i = 0; i < 3; i++) {
        devnet.produceBlock();
        round();
      }
      assertThat(metrics.apiCalls("getBlockTransactionsExt")).as("not asked again at every block").isEqualTo(blockReads);

      devnet.faults().withhold(Set.of());
      clock.advance(BlockFeed.STAND_DOWN);
      SignedTransfer next = sign(sub, 1, ALICE, TON);
      watch(submission(next, "req-feed-back", clock.instant())); // rounds run while something is watched
      round(); // the feed starts again from the tops
      send(api, next); // a block with a transaction to read
      round();

      assertThat(metrics.apiCalls("getBlockTransactionsExt")).as("tried again after the stand-down")
          .isGreaterThan(blockReads);
      assertThat(metrics.count(PollerMetrics.FEED_STAND_DOWNS)).isEqualTo(1);
    }
  }
}
