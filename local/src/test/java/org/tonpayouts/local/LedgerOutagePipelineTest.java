package org.tonpayouts.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.tonpayouts.local.OutagePipeline.DEADLINE;
import static org.tonpayouts.local.OutagePipeline.awaitSeqnosStill;
import static org.tonpayouts.local.OutagePipeline.config;
import static org.tonpayouts.local.OutagePipeline.load;
import static org.tonpayouts.local.OutagePipeline.ready;
import static org.tonpayouts.local.OutagePipeline.refs;
import static org.tonpayouts.local.OutagePipeline.seqnos;
import static org.tonpayouts.local.OutagePipeline.verifyEachPaidOnce;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariDataSource;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.embedded.EmbeddedKafkaBroker;
import org.tonpayouts.embedded.EmbeddedPostgresServer;
import org.tonpayouts.embedded.SharedTestInfrastructure;
import org.tonpayouts.local.audit.LedgerAudit;
import org.tonpayouts.local.audit.TransferRef;
import org.tonpayouts.local.measure.PayoutLoad;
import org.tonpayouts.local.measure.SettlementWatcher;
import org.tonpayouts.local.stack.PipelineTopics;
import org.tonpayouts.local.stack.RunKey;
import org.tonpayouts.local.stack.WalletSet;
import org.tonpayouts.poller.ChainPoller;
import org.tonpayouts.poller.PollerMetrics;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.http.HttpBinding;
import org.tonpayouts.runtime.http.HttpLimits;
import org.tonpayouts.runtime.ops.DatabaseCheck;
import org.tonpayouts.runtime.ops.Health;
import org.tonpayouts.runtime.ops.OpsServer;
import org.tonpayouts.runtime.ops.PayoutProcess;
import org.tonpayouts.runtime.ops.ProcessMetrics;
import org.tonpayouts.streams.StreamsApp;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.metrics.PayoutMetrics;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;
import org.tonpayouts.ton.wallet.Subwallets;

/**
 * The ledger goes away under load and comes back (issue 27), with streams-app and chain-poller in
 * this JVM, a broker and a PostgreSQL server of the test's own (the shared server must never stop),
 * and devnet. Transfers are being signed and settled when PostgreSQL is stopped; more requests arrive
 * while it is down. Meanwhile nothing new reaches the chain (the wallets' seqnos stand still once
 * what was already recorded has landed), streams-app's {@code /health/ready} answers 503 naming
 * postgres, and streams-app stays up. Once PostgreSQL is back on the same port, without restarting
 * either app, every transfer settles exactly once: one CONFIRMED row each, consecutive seqnos per
 * wallet, one external transaction per transfer on chain, exact balances, and the launcher's audit
 * finds the ledger and the chain in agreement.
 */
class LedgerOutagePipelineTest {
  private static final int WALLETS = 3;
  /** Requests per wallet before the outage: enough that some are still queued or in flight when it starts. */
  private static final int BEFORE = 4;
  /** Requests per wallet produced while the ledger is down (stopped, then again paused). */
  private static final int DURING = 1;
  /** Requests per wallet before the pause. */
  private static final int PAUSED = 2;
  private static final int PER_WALLET = BEFORE + DURING + PAUSED + DURING;
  /**
   * The pool's wait for a connection, far below Hikari's 30 s default: this outage then outlasts it,
   * as a longer one does in production, so the ledger calls fail (rounds deferred, verdicts and sends
   * not recorded) instead of only waiting, and those failures are what must heal.
   */
  private static final long POOL_WAIT_MS = 1_000;
  private static final Logger log = LoggerFactory.getLogger(LedgerOutagePipelineTest.class);

  @TempDir
  Path tmp;

