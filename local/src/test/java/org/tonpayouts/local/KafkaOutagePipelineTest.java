package org.tonpayouts.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.tonpayouts.local.OutagePipeline.DEADLINE;
import static org.tonpayouts.local.OutagePipeline.awaitSeqnosStill;
import static org.tonpayouts.local.OutagePipeline.config;
import static org.tonpayouts.local.OutagePipeline.live;
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
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.embedded.EmbeddedKafkaCluster;
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
import org.tonpayouts.runtime.topics.AdminClients;
import org.tonpayouts.streams.StreamsApp;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.metrics.PayoutMetrics;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;
import org.tonpayouts.ton.wallet.Subwallets;

/**
 * The brokers go away under load and come back (issue 27), with streams-app and chain-poller in
 * this JVM, a three-node Kafka cluster of the test's own (replication 3, as production), the shared
 * PostgreSQL server and devnet. Transfers are being signed and settled when all three nodes stop at
 * once. While they are away: streams-app's {@code /health/ready} answers 503 naming kafka, neither
 * app's Kafka Streams dies, and once what was already recorded has landed the wallets' seqnos stand
 * still and no new message is recorded in the ledger (a wallet's next transfer needs the poller's
 * verdict, which only Kafka carries, and both apps' stream threads wait in their exactly-once
 * commits, running no punctuation). The outage outlasts the transactions' timeout (10 s). Once the
 * nodes are back, without restarting either app, every transfer (those queued before, and more
 * requests produced after) settles exactly once: one CONFIRMED row each, consecutive seqnos per
 * wallet, one external transaction per transfer on chain, exact balances, and the launcher's audit
 * finds the ledger and the chain in agreement.
 */
class KafkaOutagePipelineTest {
  private static final int WALLETS = 3;
  /** Requests per wallet before the outage: enough that some are still queued or in flight when it starts. */
  private static final int BEFORE = 3;
  /** Requests per wallet produced once the brokers are back (none can be produced while they are away). */
  private static final int AFTER = 1;
  private static final int PER_WALLET = BEFORE + AFTER;
  /**
   * How long the brokers stay away, from the moment they begin to stop: past Kafka Streams'
   * {@code transaction.timeout.ms} under exactly-once (10 s), so the coordinator may abort the
   * transactions left open when it returns (in the runs so far the blocked commits got in first and
   * went through). The apps' clients keep Kafka's other defaults, which an outage this short does
   * not outlast: a stream thread waits up to {@code max.block.ms} (60 s) in a commit and a flush up
   * to {@code delivery.timeout.ms} (120 s); what they do after that is not covered here.
   */
  private static final Duration OUTAGE = Duration.ofSeconds(12);
  /** Kafka Streams states that mean an app died or is dying: never allowed here. */
  private static final Set<KafkaStreams.State> DEAD = EnumSet.of(KafkaStreams.State.PENDING_ERROR,
      KafkaStreams.State.ERROR, KafkaStreams.State.PENDING_SHUTDOWN, KafkaStreams.State.NOT_RUNNING);
  private static final Logger log = LoggerFactory.getLogger(KafkaOutagePipelineTest.class);

  @TempDir
  Path tmp;

  @Test
  void shouldSignNothingNewWhileTheBrokersAreAwaySayWhyAndPayEverythingOnceWhenTheyAreBack() throws Exception {
    // a cluster of its own, stopped whole: no other test's broker may go away
    try (EmbeddedKafkaCluster kafka = EmbeddedKafkaCluster.builder()
        // a restarted node registers once the controller has fenced its crashed self: after 3 s, not 9 s
        .property("broker.session.timeout.ms", "3000")
        .property("broker.heartbeat.interval.ms", "500")
        .start()) {
      run(kafka);
    }
  }

