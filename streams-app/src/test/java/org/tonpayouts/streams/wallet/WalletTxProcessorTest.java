package org.tonpayouts.streams.wallet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tonpayouts.streams.PayoutTestKit.FIRST_SUBWALLET;
import static org.tonpayouts.streams.PayoutTestKit.KEY;
import static org.tonpayouts.streams.PayoutTestKit.TON;
import static org.tonpayouts.streams.PayoutTestKit.awaitTransaction;
import static org.tonpayouts.streams.PayoutTestKit.json;
import static org.tonpayouts.streams.PayoutTestKit.recipient;
import static org.tonpayouts.streams.PayoutTestKit.request;
import static org.tonpayouts.streams.PayoutTestKit.text;
import static org.tonpayouts.streams.PayoutTestKit.transfer;
import static org.tonpayouts.streams.PayoutTestKit.verdictOf;
import static org.tonpayouts.streams.PayoutTestKit.expiryOf;
import static org.tonpayouts.streams.PayoutTestKit.SKEW;
import static org.tonpayouts.streams.PayoutTestKit.TTL;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import javax.sql.DataSource;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.StreamsProperties;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.ConfirmationStatus;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.Rejected;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.schemas.Submission;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.streams.StreamsApp;
import org.tonpayouts.streams.TestClock;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.ledger.LedgerRow;
import org.tonpayouts.streams.ledger.LedgerStatus;
import org.tonpayouts.streams.metrics.PayoutMetrics;
import org.tonpayouts.embedded.SharedTestInfrastructure;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.ChainTransaction;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;
import org.tonpayouts.ton.wallet.Subwallets;

/**
 * The wallet-tx processor in a TopologyTestDriver, against a real devnet and a real PostgreSQL
 * ledger. The test plays the chain poller: it looks each submitted message up on devnet and pipes
 * the verdict the poller would publish.
 */
class WalletTxProcessorTest {
  private static final Instant START = Instant.parse("2026-11-21T12:00:00Z");
  private static final Subwallets SUBWALLETS = new Subwallets(KEY, 0);

  private static Devnet devnet;
  private static TonApiClient api;
  private static DataSource database;

  private TopologyTestDriver driver;
  private StreamsApp.Wiring wiring;
  private Path stateDir;
  private TestInputTopic<String, byte[]> requests;
  private TestInputTopic<String, Confirmation> confirmations;
  private TestOutputTopic<String, Submission> submissions;
  private TestOutputTopic<String, Settlement> settlements;
  private TestOutputTopic<String, Rejected> rejected;
  private PayoutMetrics metrics;
  private Ledger ledger;
  private TestClock clock;

  /** One clock for devnet, the ledger and the processor: moving it moves the chain's time too. */
  private static final TestClock CLOCK = TestClock.systemPlusOffset();

  @BeforeAll
  static void startChainAndDatabase() {
    devnet = Devnet.builder().blockInterval(Duration.ofMillis(50)).clock(CLOCK).start();
    api = new TonApiClient(TonApiConfig.of(devnet.baseUrl()).withRequestsPerSecond(10_000));
    database = SharedTestInfrastructure.createDatabase(WalletTxProcessorTest.class);
    Ledger.migrate(database);
  }

  @AfterAll
  static void stopChain() {
    api.close();
    devnet.close();
  }

  @BeforeEach
  void startDriver() throws Exception {
    try (Connection c = database.getConnection(); Statement s = c.createStatement()) {
      s.execute("truncate ton_transactions, payout_transfers, payout_requests, audit_log");
    }
    devnet.faults().clear();
    stateDir = Files.createTempDirectory("wallet-tx-test");
    clock = CLOCK;
    ledger = new Ledger(database, clock, 3);
    openDriver();
  }

