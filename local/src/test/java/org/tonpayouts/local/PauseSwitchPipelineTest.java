package org.tonpayouts.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.embedded.EmbeddedKafkaBroker;
import org.tonpayouts.embedded.EmbeddedPostgresServer;
import org.tonpayouts.embedded.SharedTestInfrastructure;
import org.tonpayouts.local.audit.ExpectedTransfer;
import org.tonpayouts.local.audit.TransferRef;
import org.tonpayouts.local.measure.ObservedSettlement;
import org.tonpayouts.local.measure.PayoutLoad;
import org.tonpayouts.local.measure.SettlementWatcher;
import org.tonpayouts.local.stack.PipelineTopics;
import org.tonpayouts.local.stack.RunKey;
import org.tonpayouts.local.stack.WalletSet;
import org.tonpayouts.poller.ChainPoller;
import org.tonpayouts.poller.PollerMetrics;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.schemas.TransferKind;
import org.tonpayouts.streams.StreamsApp;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.LedgerStatus;
import org.tonpayouts.streams.ledger.sql.TransferStatus;
import org.tonpayouts.streams.metrics.PayoutMetrics;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;
import org.tonpayouts.ton.wallet.Subwallets;

/**
 * The pause switch end to end (issue 25), on the in-process broker, the embedded PostgreSQL ledger
 * and devnet, with streams-app and chain-poller in this JVM: one transfer per wallet is in flight
 * (its first send dropped by devnet, so it waits for its re-send) when an operator pauses the
 * deployment. The in-flight transfers settle (the same BOC re-sent); the requests produced meanwhile
 * are accepted and queue, but nothing new is signed, neither before nor after a restart of
 * streams-app: the ledger records no intent and devnet sees no new transaction from the wallets.
 * Once resumed, everything settles once, with consecutive seqnos and exact balances.
 *
 * <p>The restarted streams-app runs under a deployment spend cap with room for exactly the queued
 * transfers: one more request then crosses it and is held (listed as a hold, no intent, nothing on
 * chain), and settles once an operator releases it, paid once.
 */
class PauseSwitchPipelineTest {
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final int WALLETS = 3;
  private static final long AMOUNT = 10_000_000L;
  /** The restarted app's deployment cap: the queued transfers fit (2 per wallet), one more does not. */
  private static final long DEPLOYMENT_CAP = 2 * WALLETS * AMOUNT + AMOUNT / 2;

  @TempDir
  Path tmp;

  @Test
  void shouldStopSigningAcrossARestartWhileInFlightTransfersSettleThenPayEverythingOnceAndHoldWhatCrossesACap()
      throws Exception {
    // a broker of its own: the shared one's payout topics are read from the start by the pipeline
    // tests that follow, which would take this run's requests for their own subwallets
    try (EmbeddedKafkaBroker kafka = EmbeddedKafkaBroker.start()) {
      run(kafka.bootstrapServers());
    }
  }

