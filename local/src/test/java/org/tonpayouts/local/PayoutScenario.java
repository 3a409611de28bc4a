package org.tonpayouts.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.devnet.chain.DevnetTransaction;
import org.tonpayouts.embedded.EmbeddedPostgresServer;
import org.tonpayouts.embedded.SharedTestInfrastructure;
import org.tonpayouts.local.audit.ExpectedTransfer;
import org.tonpayouts.local.audit.LedgerAudit;
import org.tonpayouts.local.audit.TransferRef;
import org.tonpayouts.local.demo.DemoLoad;
import org.tonpayouts.local.measure.ObservedSettlement;
import org.tonpayouts.local.measure.PayoutLoad;
import org.tonpayouts.local.measure.SettlementWatcher;
import org.tonpayouts.local.stack.PipelineTopics;
import org.tonpayouts.local.stack.RunKey;
import org.tonpayouts.local.stack.WalletSet;
import org.tonpayouts.poller.ChainPoller;
import org.tonpayouts.poller.PollerMetrics;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.streams.StreamsApp;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.LedgerStatus;
import org.tonpayouts.streams.metrics.PayoutMetrics;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.runtime.ops.TonApiPools;
import org.tonpayouts.ton.api.ProviderPool;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;
import org.tonpayouts.ton.wallet.Subwallets;

/**
 * The end-to-end payout scenario, whatever the broker: streams-app and chain-poller in this JVM on a
 * real broker, the embedded PostgreSQL ledger and devnet with 100 ms blocks; 5 wallets x 10 requests
 * (a third of them with a commission sweep) must all settle, and ledger, chain and settlements must
 * agree. The broker fixtures are {@link PayoutPipelineTest} and {@link PayoutPipelineTestcontainersTest}.
 */
final class PayoutScenario {
  static final int WALLETS = 5;
  static final int REQUESTS = 50;
  private static final Duration DEADLINE = Duration.ofSeconds(120);
  private static final Duration BLOCK = Duration.ofMillis(100);

  private final String bootstrapServers;
  private final String database;
  private final Path tmp;
  private int wallets = WALLETS;
  private int requests = REQUESTS;
  private final Map<String, String> overrides = new HashMap<>();
  private final Map<String, String> streamsOverrides = new HashMap<>();
  private final Map<String, String> pollerOverrides = new HashMap<>();
  private Map<String, ?> producerSettings = Map.of();
  private Function<Devnet, URI> pollerApi = Devnet::baseUrl;
  private Function<Devnet, String> providers; // null: one provider, ton.api.url
  private Consumer<Devnet> beforeLoad = devnet -> { };
  private Consumer<Running> whileRunning = running -> { };

  /** What the apps counted during a run. */
  record Counts(PayoutMetrics streams, PollerMetrics poller) {}

  /** Both apps, running, with the configuration each was given. */
  record Running(StreamsApp app, PayoutsConfig appConfig, ChainPoller poller, PayoutsConfig pollerConfig) {}

  /**
   * @param database name of a fresh database on the shared embedded PostgreSQL server
   * @param tmp a temporary directory for the stream state stores
   */
  PayoutScenario(String bootstrapServers, String database, Path tmp) {
    this.bootstrapServers = bootstrapServers;
    this.database = database;
    this.tmp = tmp;
  }

  /** {@code requests} requests over {@code wallets} wallets instead of the default load. */
  PayoutScenario load(int wallets, int requests) {
    this.wallets = wallets;
    this.requests = requests;
    return this;
  }

  /** Configuration keys to set for both apps. */
  PayoutScenario config(String key, Object value) {
    overrides.put(key, value.toString());
    return this;
  }

  /** A configuration key of streams-app only (applied after {@link #config}), e.g. its Kafka credentials. */
  PayoutScenario streamsConfig(String key, Object value) {
    streamsOverrides.put(key, value.toString());
    return this;
  }

  /** A configuration key of chain-poller only (applied after {@link #config}). */
  PayoutScenario pollerConfig(String key, Object value) {
    pollerOverrides.put(key, value.toString());
    return this;
  }

  /** Kafka client settings of the producer service that writes the load (its credentials). */
  PayoutScenario producerSettings(Map<String, ?> settings) {
    this.producerSettings = Map.copyOf(settings);
    return this;
  }

  /** The TON API base URL chain-poller uses, from the devnet (e.g. a lagging node of it). */
  PayoutScenario pollerApi(Function<Devnet, URI> api) {
    this.pollerApi = api;
    return this;
  }

  /**
   * Both apps on several providers: {@code ton.api.urls} as {@code urls} gives it for the devnet,
   * each app on a {@link ProviderPool} built as its main builds it (instead of ton.api.url).
   */
  PayoutScenario providers(Function<Devnet, String> urls) {
    this.providers = urls;
    return this;
  }

  /** Done once both apps run, before the load is produced (e.g. their start-up checks under their own credentials). */
  PayoutScenario whileRunning(Consumer<Running> action) {
    this.whileRunning = action;
    return this;
  }