  private void run(EmbeddedKafkaCluster kafka) throws Exception {
    String bootstrap = kafka.bootstrapServers();
    EmbeddedPostgresServer postgres = SharedTestInfrastructure.postgres();
    String database = SharedTestInfrastructure.databaseName(KafkaOutagePipelineTest.class);
    postgres.createDatabase(database);
    String jdbcUrl = postgres.jdbcUrl(database);
    RunKey key = RunKey.random();
    WalletSet wallets = new WalletSet(new Subwallets(key.key(), 0), Subwallets.DEFAULT_SUBWALLET_ID, WALLETS,
        WALLETS * PER_WALLET);
    String runId = SharedTestInfrastructure.uniqueName("kafka-outage");
    // replication factor 3 (the cluster's default), min.insync.replicas 2: the production shape
    PipelineTopics.create(kafka.admin(), bootstrap, 3, Optional.empty());

    try (Devnet devnet = Devnet.builder().blockInterval(Duration.ofMillis(100)).start();
        TonApiClient api = new TonApiClient(TonApiConfig.of(devnet.baseUrl()).withRequestsPerSecond(100_000));
        HikariDataSource ledgerDb = Ledger.pooledDataSource(jdbcUrl, postgres.user(), postgres.password(), 4);
        ProcessMetrics processMetrics = new ProcessMetrics("streams-app")) {
      wallets.subwalletIds().forEach(id -> devnet.fund(wallets.address(id), 100_000_000_000L));
      PayoutsConfig config = config(tmp, bootstrap, runId, devnet.baseUrl().toString(), jdbcUrl, postgres.user());
      Ledger ledger = new Ledger(ledgerDb, Clock.systemUTC());
      PayoutLoad before = load(wallets, runId + "-before", BEFORE, 0);
      PayoutLoad after = load(wallets, runId + "-after", AFTER, BEFORE);
      List<TransferRef> all = refs(before, after);

      try (StreamsApp app = new StreamsApp(config, key.key(), api, ledgerDb, Clock.systemUTC(),
              PayoutMetrics.inMemory());
          TonApiClient pollerApi = new TonApiClient(config.tonApi());
          ChainPoller poller = new ChainPoller(config, pollerApi, Clock.systemUTC(), PollerMetrics.inMemory(),
              new Properties());
          SettlementWatcher watcher = SettlementWatcher.fromNow(bootstrap, Clock.systemUTC(), all);
          // streams-app's readiness as StreamsAppMain builds it (PayoutProcess.runUntilStopped): the
          // streams, the ledger, and the cluster asked through an admin client of its own
          AdminClients.Session healthAdmin = AdminClients.open(config, "streams-app-health")) {
        List<KafkaStreams.State> appStates = recordStates("streams-app", app.streams());
        List<KafkaStreams.State> pollerStates = recordStates("chain-poller", poller.streams());
        Health health = new PayoutProcess("streams-app", config, Optional.empty(), processMetrics, Clock.systemUTC())
            .readyWhen("postgres", new DatabaseCheck(ledgerDb))
            .readyWhenKafkaAnswers(healthAdmin.admin())
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
          Instant stopping = Instant.now();
          kafka.stop(kafka.nodeIds());
          Instant away = Instant.now();
          log.info("kafka stopped, all nodes took_ms={} settled={} of {}", Duration.between(stopping, away).toMillis(),
              watcher.settledCount(refs(before)), BEFORE * WALLETS);
          assertThat(watcher.settledCount(refs(before))).as("the brokers went away with transfers still to pay")
              .isLessThan(WALLETS * BEFORE);

          assertNothingNewSignedWhileAway(ops, devnet, ledger, wallets, before, stopping, away);
          assertThat(appStates).as("streams-app's states while the brokers were away").doesNotContainAnyElementsOf(DEAD);
          assertThat(pollerStates).as("chain-poller's states while the brokers were away")
              .doesNotContainAnyElementsOf(DEAD);

          Instant restarting = Instant.now();
          kafka.restart(kafka.nodeIds());
          log.info("kafka restarted, all nodes took_ms={} away_ms={}",
              Duration.between(restarting, Instant.now()).toMillis(), Duration.between(away, restarting).toMillis());
          after.produce(bootstrap);
          await("every transfer settled after the brokers returned, neither app restarted").atMost(DEADLINE)
              .pollInterval(Duration.ofMillis(100)).until(() -> watcher.settledCount(all) == all.size());
          await("no second settlement").during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5))
              .until(() -> watcher.duplicateCount(all) == 0);
          await("ready again").atMost(DEADLINE).until(() -> ready(ops).statusCode() == 200);
          log.info("kafka outage recovered: settled all {} transfers in {} ms after the restart; states streams-app={}"
              + " chain-poller={}", all.size(), Duration.between(restarting, Instant.now()).toMillis(), appStates,
              pollerStates);
          assertThat(appStates).as("streams-app's states").doesNotContainAnyElementsOf(DEAD);
          assertThat(pollerStates).as("chain-poller's states").doesNotContainAnyElementsOf(DEAD);
          verifyEachPaidOnce(ledger, devnet, wallets, watcher, PER_WALLET, before, after);
          assertThat(LedgerAudit.run(jdbcUrl, postgres.user(), postgres.password(), wallets.addresses(),
              Optional.of(devnet)).problems()).as("the launcher's audit agrees").isEmpty();
        }
      }
    }
  }

  /**
   * While the brokers are away, until {@link #OUTAGE} after they began {@code stopping}: the ledger
   * holds no message of {@code load} recorded once all had stopped ({@code away}); once what was
   * recorded before has landed, the wallets' seqnos stand still and no new message is recorded;
   * streams-app's readiness answers 503 naming kafka (the ledger up) and its liveness stays 200.
   * Logs every message recorded after {@code stopping}, with its time: what was signed as the
   * brokers went.
   */
  private static void assertNothingNewSignedWhileAway(OpsServer ops, Devnet devnet, Ledger ledger, WalletSet wallets,
      PayoutLoad load, Instant stopping, Instant away) throws Exception {
    Map<Long, Long> seqnos = awaitSeqnosStill(devnet, wallets, "the brokers are away");
    List<LedgerRow> recorded = messages(ledger, load);
    Instant still = Instant.now();
    String[] notReady = {null};
    await("readiness names kafka").atMost(DEADLINE).untilAsserted(() -> {
      HttpResponse<String> down = ready(ops);
      assertThat(down.statusCode()).isEqualTo(503);
      JsonNode checks = new ObjectMapper().readTree(down.body()).get("checks");
      assertThat(checks.at("/kafka/status").asText()).as(down.body()).isEqualTo("DOWN");
      assertThat(checks.at("/postgres/status").asText()).as(down.body()).isEqualTo("UP");
      notReady[0] = down.body();
    });
    log.info("readiness while the brokers are away after_ms={}: 503 {}", Duration.between(away, Instant.now())
        .toMillis(), notReady[0]);
    Duration rest = OUTAGE.minus(Duration.between(stopping, Instant.now()));
    if (!rest.isNegative()) {
      await("nothing new signed or landed while the brokers are away, streams-app alive")
          .during(rest).atMost(rest.plusSeconds(10)).pollInterval(Duration.ofMillis(250))
          .until(() -> seqnos(devnet, wallets).equals(seqnos) && ids(messages(ledger, load)).equals(ids(recorded))
              && live(ops).statusCode() == 200);
    }
    List<LedgerRow> signedSinceStop = recorded.stream().filter(r -> !r.createdAt().isBefore(stopping))
        .sorted(Comparator.comparing(LedgerRow::createdAt)).toList();
    signedSinceStop.forEach(r -> log.info("message recorded after the brokers began to stop created_at={} after_ms={}"
        + " subwallet={} request={} seqno={} attempt={} status={}", r.createdAt(),
        Duration.between(stopping, r.createdAt()).toMillis(), r.subwalletId(), r.requestId(), r.seqno(), r.attempt(),
        r.status()));
    log.info("kafka away for {} ms: seqnos still (for {} ms) at {} ms, seqnos={}, messages recorded={} of which after"
        + " the stop began={}", Duration.between(stopping, Instant.now()).toMillis(), OutagePipeline.STILL_FOR.toMillis(),
        Duration.between(stopping, still).toMillis(), seqnos, recorded.size(), signedSinceStop.size());
    assertThat(recorded).as("messages recorded once every broker had stopped")
        .noneMatch(r -> !r.createdAt().isBefore(away));
  }

  /** Every message the ledger holds for {@code load}'s transfers, in the order recorded. */
  private static List<LedgerRow> messages(Ledger ledger, PayoutLoad load) {
    return load.expected().stream()
        .flatMap(t -> ledger.queries().attempts(t.requestId(), t.transferId()).stream())
        .sorted(Comparator.comparing(LedgerRow::id))
        .toList();
  }

  private static List<Long> ids(List<LedgerRow> rows) {
    return rows.stream().map(LedgerRow::id).toList();
  }

  /** Records every state {@code streams} enters from now on (call before it starts), and logs it. */
  private static List<KafkaStreams.State> recordStates(String app, KafkaStreams streams) {
    List<KafkaStreams.State> states = new CopyOnWriteArrayList<>();
    streams.setStateListener((now, was) -> {
      log.info("state change app={} from={} to={}", app, was, now);
      states.add(now);
    });
    return states;
  }
}