  private void run(String bootstrap) throws Exception {
    EmbeddedPostgresServer postgres = SharedTestInfrastructure.postgres();
    String database = SharedTestInfrastructure.databaseName(PauseSwitchPipelineTest.class);
    postgres.createDatabase(database);
    RunKey key = RunKey.random();
    WalletSet wallets = new WalletSet(new Subwallets(key.key(), 0), Subwallets.DEFAULT_SUBWALLET_ID, WALLETS, 10);
    String runId = SharedTestInfrastructure.uniqueName("pause");

    try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
        Devnet devnet = Devnet.builder().blockInterval(Duration.ofMillis(100)).start();
        TonApiClient api = new TonApiClient(TonApiConfig.of(devnet.baseUrl()).withRequestsPerSecond(100_000));
        HikariDataSource ledgerDb = Ledger.pooledDataSource(postgres.jdbcUrl(database), postgres.user(),
            postgres.password(), 4)) {
      PipelineTopics.create(admin, bootstrap, 3);
      wallets.subwalletIds().forEach(id -> devnet.fund(wallets.address(id), 100_000_000_000L));
      PayoutsConfig config = config(bootstrap, runId, devnet.baseUrl().toString(), postgres.jdbcUrl(database),
          postgres.user());
      Ledger ledger = new Ledger(ledgerDb, Clock.systemUTC());
      PayoutLoad inFlight = load(wallets, runId + "-flight", 1, 0);
      PayoutLoad queued = load(wallets, runId + "-queued", 2, 1);
      PayoutLoad overCap = overCap(wallets, runId + "-over-cap");
      List<TransferRef> all = new ArrayList<>(refs(inFlight));
      all.addAll(refs(queued));
      List<TransferRef> watched = new ArrayList<>(all);
      watched.addAll(refs(overCap));

      PayoutMetrics firstMetrics = PayoutMetrics.inMemory();
      StreamsApp app = new StreamsApp(config, key.key(), api, ledgerDb, Clock.systemUTC(), firstMetrics);
      boolean firstClosed = false;
      try (TonApiClient pollerApi = new TonApiClient(config.tonApi());
          ChainPoller poller = new ChainPoller(config, pollerApi, Clock.systemUTC(), PollerMetrics.inMemory(),
              new Properties());
          SettlementWatcher watcher = SettlementWatcher.fromNow(bootstrap, Clock.systemUTC(), watched)) {
        app.start();
        poller.start();
        await("both apps running").atMost(DEADLINE).until(() -> app.streams().state() == KafkaStreams.State.RUNNING
            && poller.streams().state() == KafkaStreams.State.RUNNING);

        // one transfer per wallet signed and recorded, its first send lost: in flight until re-sent
        devnet.faults().dropNext(WALLETS);
        inFlight.produce(bootstrap);
        await("in-flight transfers recorded").atMost(DEADLINE).pollInterval(Duration.ofMillis(20))
            .until(() -> refs(inFlight).stream().allMatch(r -> !ledger.queries().attempts(r.requestId(),
                r.transferId()).isEmpty()));
        ledger.pauses().pause(null, "alice", "INC-42: investigating a drain");
        assertThat(refs(inFlight)).as("in flight when paused").allSatisfy(r -> assertThat(
            ledger.queries().transfer(r.requestId(), r.transferId()).orElseThrow().status()).isEqualTo(TransferStatus.OPEN));

        queued.produce(bootstrap);
        await("in-flight transfers settled while paused").atMost(DEADLINE).pollInterval(Duration.ofMillis(100))
            .until(() -> watcher.settledCount(refs(inFlight)) == WALLETS);
        await("queued requests held by the pause").atMost(DEADLINE)
            .until(() -> heldByPause(firstMetrics) >= queued.requestCount());
        assertNothingNewSigned(ledger, devnet, wallets, queued);

        // a restart of streams-app: the pause is in the ledger, not in its memory
        app.close();
        firstClosed = true;
        PayoutMetrics restartedMetrics = PayoutMetrics.inMemory();
        StreamsApp restarted = new StreamsApp(capped(config), key.key(), api, ledgerDb, Clock.systemUTC(),
            restartedMetrics);
        try (restarted) {
          restarted.start();
          await("restarted streams-app running").atMost(DEADLINE)
              .until(() -> restarted.streams().state() == KafkaStreams.State.RUNNING);
          await("the restarted app holds the queued requests").atMost(DEADLINE)
              .until(() -> heldByPause(restartedMetrics) >= WALLETS);
          assertThat(gauge(restartedMetrics, "payout.paused.deployment")).isEqualTo(1.0);
          assertNothingNewSigned(ledger, devnet, wallets, queued);

          ledger.pauses().resume(null, "bob", "INC-42 closed: no drain");
          await("every transfer settled").atMost(DEADLINE).pollInterval(Duration.ofMillis(100))
              .until(() -> watcher.settledCount(all) == all.size());
          await("no second settlement").during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5))
              .until(() -> watcher.duplicateCount(all) == 0);
          await("the gauge follows the resume").atMost(DEADLINE)
              .until(() -> gauge(restartedMetrics, "payout.paused.deployment") == 0.0);
          verifyEachPaidOnce(ledger, devnet, wallets, watcher, inFlight, queued);

          holdOverTheCapUntilReleased(bootstrap, ledger, devnet, wallets, watcher, restartedMetrics, overCap);
        }
      } finally {
        if (!firstClosed) {
          app.close();
        }
      }
    }
  }

  private PayoutsConfig config(String bootstrap, String runId, String tonApi, String jdbcUrl, String user)
      throws Exception {
    // the dropped first sends are re-sent after 2 s: the window in which the pause is set
    return OutagePipeline.config(tmp, bootstrap, runId, tonApi, jdbcUrl, user, Map.of(
        PayoutsConfig.TRANSFER_RESEND_AFTER_MS_CONFIG, "2000",
        PayoutsConfig.PAUSE_REFRESH_MS_CONFIG, "100"));
  }

  /** The config with a deployment spend cap the queued transfers fill, re-checked often. */
  private static PayoutsConfig capped(PayoutsConfig config) {
    Map<String, Object> values = new HashMap<>(config.originals());
    values.put(PayoutsConfig.SPEND_CAP_DEPLOYMENT_CONFIG, "1h:" + DEPLOYMENT_CAP);
    values.put(PayoutsConfig.SPEND_CAP_RECHECK_MS_CONFIG, "100");
    return new PayoutsConfig(values);
  }

  /** One request of the first wallet that the deployment cap, once the queued transfers filled it, holds. */
  private static PayoutLoad overCap(WalletSet wallets, String prefix) {
    long subwallet = wallets.subwalletIds().get(0);
    PayoutLoad.Builder b = new PayoutLoad.Builder(false, Instant.now());
    b.add(prefix + "-0", subwallet, List.of(new PayoutLoad.Leg("payout", TransferKind.PAYOUT,
        wallets.recipient(wallets.recipientCount() - 1), AMOUNT)));
    return b.build();
  }

  /**
   * The request over the cap is held: a hold names it, no intent is recorded, its wallet's seqno
   * stays; an operator's release lets it settle, paid once, with its wallet's next seqno.
   */
  private static void holdOverTheCapUntilReleased(String bootstrap, Ledger ledger, Devnet devnet, WalletSet wallets,
      SettlementWatcher watcher, PayoutMetrics metrics, PayoutLoad overCap) throws Exception {
    TransferRef ref = refs(overCap).get(0);
    ExpectedTransfer expected = overCap.expected().get(0);
    long receivedBefore = devnet.balance(expected.destination());
    overCap.produce(bootstrap);
    await("the transfer over the deployment cap held").atMost(DEADLINE)
        .until(() -> ledger.holds().waiting(10).stream().anyMatch(h -> h.requestId().equals(ref.requestId())));
    await("and retried, still held").atMost(DEADLINE)
        .until(() -> metrics.count("payout.issuing.held_by_cap") >= 2);
    assertThat(ledger.holds().find(ref.requestId(), ref.transferId()).orElseThrow().capScope()).isEqualTo("DEPLOYMENT");
    assertThat(ledger.queries().attempts(ref.requestId(), ref.transferId())).as("nothing signed while held").isEmpty();
    assertThat(devnet.seqno(wallets.address(expected.subwalletId()))).isEqualTo(3);

    assertThat(ledger.holds().release(ref.requestId(), ref.transferId(),
        org.tonpayouts.streams.ledger.audit.Actor.named("carol"), "INC-44 approved"))
        .isInstanceOf(org.tonpayouts.streams.ledger.caps.HoldRelease.Released.class);
    await("the released transfer settled").atMost(DEADLINE).pollInterval(Duration.ofMillis(100))
        .until(() -> watcher.settledCount(List.of(ref)) == 1);
    await("no second settlement").during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5))
        .until(() -> watcher.duplicateCount(List.of(ref)) == 0);
    assertThat(watcher.settlements(ref)).singleElement()
        .satisfies(s -> assertThat(s.settlement().status()).isEqualTo(SettlementStatus.SETTLED));
    assertThat(ledger.queries().attempts(ref.requestId(), ref.transferId())).singleElement()
        .satisfies(r -> assertThat(r.seqno()).isEqualTo(3));
    assertThat(devnet.balance(expected.destination()) - receivedBefore).as("paid once").isEqualTo(AMOUNT);
    assertThat(ledger.holds().waiting(10)).isEmpty();
  }

  /** {@code perWallet} one-transfer requests per wallet, each to its own recipient. */
  private static PayoutLoad load(WalletSet wallets, String prefix, int perWallet, int recipientOffset) {
    PayoutLoad.Builder b = new PayoutLoad.Builder(false, Instant.now());
    int n = 0;
    for (int round = 0; round < perWallet; round++) {
      for (long subwallet : wallets.subwalletIds()) {
        b.add(prefix + "-" + n, subwallet, List.of(new PayoutLoad.Leg("payout", TransferKind.PAYOUT,
            wallets.recipient((recipientOffset * WALLETS + n) % wallets.recipientCount()), AMOUNT)));
        n++;
      }
    }
    return b.build();
  }

  private static List<TransferRef> refs(PayoutLoad load) {
    return load.expected().stream().map(ExpectedTransfer::ref).toList();
  }

  private static double heldByPause(PayoutMetrics metrics) {
    return metrics.registry().find("payout.issuing.held_by_pause").counter().count();
  }

  private static double gauge(PayoutMetrics metrics, String name) {
    return metrics.registry().find(name).gauge().value();
  }

  /** No intent of the queued requests in the ledger; devnet shows one transaction per wallet (the in-flight one). */
  private static void assertNothingNewSigned(Ledger ledger, Devnet devnet, WalletSet wallets, PayoutLoad queued) {
    assertThat(refs(queued)).allSatisfy(r -> assertThat(ledger.queries().attempts(r.requestId(), r.transferId()))
        .as("intents of %s while paused", r).isEmpty());
    wallets.subwalletIds().forEach(id -> {
      assertThat(devnet.seqno(wallets.address(id))).as("seqno of subwallet %d while paused", id).isEqualTo(1);
      assertThat(devnet.transactions(wallets.address(id)).stream().filter(tx -> tx.inMsg().external()).count())
          .as("external transactions of subwallet %d while paused", id).isEqualTo(1);
    });
  }

  private static void verifyEachPaidOnce(Ledger ledger, Devnet devnet, WalletSet wallets, SettlementWatcher watcher,
      PayoutLoad... loads) {
    Map<Long, List<Long>> seqnos = new HashMap<>();
    Map<org.tonpayouts.ton.address.TonAddress, Long> receipts = new HashMap<>();
    for (PayoutLoad load : loads) {
      for (ExpectedTransfer t : load.expected()) {
        List<ObservedSettlement> seen = watcher.settlements(t.ref());
        assertThat(seen).as("settlements of %s", t.ref()).hasSize(1);
        assertThat(seen.get(0).settlement().status()).isEqualTo(SettlementStatus.SETTLED);
        List<LedgerRow> confirmed = ledger.queries().attempts(t.requestId(), t.transferId()).stream()
            .filter(r -> r.status() == LedgerStatus.CONFIRMED).toList();
        assertThat(confirmed).as("confirmed rows of %s", t.ref()).hasSize(1);
        seqnos.computeIfAbsent(t.subwalletId(), id -> new ArrayList<>()).add(confirmed.get(0).seqno());
        receipts.merge(t.destination(), t.amountNano(), Long::sum);
      }
    }
    // in-flight first, then the queued ones in request order: seqnos 0, 1, 2 on every wallet
    seqnos.forEach((id, list) -> assertThat(list).as("seqnos of subwallet %d", id).containsExactly(0L, 1L, 2L));
    wallets.subwalletIds().forEach(id -> assertThat(devnet.transactions(wallets.address(id)).stream()
        .filter(tx -> tx.inMsg().external()).count()).as("external transactions of subwallet %d", id).isEqualTo(3));
    receipts.forEach((to, sum) -> assertThat(devnet.balance(to)).as("balance of %s", to.toRaw()).isEqualTo(sum));
  }
}