  /** Done to devnet once both apps run, right before the load is produced (e.g. faults). */
  PayoutScenario beforeLoad(Consumer<Devnet> action) {
    this.beforeLoad = action;
    return this;
  }

  Counts runAndVerify() throws Exception {
    EmbeddedPostgresServer postgres = SharedTestInfrastructure.postgres();
    postgres.createDatabase(database);
    String jdbcUrl = postgres.jdbcUrl(database);
    RunKey key = RunKey.random();
    WalletSet wallets = new WalletSet(new Subwallets(key.key(), 0), Subwallets.DEFAULT_SUBWALLET_ID, this.wallets, 10);
    String runId = SharedTestInfrastructure.uniqueName("e2e");

    try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
        Devnet devnet = Devnet.builder().blockInterval(BLOCK).start();
        TonApiClient api = new TonApiClient(TonApiConfig.of(devnet.baseUrl()).withRequestsPerSecond(100_000));
        HikariDataSource ledgerDb = Ledger.pooledDataSource(jdbcUrl, postgres.user(), postgres.password(), 4)) {
      PipelineTopics.create(admin, bootstrapServers, 3);
      wallets.subwalletIds().forEach(id -> devnet.fund(wallets.address(id), 100_000_000_000L));
      if (providers != null) {
        streamsOverrides.put(PayoutsConfig.TON_API_URLS_CONFIG, providers.apply(devnet));
        pollerOverrides.put(PayoutsConfig.TON_API_URLS_CONFIG, providers.apply(devnet));
      }
      PayoutsConfig config = config(runId, devnet.baseUrl(), jdbcUrl, postgres.user(), streamsOverrides);
      PayoutsConfig pollerConfig = config(runId, pollerApi.apply(devnet), jdbcUrl, postgres.user(), pollerOverrides);
      PayoutMetrics streamsMetrics = PayoutMetrics.inMemory();
      PollerMetrics pollerMetrics = PollerMetrics.inMemory();

      try (ProviderPool streamsPool = providers == null ? null
              : TonApiPools.open(config, streamsMetrics.registry(), Clock.systemUTC());
          ProviderPool pollerPool = providers == null ? null
              : TonApiPools.open(pollerConfig, pollerMetrics.registry(), Clock.systemUTC());
          TonApiClient pollerApiClient = new TonApiClient(pollerConfig.tonApi());
          StreamsApp app = new StreamsApp(config, key.key(), streamsPool == null ? api : streamsPool, ledgerDb,
              Clock.systemUTC(), streamsMetrics);
          ChainPoller poller = new ChainPoller(pollerConfig, pollerPool == null ? pollerApiClient : pollerPool,
              Clock.systemUTC(), pollerMetrics, new Properties());
          SettlementWatcher watcher = SettlementWatcher.start(bootstrapServers, Clock.systemUTC())) {
        app.start();
        poller.start();
        await("both apps running").atMost(DEADLINE).until(() -> app.streams().state() == KafkaStreams.State.RUNNING
            && poller.streams().state() == KafkaStreams.State.RUNNING);

        whileRunning.accept(new Running(app, config, poller, pollerConfig));
        beforeLoad.accept(devnet);
        PayoutLoad load = DemoLoad.demo(wallets, requests, runId, false, Instant.now());
        load.produce(producerSettings.isEmpty() ? bootstrapServers
            : producerSettings.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG).toString(), producerSettings);
        List<TransferRef> refs = load.expected().stream().map(ExpectedTransfer::ref).toList();

        await("every transfer settled").atMost(DEADLINE).pollInterval(Duration.ofMillis(100))
            .until(() -> watcher.settledCount(refs) == refs.size());
        // exactly one settlement each: nothing more may arrive while we watch for a while
        await("no second settlement").during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5))
            .until(() -> watcher.duplicateCount(refs) == 0);

        verifySettlements(load, watcher);
        verifyLedgerAgainstChain(load, wallets, new Ledger(ledgerDb, Clock.systemUTC()), watcher, devnet);
        verifyRecipientBalances(load, devnet);
        assertThat(LedgerAudit.run(jdbcUrl, postgres.user(), postgres.password(), wallets.addresses(),
            Optional.of(devnet)).problems()).as("the launcher's own audit agrees").isEmpty();
        return new Counts(streamsMetrics, pollerMetrics);
      }
    }
  }

  private PayoutsConfig config(String runId, URI tonApi, String jdbcUrl, String user, Map<String, String> own)
      throws Exception {
    Map<String, String> values = new HashMap<>();
    values.put(PayoutsConfig.KAFKA_BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    values.put(PayoutsConfig.STREAMS_APPLICATION_ID_CONFIG, runId + "-streams");
    values.put(PayoutsConfig.POLLER_APPLICATION_ID_CONFIG, runId + "-poller");
    values.put(PayoutsConfig.STREAMS_STATE_DIR_CONFIG, Files.createDirectories(tmp.resolve("state")).toString());
    values.put(PayoutsConfig.POSTGRES_URL_CONFIG, jdbcUrl);
    values.put(PayoutsConfig.POSTGRES_USER_CONFIG, user);
    if (!own.containsKey(PayoutsConfig.TON_API_URLS_CONFIG)) {
      values.put(PayoutsConfig.TON_API_URL_CONFIG, tonApi.toString());
    }
    values.put(PayoutsConfig.TON_API_RPS_CONFIG, "100000");
    values.put(PayoutsConfig.VERDICT_MAC_KEYS_CONFIG, "scenario:" + "5e".repeat(32)); // both apps share it
    values.putAll(overrides);
    values.putAll(own);
    return new PayoutsConfig(values);
  }

  private static void verifySettlements(PayoutLoad load, SettlementWatcher watcher) {
    for (ExpectedTransfer t : load.expected()) {
      List<ObservedSettlement> seen = watcher.settlements(t.ref());
      assertThat(seen).as("settlements of %s", t.ref()).hasSize(1);
      Settlement s = seen.get(0).settlement();
      assertThat(s.status()).as("status of %s (reason %s)", t.ref(), s.reason()).isEqualTo(SettlementStatus.SETTLED);
      assertThat(s.subwalletId()).isEqualTo(t.subwalletId());
      assertThat(s.amountNano()).isEqualTo(t.amountNano());
      assertThat(s.transferIndex()).isEqualTo(t.transferIndex());
    }
  }

  /**
   * Every transfer has one CONFIRMED ledger row; per wallet their seqnos are 0..n-1 in request
   * order; each row names the devnet transaction its message applied as (hash, lt, the wallet's
   * n-th external message), and the settlement carries the same hash, lt and seqno.
   */
  private void verifyLedgerAgainstChain(PayoutLoad load, WalletSet wallets, Ledger ledger,
      SettlementWatcher watcher, Devnet devnet) {
    Map<Long, List<LedgerRow>> rowsByWallet = new HashMap<>();
    for (ExpectedTransfer t : load.expected()) {
      List<LedgerRow> attempts = ledger.queries().attempts(t.requestId(), t.transferId());
      List<LedgerRow> confirmed = attempts.stream().filter(r -> r.status() == LedgerStatus.CONFIRMED).toList();
      assertThat(confirmed).as("confirmed ledger rows of %s: %s", t.ref(), attempts).hasSize(1);
      LedgerRow row = confirmed.get(0);
      assertThat(row.destination()).isEqualTo(t.destination().toFriendly(false, false));
      assertThat(row.amountNano()).isEqualTo(t.amountNano());
      Settlement s = watcher.settlements(t.ref()).get(0).settlement();
      assertThat(s.txHash()).isEqualTo(row.txHash());
      assertThat(s.lt()).isEqualTo(row.lt());
      assertThat(s.seqno()).isEqualTo(row.seqno());
      rowsByWallet.computeIfAbsent(t.subwalletId(), id -> new ArrayList<>()).add(row);
    }
    assertThat(rowsByWallet).hasSize(this.wallets);
    rowsByWallet.forEach((id, rows) -> {
      TonAddress wallet = wallets.address(id);
      // rows were collected in request order: the seqnos must count up from 0 in that same order
      List<Long> seqnos = rows.stream().map(LedgerRow::seqno).toList();
      List<Long> consecutive = new ArrayList<>();
      for (long s = 0; s < rows.size(); s++) {
        consecutive.add(s);
      }
      assertThat(seqnos).as("seqnos of subwallet %d in request order", id).isEqualTo(consecutive);
      assertThat(devnet.seqno(wallet)).as("devnet seqno of subwallet %d", id).isEqualTo(rows.size());

      List<DevnetTransaction> external = devnet.transactions(wallet).stream()
          .filter(tx -> tx.inMsg().external())
          .sorted(Comparator.comparingLong(DevnetTransaction::lt))
          .toList();
      assertThat(external).as("external-message transactions of subwallet %d", id).hasSize(rows.size());
      for (LedgerRow row : rows) {
        DevnetTransaction tx = external.get((int) row.seqno());
        assertThat(tx.hash()).as("tx of seqno %d on subwallet %d", row.seqno(), id).isEqualTo(row.txHash());
        assertThat(tx.lt()).isEqualTo(row.lt());
        assertThat(tx.inMsg().hash()).isEqualTo(row.messageHash());
        assertThat(tx.aborted()).isFalse();
        assertThat(tx.outMsgs()).hasSize(1);
        assertThat(tx.outMsgs().get(0).value()).isEqualTo(row.amountNano());
        assertThat(tx.outMsgs().get(0).destination()).isEqualTo(TonAddress.parse(row.destination()));
      }
    });
  }

  private static void verifyRecipientBalances(PayoutLoad load, Devnet devnet) {
    Map<TonAddress, Long> expected = load.expectedReceipts();
    assertThat(expected).hasSizeGreaterThan(2);
    expected.forEach((recipient, sum) ->
        assertThat(devnet.balance(recipient)).as("balance of %s", recipient.toRaw()).isEqualTo(sum));
  }
}