  private void openDriver() {
    PayoutsConfig config = org.tonpayouts.streams.PayoutTestKit.config(Map.of());
    metrics = PayoutMetrics.inMemory();
    Properties props = StreamsProperties.base(config, "wallet-tx-test");
    props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    wiring = StreamsApp.wire(config, KEY, api, ledger, clock, metrics);
    driver = new TopologyTestDriver(wiring.topology(), props, START);
    requests = driver.createInputTopic(Topics.PAYOUT_REQUESTS.name(), Serdes.String().serializer(),
        Serdes.ByteArray().serializer());
    confirmations = driver.createInputTopic(Topics.PAYOUT_CONFIRMATIONS.name(),
        Topics.PAYOUT_CONFIRMATIONS.keySerde().serializer(), Topics.PAYOUT_CONFIRMATIONS.valueSerde().serializer());
    submissions = driver.createOutputTopic(Topics.PAYOUT_SUBMISSIONS.name(),
        Topics.PAYOUT_SUBMISSIONS.keySerde().deserializer(), Topics.PAYOUT_SUBMISSIONS.valueSerde().deserializer());
    settlements = driver.createOutputTopic(Topics.PAYOUT_SETTLEMENTS.name(),
        Topics.PAYOUT_SETTLEMENTS.keySerde().deserializer(), Topics.PAYOUT_SETTLEMENTS.valueSerde().deserializer());
    rejected = driver.createOutputTopic(Topics.PAYOUT_REJECTED.name(), Topics.PAYOUT_REJECTED.keySerde().deserializer(),
        Topics.PAYOUT_REJECTED.valueSerde().deserializer());
  }

  @AfterEach
  void closeDriver() {
    driver.close();
    wiring.close();
  }

  private TonAddress fundedWallet(long subwalletId, long nano) {
    TonAddress wallet = SUBWALLETS.address(subwalletId);
    devnet.fund(wallet, nano);
    return wallet;
  }

  private void send(PayoutRequest request) {
    requests.pipeInput(Topics.walletKey(request.subwalletId()), json(request));
  }

  /**
   * Lets hand-overs run and come back: waits for the I/O threads, moves the driver's wall clock by
   * {@code by} (deferred wallets come due), waits again and drains the results.
   */
  private void step(Duration by) {
    awaitIo();
    driver.advanceWallClockTime(by);
    awaitIo();
    driver.advanceWallClockTime(Duration.ofMillis(5));
  }

