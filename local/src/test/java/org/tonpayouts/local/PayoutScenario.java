package org.tonpayouts.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import java.math.BigInteger;
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
import org.tonpayouts.devnet.chain.jetton.JettonFlavor;
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
import org.tonpayouts.runtime.jettons.JettonCatalog;
import org.tonpayouts.schemas.JettonAmount;
import org.tonpayouts.schemas.JettonDelivery;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.schemas.TransferKind;
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
 *
 * <p>With {@link #jettons()} devnet deploys a stablecoin (USDT), streams-app pays it, the demo's
 * jetton requests (a withdrawal of the jetton, then a TON commission sweep) are in the load, and one
 * more request pays the jetton to a receiver whose jetton wallet is receiving-locked: that transfer
 * must fail with the refusal's exit code and the re-credit, its sweep be aborted, and the jetton
 * balances on devnet be exactly what the settlements say.
 */
final class PayoutScenario {
  static final int WALLETS = 5;
  static final int REQUESTS = 50;
  private static final Duration DEADLINE = Duration.ofSeconds(120);
  private static final Duration BLOCK = Duration.ofMillis(100);
  /** What devnet mints to every paying wallet with {@link #jettons()}: 1,000 USDT. */
  private static final BigInteger MINTED = BigInteger.valueOf(1_000_000_000L);
  /** The refused jetton transfer's amount: 2 USDT. */
  private static final BigInteger REFUSED_UNITS = BigInteger.valueOf(2_000_000L);
  /** Subwallet id (of the run's key) of the receiver whose jetton wallet is receiving-locked: no recipient, no payer. */
  private static final long LOCKED_RECEIVER_SUBWALLET = 999;
  /** The stablecoin's exit code for a locked jetton wallet (error::contract_locked). */
  private static final int CONTRACT_LOCKED = 45;

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
  private boolean jettons;

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

  /**
   * Pays a jetton too: devnet deploys the stablecoin (as the local stack's USDT) and mints it to every
   * paying wallet, streams-app is configured with it, the load is the demo's with its jetton requests,
   * and one request more (after the load, on the first wallet) pays it to a receiving-locked jetton
   * wallet and then sweeps a commission.
   */
  PayoutScenario jettons() {
    this.jettons = true;
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
      Optional<TonAddress> master = Optional.empty();
      TonAddress lockedReceiver = new Subwallets(key.key(), 0).address(LOCKED_RECEIVER_SUBWALLET);
      if (jettons) {
        master = Optional.of(devnet.deployJetton(JettonFlavor.STABLECOIN, "https://tonpayouts.local/e2e-usdt.json"));
        TonAddress m = master.get();
        wallets.subwalletIds().forEach(id -> devnet.mintJettons(m, wallets.address(id), MINTED));
        devnet.mintJettons(m, lockedReceiver, BigInteger.ONE); // deploys its jetton wallet, then it is locked
        assertThat(devnet.setJettonWalletStatus(m, lockedReceiver, 2).wallet().status()).isEqualTo(2);
        streamsOverrides.put(PayoutsConfig.JETTONS_CONFIG, "USDT master=" + m.toRaw() + " decimals=6 max.transfer=10000000000");
      }
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
        PayoutLoad load = DemoLoad.demo(wallets, requests, runId, false, Instant.now(), master);
        String producerServers = producerSettings.isEmpty() ? bootstrapServers
            : producerSettings.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG).toString();
        load.produce(producerServers, producerSettings);
        List<Planned> planned = new ArrayList<>(planned(load, SettlementStatus.SETTLED));
        if (master.isPresent()) {
          // produced after the load: the last request of the first wallet, which must carry on after it
          PayoutLoad refusal = refusal(runId, wallets, master.get(), lockedReceiver);
          refusal.produce(producerServers, producerSettings);
          planned.addAll(planned(refusal, SettlementStatus.FAILED, SettlementStatus.ABORTED));
        }
        List<TransferRef> refs = planned.stream().map(p -> p.transfer().ref()).toList();

        await("every transfer settled").atMost(DEADLINE).pollInterval(Duration.ofMillis(100))
            .until(() -> watcher.settledCount(refs) == refs.size());
        // exactly one settlement each: nothing more may arrive while we watch for a while
        await("no second settlement").during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5))
            .until(() -> watcher.duplicateCount(refs) == 0);

        Chain chain = new Chain(devnet, master, wallets);
        verifySettlements(planned, watcher, chain);
        verifyLedgerAgainstChain(planned, wallets, new Ledger(ledgerDb, Clock.systemUTC()), watcher, chain);
        verifyRecipientBalances(load, planned, devnet);
        if (master.isPresent()) {
          verifyJettonBalances(load, planned, wallets, lockedReceiver, chain);
        }
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

  /** A transfer of the run and the status its one settlement must have. */
  private record Planned(ExpectedTransfer transfer, Optional<JettonAmount> jetton, SettlementStatus outcome) {
    boolean applied() {
      return outcome != SettlementStatus.ABORTED;
    }
  }

  /** {@code load}'s transfers, each request's ending as {@code outcomes} says by transfer index (the last repeats). */
  private static List<Planned> planned(PayoutLoad load, SettlementStatus... outcomes) {
    return load.expected().stream().map(t -> new Planned(t, load.jettonOf(t.ref()),
        outcomes[Math.min(t.transferIndex(), outcomes.length - 1)])).toList();
  }

  /** One request on the first wallet: the jetton to a receiver whose jetton wallet refuses it, then a sweep. */
  private static PayoutLoad refusal(String runId, WalletSet wallets, TonAddress master, TonAddress lockedReceiver) {
    PayoutLoad.Builder b = new PayoutLoad.Builder(false, Instant.now());
    b.add(runId + "-refused", wallets.subwalletId(0), List.of(
        PayoutLoad.Leg.jetton("withdrawal", TransferKind.WITHDRAWAL, lockedReceiver,
            new JettonAmount(master.toFriendly(true, false), REFUSED_UNITS)),
        new PayoutLoad.Leg("commission", TransferKind.COMMISSION_SWEEP, wallets.treasury(), DemoLoad.COMMISSION_NANO)));
    return b.build();
  }

  /** devnet seen from the test: the run's jetton (if any) and the jetton wallets of payers and payees. */
  private record Chain(Devnet devnet, Optional<TonAddress> master, WalletSet wallets) {
    TonAddress jettonWallet(TonAddress owner) {
      return devnet.jettonWallet(master.orElseThrow(), owner).address();
    }

    TonAddress jettonWalletOf(long subwalletId) {
      return jettonWallet(wallets.address(subwalletId));
    }

    /** The transaction {@code hash} of {@code account} on devnet; fails the test if it has none such. */
    DevnetTransaction transaction(TonAddress account, String hash) {
      return devnet.transactions(account).stream().filter(tx -> tx.hash().equals(hash)).findFirst()
          .orElseThrow(() -> new AssertionError("no transaction " + hash + " of " + account.toRaw() + " on devnet"));
    }
  }

  private static void verifySettlements(List<Planned> planned, SettlementWatcher watcher, Chain chain) {
    for (Planned p : planned) {
      ExpectedTransfer t = p.transfer();
      List<ObservedSettlement> seen = watcher.settlements(t.ref());
      assertThat(seen).as("settlements of %s", t.ref()).hasSize(1);
      Settlement s = seen.get(0).settlement();
      assertThat(s.status()).as("status of %s (reason %s)", t.ref(), s.reason()).isEqualTo(p.outcome());
      assertThat(s.subwalletId()).isEqualTo(t.subwalletId());
      assertThat(s.transferIndex()).isEqualTo(t.transferIndex());
      assertThat(s.jetton()).as("jetton of %s", t.ref()).isEqualTo(p.jetton().orElse(null));
      if (p.jetton().isEmpty()) {
        assertThat(s.amountNano()).isEqualTo(t.amountNano());
        assertThat(s.jettonDelivery()).isNull();
      } else {
        assertThat(s.amountNano()).as("the TON attached to %s", t.ref()).isEqualTo(JettonCatalog.DEFAULT_ATTACH_NANO);
        verifyJettonDelivery(p, s, chain);
      }
    }
  }

  /**
   * A delivered jetton transfer names the receiver jetton wallet's real acceptance of our jetton
   * wallet's internal_transfer; a refused one the receiver's refusal (exit code) and our re-credit.
   */
  private static void verifyJettonDelivery(Planned p, Settlement s, Chain chain) {
    ExpectedTransfer t = p.transfer();
    JettonDelivery d = s.jettonDelivery();
    assertThat(d).as("jetton delivery of %s", t.ref()).isNotNull();
    TonAddress sender = chain.jettonWalletOf(t.subwalletId());
    TonAddress receiver = chain.jettonWallet(t.destination());
    assertThat(d.senderJettonWallet()).isEqualTo(sender.toRaw());
    assertThat(d.receiverJettonWallet()).isEqualTo(receiver.toRaw());
    assertThat(d.amount()).isEqualTo(p.jetton().orElseThrow().amount());
    if (p.outcome() == SettlementStatus.SETTLED) {
      assertThat(d.delivered()).as("delivered: %s", d).isTrue();
      DevnetTransaction acceptance = chain.transaction(receiver, d.receiverTxHash());
      assertThat(acceptance.lt()).isEqualTo(d.receiverLt());
      assertThat(acceptance.inMsg().source()).as("internal_transfer from our jetton wallet").isEqualTo(sender);
      assertThat(acceptance.aborted()).as("the receiver's jetton wallet accepted it").isFalse();
      assertThat(d.exitCode()).isNull();
      assertThat(d.returnTxHash()).isNull();
    } else {
      assertThat(d.delivered()).isFalse();
      if (d.receiverTxHash() != null) {
        DevnetTransaction refusal = chain.transaction(receiver, d.receiverTxHash());
        assertThat(refusal.inMsg().source()).isEqualTo(sender);
        assertThat(refusal.aborted()).as("the receiver's jetton wallet refused it").isTrue();
      }
      assertThat(d.exitCode()).as("exit code of the refusal").isEqualTo(CONTRACT_LOCKED);
      assertThat(d.failedAccount()).isEqualTo(receiver.toRaw());
      assertThat(s.reason()).contains("exit code " + CONTRACT_LOCKED);
      DevnetTransaction recredit = chain.transaction(sender, d.returnTxHash());
      assertThat(recredit.inMsg().bounced()).as("our jetton wallet took the bounce").isTrue();
      assertThat(recredit.inMsg().source()).isEqualTo(receiver);
    }
  }

  /**
   * Every applied transfer (SETTLED, or FAILED after its message applied) has one ledger row of that
   * outcome, an aborted one none; per wallet their seqnos are 0..n-1 in request order; each row names
   * the devnet transaction its message applied as (hash, lt, the wallet's n-th external message,
   * sending the TON to the payee or, for a jetton, to our jetton wallet), and the settlement carries
   * the same seqno (and, SETTLED, the same hash and lt).
   */
  private void verifyLedgerAgainstChain(List<Planned> planned, WalletSet wallets, Ledger ledger,
      SettlementWatcher watcher, Chain chain) {
    Map<Long, List<LedgerRow>> rowsByWallet = new HashMap<>();
    Map<LedgerRow, Planned> plannedByRow = new HashMap<>();
    for (Planned p : planned) {
      ExpectedTransfer t = p.transfer();
      List<LedgerRow> attempts = ledger.queries().attempts(t.requestId(), t.transferId());
      if (!p.applied()) {
        assertThat(attempts).as("an aborted transfer is never signed: %s", t.ref()).isEmpty();
        continue;
      }
      LedgerStatus status = p.outcome() == SettlementStatus.SETTLED ? LedgerStatus.CONFIRMED : LedgerStatus.FAILED;
      List<LedgerRow> applied = attempts.stream().filter(r -> r.status() == status).toList();
      assertThat(applied).as("%s ledger rows of %s: %s", status, t.ref(), attempts).hasSize(1);
      LedgerRow row = applied.get(0);
      assertThat(row.destination()).isEqualTo(t.destination().toFriendly(false, false));
      if (p.jetton().isEmpty()) {
        assertThat(row.amountNano()).isEqualTo(t.amountNano());
      }
      Settlement s = watcher.settlements(t.ref()).get(0).settlement();
      if (p.outcome() == SettlementStatus.SETTLED) {
        assertThat(s.txHash()).isEqualTo(row.txHash());
        assertThat(s.lt()).isEqualTo(row.lt());
      } else {
        assertThat(row.txHash()).as("the ledger keeps the transaction of a failed transfer's message").isNotNull();
        assertThat(s.txHash()).as("only a SETTLED settlement names a transaction that paid").isNull();
      }
      assertThat(s.seqno()).isEqualTo(row.seqno());
      rowsByWallet.computeIfAbsent(t.subwalletId(), id -> new ArrayList<>()).add(row);
      plannedByRow.put(row, p);
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
      assertThat(chain.devnet().seqno(wallet)).as("devnet seqno of subwallet %d", id).isEqualTo(rows.size());

      List<DevnetTransaction> external = chain.devnet().transactions(wallet).stream()
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
        TonAddress to = plannedByRow.get(row).jetton().isPresent() ? chain.jettonWalletOf(id)
            : TonAddress.parse(row.destination());
        assertThat(tx.outMsgs().get(0).destination()).as("where seqno %d of subwallet %d sent", row.seqno(), id)
            .isEqualTo(to);
      }
    });
  }

  /**
   * Every recipient holds exactly the TON it was sent, plus, per jetton transfer delivered to it,
   * the {@code forward_ton_amount} of the transfer notification its jetton wallet sent on.
   */
  private static void verifyRecipientBalances(PayoutLoad load, List<Planned> planned, Devnet devnet) {
    Map<TonAddress, Long> expected = new HashMap<>(load.expectedReceipts());
    assertThat(expected).hasSizeGreaterThan(2);
    planned.stream().filter(p -> p.jetton().isPresent() && p.outcome() == SettlementStatus.SETTLED)
        .forEach(p -> expected.merge(p.transfer().destination(), JettonCatalog.DEFAULT_FORWARD_NANO, Long::sum));
    expected.forEach((recipient, sum) ->
        assertThat(devnet.balance(recipient)).as("balance of %s", recipient.toRaw()).isEqualTo(sum));
  }

  /**
   * The recipients' jetton wallets hold exactly the sums paid to them, every payer's went down by
   * exactly what it paid (a refused transfer re-credited), and the locked receiver kept its one unit.
   */
  private static void verifyJettonBalances(PayoutLoad load, List<Planned> planned, WalletSet wallets,
      TonAddress lockedReceiver, Chain chain) {
    TonAddress master = chain.master().orElseThrow();
    Map<TonAddress, BigInteger> received = load.expectedJettonReceipts();
    assertThat(received).as("recipients of the jetton").isNotEmpty();
    received.forEach((recipient, sum) -> assertThat(chain.devnet().jettonWallet(master, recipient).balance())
        .as("jettons of %s", recipient.toRaw()).isEqualTo(sum));
    Map<Long, BigInteger> paid = new HashMap<>();
    planned.stream().filter(p -> p.jetton().isPresent() && p.outcome() == SettlementStatus.SETTLED)
        .forEach(p -> paid.merge(p.transfer().subwalletId(), p.jetton().get().amount(), BigInteger::add));
    assertThat(paid.values().stream().reduce(BigInteger.ZERO, BigInteger::add))
        .isEqualTo(received.values().stream().reduce(BigInteger.ZERO, BigInteger::add));
    for (long id : wallets.subwalletIds()) {
      assertThat(chain.devnet().jettonWallet(master, wallets.address(id)).balance())
          .as("jettons of paying subwallet %d", id).isEqualTo(MINTED.subtract(paid.getOrDefault(id, BigInteger.ZERO)));
    }
    assertThat(chain.devnet().jettonWallet(master, lockedReceiver).balance()).as("the locked receiver's jettons")
        .isEqualTo(BigInteger.ONE);
  }
}