  @Test
  void shouldSignNothingWhileTheLedgerIsDownSayWhyAndPayEverythingOnceWhenItIsBack() throws Exception {
    // its own broker (the shared one's payout topics are read from the start by other pipeline
    // tests) and its own PostgreSQL server: the shared one stays up for every other test
    try (EmbeddedKafkaBroker kafka = EmbeddedKafkaBroker.start();
        EmbeddedPostgresServer postgres = EmbeddedPostgresServer.start()) {
      run(kafka.bootstrapServers(), postgres);
    }
  }

  private void run(String bootstrap, EmbeddedPostgresServer postgres) throws Exception {
    String database = SharedTestInfrastructure.databaseName(LedgerOutagePipelineTest.class);
    postgres.createDatabase(database);
    String jdbcUrl = postgres.jdbcUrl(database);
    RunKey key = RunKey.random();
    WalletSet wallets = new WalletSet(new Subwallets(key.key(), 0), Subwallets.DEFAULT_SUBWALLET_ID, WALLETS,
        WALLETS * PER_WALLET);
    String runId = SharedTestInfrastructure.uniqueName("outage");

    try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
        Devnet devnet = Devnet.builder().blockInterval(Duration.ofMillis(100)).start();
        TonApiClient api = new TonApiClient(TonApiConfig.of(devnet.baseUrl()).withRequestsPerSecond(100_000));
        HikariDataSource ledgerDb = Ledger.pooledDataSource(jdbcUrl, postgres.user(), postgres.password(), 4);
        ProcessMetrics processMetrics = new ProcessMetrics("streams-app")) {
      ledgerDb.setConnectionTimeout(POOL_WAIT_MS);
      PipelineTopics.create(admin, bootstrap, 3);
      wallets.subwalletIds().forEach(id -> devnet.fund(wallets.address(id), 100_000_000_000L));
      PayoutsConfig config = config(tmp, bootstrap, runId, devnet.baseUrl().toString(), jdbcUrl, postgres.user());
      Ledger ledger = new Ledger(ledgerDb, Clock.systemUTC());
      // every load pays recipients of its own, so what was paid of each can be read on chain
      PayoutLoad before = load(wallets, runId + "-before", BEFORE, 0);
      PayoutLoad during = load(wallets, runId + "-during", DURING, BEFORE);
      PayoutLoad paused = load(wallets, runId + "-paused", PAUSED, BEFORE + DURING);
      PayoutLoad pausedLate = load(wallets, runId + "-paused-late", DURING, BEFORE + DURING + PAUSED);
      List<TransferRef> all = refs(before, during, paused, pausedLate);

      try (StreamsApp app = new StreamsApp(config, key.key(), api, ledgerDb, Clock.systemUTC(),
              PayoutMetrics.inMemory());
          TonApiClient pollerApi = new TonApiClient(config.tonApi());
          ChainPoller poller = new ChainPoller(config, pollerApi, Clock.systemUTC(), PollerMetrics.inMemory(),
              new Properties());
          SettlementWatcher watcher = SettlementWatcher.fromNow(bootstrap, Clock.systemUTC(), all)) {
        // streams-app's readiness as StreamsAppMain builds it: the streams, and the ledger behind a timed check
        Health health = new PayoutProcess("streams-app", config, Optional.empty(), processMetrics, Clock.systemUTC())
            .readyWhen("postgres", new DatabaseCheck(ledgerDb))
            .health(app.streams());
        try (OpsServer ops = OpsServer.start(HttpBinding.loopback(0, PayoutsConfig.METRICS_PORT_CONFIG),
            HttpLimits.defaults(), processMetrics::scrape, health)) {
          app.start();
          poller.start();
          await("both apps running").atMost(DEADLINE).until(() -> app.streams().state() == KafkaStreams.State.RUNNING
              && poller.streams().state() == KafkaStreams.State.RUNNING);
          await("ready").atMost(DEADLINE).until(() -> ready(ops).statusCode() == 200);

          before.produce(bootstrap);
          await("some transfers settled").atMost(DEADLINE).pollInterval(Duration.ofMillis(20))
              .until(() -> watcher.settledCount(refs(before)) >= WALLETS);
          postgres.stop();
          log.info("ledger stopped settled={} of {}", watcher.settledCount(refs(before)), BEFORE * WALLETS);
          assertThat(watcher.settledCount(refs(before))).as("the ledger went away with transfers still to pay")
              .isLessThan(WALLETS * BEFORE);
          during.produce(bootstrap);
          assertNothingNewLandsWhileAway(app, ops, devnet, wallets, during, "stopped");
          postgres.restart();
          await("every transfer settled after the restart, streams-app not restarted").atMost(DEADLINE)
              .pollInterval(Duration.ofMillis(100)).until(() -> watcher.settledCount(refs(before, during))
                  == (BEFORE + DURING) * WALLETS);
          await("ready again").atMost(DEADLINE).until(() -> ready(ops).statusCode() == 200);

          // frozen rather than gone: open sessions hang, nothing is refused, only timeouts end the waits
          paused.produce(bootstrap);
          await("some of the next transfers settled").atMost(DEADLINE).pollInterval(Duration.ofMillis(20))
              .until(() -> watcher.settledCount(refs(paused)) >= 1);
          postgres.pause();
          log.info("ledger paused settled={} of {}", watcher.settledCount(refs(paused)), PAUSED * WALLETS);
          pausedLate.produce(bootstrap);
          assertNothingNewLandsWhileAway(app, ops, devnet, wallets, pausedLate, "paused");
          postgres.resume();
          await("every transfer settled after the resume").atMost(DEADLINE)
              .pollInterval(Duration.ofMillis(100)).until(() -> watcher.settledCount(all) == all.size());
          await("no second settlement").during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5))
              .until(() -> watcher.duplicateCount(all) == 0);
          await("ready again after the pause").atMost(DEADLINE).until(() -> ready(ops).statusCode() == 200);
          verifyEachPaidOnce(ledger, devnet, wallets, watcher, PER_WALLET, before, during, paused, pausedLate);
          assertThat(LedgerAudit.run(jdbcUrl, postgres.user(), postgres.password(), wallets.addresses(),
              Optional.of(devnet)).problems()).as("the launcher's audit agrees").isEmpty();
        }
      }
    }
  }

  /**
   * While the ledger is away: streams-app's readiness answers 503 naming postgres (its streams still
   * up); once what was recorded before has landed, the wallets' seqnos stand still; nothing of
   * {@code arrived} (produced meanwhile) reaches its recipients; streams-app keeps running.
   */
  private static void assertNothingNewLandsWhileAway(StreamsApp app, OpsServer ops, Devnet devnet, WalletSet wallets,
      PayoutLoad arrived, String how) {
    Instant since = Instant.now();
    // what was recorded before it went away may still land; after that, the chain must stand still
    Map<Long, Long> seqnos = awaitSeqnosStill(devnet, wallets, "the ledger is " + how);
    await("readiness names postgres").atMost(DEADLINE).untilAsserted(() -> {
      HttpResponse<String> down = ready(ops);
      assertThat(down.statusCode()).isEqualTo(503);
      JsonNode checks = new ObjectMapper().readTree(down.body()).get("checks");
      assertThat(checks.at("/postgres/status").asText()).isEqualTo("DOWN");
      assertThat(checks.at("/streams/status").asText()).isEqualTo("UP");
    });
    assertThat(arrived.expected()).as("requests produced while the ledger is %s", how)
        .allSatisfy(t -> assertThat(devnet.balance(t.destination())).as("paid to %s", t.ref()).isZero());
    assertThat(app.streams().state()).as("streams-app stays up").isEqualTo(KafkaStreams.State.RUNNING);
    assertThat(seqnos(devnet, wallets)).as("seqnos at the end of the outage").isEqualTo(seqnos);
    log.info("ledger {} for {} ms seqnos={}", how, Duration.between(since, Instant.now()).toMillis(), seqnos);
  }
}