  private void awaitIo() {
    try {
      assertThat(wiring.io().awaitIdle(Duration.ofSeconds(20))).as("the I/O threads finished their work").isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** One issuing round: ready wallets handed over and their outcomes applied. */
  private List<Submission> issue() {
    step(Duration.ofMillis(300));
    return submissions.readValuesToList();
  }

  /** Plays the poller for one submission: waits for its transaction on devnet and pipes the verdict. */
  private Confirmation confirm(Submission submission) {
    ChainTransaction tx = awaitTransaction(api, submission);
    Confirmation verdict = verdictOf(submission, tx);
    confirmations.pipeInput(Topics.walletKey(submission.subwalletId()), verdict);
    step(Duration.ofMillis(5));
    return verdict;
  }

  @Test
  void shouldPayOneWalletsTransfersOneAtATimeInArrivalOrder() {
    long id = FIRST_SUBWALLET;
    fundedWallet(id, 100 * TON);
    send(request("r1", id, transfer("payout", recipient(1), 2 * TON), transfer("fee", recipient(2), TON / 10)));
    send(request("r2", id, transfer("payout", recipient(3), 3 * TON)));
    send(request("r3", id, transfer("payout", recipient(4), 4 * TON)));

    List<String> order = new java.util.ArrayList<>();
    List<Long> seqnos = new java.util.ArrayList<>();
    for (int i = 0; i < 4; i++) {
      List<Submission> issued = issue();
      assertThat(issued).as("one message in flight per wallet").hasSize(1);
      assertThat(issue()).as("nothing more until the in-flight message is settled").isEmpty();
      Submission s = issued.get(0);
      order.add(s.requestId() + "/" + s.transferId());
      seqnos.add(s.seqno());
      confirm(s);
    }

    assertThat(order).containsExactly("r1/payout", "r1/fee", "r2/payout", "r3/payout");
    assertThat(seqnos).containsExactly(0L, 1L, 2L, 3L);
    List<Settlement> settled = settlements.readValuesToList();
    assertThat(settled).extracting(s -> s.requestId() + "/" + s.transferId() + "=" + s.status())
        .containsExactly("r1/payout=SETTLED", "r1/fee=SETTLED", "r2/payout=SETTLED", "r3/payout=SETTLED");
    assertThat(devnet.balance(recipient(1))).isEqualTo(2 * TON);
    assertThat(devnet.balance(recipient(4))).isEqualTo(4 * TON);
    assertThat(ledger.queries().attempts("r1", "payout")).singleElement()
        .satisfies(row -> assertThat(row.status()).isEqualTo(LedgerStatus.CONFIRMED));
    assertThat(issue()).isEmpty();
    assertThat(rejected.isEmpty()).isTrue();
  }

  @Test
  void shouldIssueReadyWalletsInOneRound() {
    for (int w = 0; w < 5; w++) {
      fundedWallet(FIRST_SUBWALLET + 10 + w, 10 * TON);
      send(request("multi-" + w, FIRST_SUBWALLET + 10 + w, transfer("t", recipient(20 + w), TON)));
    }

    List<Submission> issued = issue();

    assertThat(issued).hasSize(5).extracting(Submission::subwalletId).doesNotHaveDuplicates();
    assertThat(metrics.count("ton.api.seqno_reads")).isEqualTo(5);
  }

  @Test
  void shouldAbortTheRestOfARequestWhenATransferFailsOnChain() {
    long id = FIRST_SUBWALLET + 20;
    // The balance covers the amount (no fee reserve in these tests) but not the amount and the
    // fees together: the wallet accepts the message and, with mode 3, skips the send.
    fundedWallet(id, 2 * TON + 1_600_000L);
    send(request("poor", id, transfer("big", recipient(30), 2 * TON), transfer("fee", recipient(31), TON / 100)));
    send(request("after", id, transfer("small", recipient(32), TON / 1000)));

    Submission first = issue().get(0);
    Confirmation verdict = confirm(first);

    assertThat(verdict.status()).as("devnet skipped the unaffordable send").isEqualTo(ConfirmationStatus.FAILED);
    assertThat(settlements.readValuesToList())
        .extracting(s -> s.transferId() + "=" + s.status())
        .containsExactly("big=FAILED", "fee=ABORTED");
    devnet.fund(SUBWALLETS.address(id), TON);
    Submission next = issue().get(0);
    assertThat(next.requestId()).isEqualTo("after");
    assertThat(next.seqno()).as("the failed transfer consumed its seqno").isEqualTo(first.seqno() + 1);
    assertThat(ledger.queries().findByMessageHash(first.messageHash())).get()
        .extracting(LedgerRow::status).isEqualTo(LedgerStatus.FAILED);
    assertThat(ledger.queries().transfersOf("poor")).extracting(t -> t.transferId() + "=" + t.status())
        .containsExactly("big=FAILED", "fee=ABORTED");
  }

  @Test
  void shouldFailATransferTheWalletCannotPayBeforeSigningIt() {
    long id = FIRST_SUBWALLET + 25;
    fundedWallet(id, TON);
    send(request("too-big", id, transfer("big", recipient(33), 50 * TON), transfer("fee", recipient(34), TON / 100)));
    send(request("fits", id, transfer("small", recipient(35), TON / 10)));

    List<Submission> issued = issue();

    assertThat(settlements.readValuesToList()).extracting(s -> s.transferId() + "=" + s.status())
        .containsExactly("big=FAILED", "fee=ABORTED");
    assertThat(ledger.queries().transfer("too-big", "big")).get().satisfies(t -> {
      assertThat(t.reason()).contains("insufficient balance").contains("holds " + TON).contains(50 * TON + " + 0");
      assertThat(t.attempts()).as("nothing was signed").isZero();
    });
    assertThat(ledger.queries().attempts("too-big", "big")).isEmpty();
    if (issued.isEmpty()) {
      issued = issue();
    }
    assertThat(issued).singleElement().satisfies(s -> assertThat(s.requestId()).isEqualTo("fits"));
    assertThat(metrics.count("ton.tx.refused_before_signing")).isEqualTo(1);
  }

  @Test
  void shouldNeverSignWithAStaleSeqnoRead() {
    long id = FIRST_SUBWALLET + 30;
    fundedWallet(id, 10 * TON);
    send(request("s1", id, transfer("t", recipient(40), TON)));
    send(request("s2", id, transfer("t", recipient(41), TON)));
    Submission first = issue().get(0);

    // A lagging API node: the next two reads report the wallet as it was before s1 applied. The
    // verdict on s1 makes the wallet ready and hands it over at once: that round reads stale.
    devnet.faults().staleReadNext(1_000, 2);
    confirm(first);
    assertThat(issue()).as("stale again: nothing signed").isEmpty();
    assertThat(metrics.count("ton.tx.stale_seqno_reads")).isEqualTo(2);
    assertThat(ledger.queries().attempts("s2", "t")).isEmpty();

    Submission second = issue().get(0);
    assertThat(second.requestId()).isEqualTo("s2");
    assertThat(second.seqno()).isEqualTo(first.seqno() + 1);
  }

  @Test
  void shouldIgnoreADuplicateRequestId() {
    long id = FIRST_SUBWALLET + 40;
    fundedWallet(id, 10 * TON);
    PayoutRequest once = request("dup", id, transfer("t", recipient(50), TON));
    send(once);
    send(once);

    Submission s = issue().get(0);
    confirm(s);

    assertThat(issue()).isEmpty();
    assertThat(settlements.readValuesToList()).hasSize(1);
    assertThat(metrics.count("payout.requests.duplicate")).isEqualTo(1);
    assertThat(devnet.balance(recipient(50))).isEqualTo(TON);
  }

  @Test
  void shouldResumeTheLedgersMessageInsteadOfSigningANewOneAfterLosingState() throws Exception {
    long id = FIRST_SUBWALLET + 50;
    fundedWallet(id, 10 * TON);
    PayoutRequest request = request("crash", id, transfer("t", recipient(60), TON));
    send(request);
    Submission before = issue().get(0);

    // A crash before the Kafka commit: the ledger kept the sent message, the state store did not.
    driver.close();
    wiring.close();
    stateDir = Files.createTempDirectory("wallet-tx-test-after-crash");
    openDriver();
    send(request);
    Submission after = issue().get(0);

    assertThat(after.messageHash()).as("the same message, re-sent, not a new one").isEqualTo(before.messageHash());
    assertThat(ledger.queries().attempts("crash", "t")).hasSize(1);
    confirm(after);
    assertThat(settlements.readValuesToList()).singleElement()
        .satisfies(s -> assertThat(s.status()).isEqualTo(SettlementStatus.SETTLED));
    assertThat(devnet.balance(recipient(60))).as("paid once").isEqualTo(TON);
  }

  @Test
  void shouldSignTheRetryWithTheSameSeqnoOnlyOnceTheNodeProvesTheExpiry() {
    long id = FIRST_SUBWALLET + 60;
    fundedWallet(id, 10 * TON);
    devnet.faults().dropNext(1);
    send(request("lost", id, transfer("t", recipient(70), TON)));
    Submission dropped = issue().get(0);

    assertThat(issue()).as("no second message while the first may still apply").isEmpty();
    clock.advance(TTL.plus(SKEW).plusSeconds(1));
    await("a block past valid_until").atMost(Duration.ofSeconds(5)).until(() ->
        api.getWalletSnapshot(SUBWALLETS.address(id)).join().syncUtime() >= dropped.validUntil() + SKEW.toSeconds());
    confirmations.pipeInput(Topics.walletKey(id), expiryOf(api, dropped));
    step(Duration.ofMillis(5));
    Submission retry = issue().get(0);

    assertThat(retry.attempt()).isEqualTo(2);
    assertThat(retry.seqno()).as("one seqno per transfer").isEqualTo(dropped.seqno());
    assertThat(retry.messageHash()).isNotEqualTo(dropped.messageHash());
    assertThat(retry.transferHashes()).containsExactly(dropped.messageHash(), retry.messageHash());
    confirm(retry);
    assertThat(ledger.queries().attempts("lost", "t")).extracting(LedgerRow::status)
        .containsExactly(LedgerStatus.EXPIRED, LedgerStatus.CONFIRMED);
    assertThat(devnet.balance(recipient(70))).isEqualTo(TON);
  }

  @Test
  void shouldRejectARequestIdReusedWithOtherContentAndNameTheDifferences() {
    long id = FIRST_SUBWALLET + 65;
    fundedWallet(id, 10 * TON);
    send(request("reused", id, transfer("t", recipient(75), TON)));
    send(request("reused", id, transfer("t", recipient(76), 2 * TON)));

    List<Rejected> refused = rejected.readValuesToList();
    assertThat(refused).singleElement().satisfies(r -> {
      assertThat(r.reason()).contains("requestId 'reused' was already accepted with other content")
          .contains("transfers[0].destination").contains("transfers[0].amountNano: 1000000000 -> 2000000000");
      assertThat(r.originalKey()).isEqualTo(Topics.walletKey(id));
    });
    assertThat(metrics.count("payout.requests.conflict")).isEqualTo(1);
    confirm(issue().get(0));
    assertThat(devnet.balance(recipient(75))).isEqualTo(TON);
    assertThat(issue()).isEmpty();
  }

  /** The address with its last character changed: still base64, wrong checksum. */
  private static String mistyped(String address) {
    char last = address.charAt(address.length() - 1);
    return address.substring(0, address.length() - 1) + (last == 'A' ? 'B' : 'A');
  }

  @Test
  void shouldRejectBadInputAndKeepPaying() {
    long id = FIRST_SUBWALLET + 70;
    fundedWallet(id, 10 * TON);
    requests.pipeInput(Topics.walletKey(id), new byte[] {(byte) 0xff, 0x00, 0x13});
    requests.pipeInput(Topics.walletKey(id), text("{\"requestId\":\"x\"}"));
    requests.pipeInput("not-the-wallet", json(request("wrong-key", id, transfer("t", recipient(80), TON))));
    requests.pipeInput(Topics.walletKey(id), json(request("bad-address", id,
        new org.tonpayouts.schemas.TransferRequest("t", org.tonpayouts.schemas.TransferKind.PAYOUT,
            mistyped(recipient(83).toFriendly(true, false)), TON, null, null))));
    requests.pipeInput(Topics.walletKey(4_000_000_000L),
        json(request("out-of-range", 4_000_000_000L, transfer("t", recipient(81), TON))));
    send(request("good", id, transfer("t", recipient(82), TON)));

    List<Rejected> refused = rejected.readValuesToList();
    assertThat(refused).hasSize(5);
    assertThat(refused.get(0).payloadBase64()).isTrue();
    assertThat(refused.get(1).reason()).contains("$");
    assertThat(refused.get(2).reason()).contains("record key 'not-the-wallet'");
    assertThat(refused.get(3).reason()).contains("$.transfers[0].destination").contains("checksum");
    assertThat(refused.get(4).reason()).contains("outside the allowed range");
    assertThat(refused).allSatisfy(r -> assertThat(r.sourceTopic()).isEqualTo(Topics.PAYOUT_REQUESTS.name()));
    Submission good = issue().get(0);
    assertThat(good.requestId()).isEqualTo("good");
  }

}
