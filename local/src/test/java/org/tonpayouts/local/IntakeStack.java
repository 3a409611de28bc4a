package org.tonpayouts.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.ThreadMetadata;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.devnet.chain.DevnetMessage;
import org.tonpayouts.devnet.chain.DevnetTransaction;
import org.tonpayouts.devnet.chain.jetton.JettonFlavor;
import org.tonpayouts.embedded.EmbeddedKafkaBroker;
import org.tonpayouts.embedded.EmbeddedPostgresServer;
import org.tonpayouts.embedded.SharedTestInfrastructure;
import org.tonpayouts.local.audit.TransferRef;
import org.tonpayouts.local.measure.SettlementWatcher;
import org.tonpayouts.local.stack.PipelineTopics;
import org.tonpayouts.local.stack.RunKey;
import org.tonpayouts.local.stack.WalletSet;
import org.tonpayouts.poller.ChainPoller;
import org.tonpayouts.poller.PollerMetrics;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.schemas.JettonAmount;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.schemas.TransferKind;
import org.tonpayouts.schemas.TransferRequest;
import org.tonpayouts.streams.StreamsApp;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.metrics.PayoutMetrics;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;
import org.tonpayouts.ton.wallet.Subwallets;

/**
 * The whole pipeline (streams-app and chain-poller on a broker of its own, the embedded PostgreSQL
 * ledger, devnet with 100 ms blocks) for black-box intake tests: they write raw bytes to
 * {@code payout.requests} and read {@code payout.rejected}, {@code payout.settlements} and the chain.
 * The broker is private so that no other test's requests reach this app and none of these reach
 * theirs.
 *
 * <p>Amount limits are lowered to {@link #MAX_TRANSFER_NANO} per transfer and
 * {@link #MAX_TOTAL_NANO} per request, so a test can cross them with funds devnet has.
 *
 * <p>streams-app pays one jetton, {@link #JETTON_SYMBOL} (devnet's stablecoin at {@link #jettonMaster}),
 * with limits of {@link #MAX_JETTON_TRANSFER_UNITS} per transfer and {@link #MAX_JETTON_REQUEST_UNITS}
 * per request. A second stablecoin ({@link #unpaidJettonMaster}) is minted to the paying wallets as
 * well but not configured: what keeps it unpaid is intake alone, not the wallets' balances.
 */
final class IntakeStack implements AutoCloseable {
  static final int WALLETS = 3;
  static final int PARTITIONS = 3;
  static final long TON = 1_000_000_000L;
  static final long MAX_TRANSFER_NANO = 10 * TON;
  static final long MAX_TOTAL_NANO = 15 * TON;
  /** Recipients 1..5 are paid by valid requests; 6..10 are named only by hostile ones and must stay empty. */
  static final int VALID_RECIPIENTS = 5;
  static final int RECIPIENTS = 10;
  static final String JETTON_SYMBOL = "USDT";
  static final BigInteger MAX_JETTON_TRANSFER_UNITS = BigInteger.valueOf(10_000_000L);
  static final BigInteger MAX_JETTON_REQUEST_UNITS = BigInteger.valueOf(15_000_000L);
  /** What devnet mints to every paying wallet of both jettons: 1,000 of each. */
  static final BigInteger MINTED_JETTON_UNITS = BigInteger.valueOf(1_000_000_000L);

  private final List<AutoCloseable> resources = new ArrayList<>();
  final EmbeddedKafkaBroker kafka;
  final Devnet devnet;
  final WalletSet wallets;
  final TonAddress jettonMaster;
  final TonAddress unpaidJettonMaster;
  final PayoutMetrics metrics = PayoutMetrics.inMemory();
  final StreamsApp app;
  final ChainPoller poller;
  final SettlementWatcher settlements;
  final RejectionWatcher rejections;
  private final KafkaProducer<String, byte[]> producer;
  private final Set<String> initialThreads;
  /** Valid transfers produced so far, per paying subwallet. */
  private final Map<Long, List<TransferRef>> validByWallet = new HashMap<>();
  /** Units of the jetton the valid requests produced so far pay, per recipient and per paying subwallet. */
  private final Map<TonAddress, BigInteger> validJettonsTo = new HashMap<>();
  private final Map<Long, BigInteger> validJettonsFrom = new HashMap<>();

  IntakeStack(Path tmp) throws Exception {
    kafka = remember(EmbeddedKafkaBroker.start());
    PipelineTopics.create(kafka.admin(), kafka.bootstrapServers(), PARTITIONS);
    EmbeddedPostgresServer postgres = SharedTestInfrastructure.postgres();
    String database = SharedTestInfrastructure.databaseName(IntakeStack.class);
    postgres.createDatabase(database);
    String jdbcUrl = postgres.jdbcUrl(database);
    devnet = remember(Devnet.builder().blockInterval(Duration.ofMillis(100)).start());
    TonApiClient api = remember(new TonApiClient(TonApiConfig.of(devnet.baseUrl()).withRequestsPerSecond(100_000)));
    HikariDataSource ledgerDb = remember(Ledger.pooledDataSource(jdbcUrl, postgres.user(), postgres.password(), 4));
    RunKey key = RunKey.random();
    wallets = new WalletSet(new Subwallets(key.key(), 0), Subwallets.DEFAULT_SUBWALLET_ID, WALLETS, RECIPIENTS);
    wallets.subwalletIds().forEach(id -> devnet.fund(wallets.address(id), 1_000 * TON));
    jettonMaster = devnet.deployJetton(JettonFlavor.STABLECOIN, "https://tonpayouts.local/intake-usdt.json");
    unpaidJettonMaster = devnet.deployJetton(JettonFlavor.STABLECOIN, "https://tonpayouts.local/intake-unpaid.json");
    for (TonAddress master : List.of(jettonMaster, unpaidJettonMaster)) {
      wallets.subwalletIds().forEach(id -> devnet.mintJettons(master, wallets.address(id), MINTED_JETTON_UNITS));
    }

    Map<String, Object> values = new HashMap<>();
    values.put(PayoutsConfig.KAFKA_BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    values.put(PayoutsConfig.STREAMS_APPLICATION_ID_CONFIG, "intake-streams");
    values.put(PayoutsConfig.POLLER_APPLICATION_ID_CONFIG, "intake-poller");
    values.put(PayoutsConfig.STREAMS_STATE_DIR_CONFIG, Files.createDirectories(tmp.resolve("state")).toString());
    values.put(PayoutsConfig.POSTGRES_URL_CONFIG, jdbcUrl);
    values.put(PayoutsConfig.POSTGRES_USER_CONFIG, postgres.user());
    values.put(PayoutsConfig.TON_API_URL_CONFIG, devnet.baseUrl().toString());
    values.put(PayoutsConfig.TON_API_RPS_CONFIG, "100000");
    // intake's rules as on mainnet, the strictest (a testnet-flagged destination is refused); the node is devnet,
    // whose global id nothing here checks (the apps' start-up does: AppStartupChecksTest)
    values.put(PayoutsConfig.TON_NETWORK_CONFIG, "mainnet");
    values.put(PayoutsConfig.VERDICT_MAC_KEYS_CONFIG, "intake:" + "5e".repeat(32));
    values.put(PayoutsConfig.TRANSFER_MAX_AMOUNT_NANO_CONFIG, Long.toString(MAX_TRANSFER_NANO));
    values.put(PayoutsConfig.REQUEST_MAX_TOTAL_NANO_CONFIG, Long.toString(MAX_TOTAL_NANO));
    values.put(PayoutsConfig.JETTONS_CONFIG, JETTON_SYMBOL + " master=" + jettonMaster.toRaw() + " decimals=6"
        + " max.transfer=" + MAX_JETTON_TRANSFER_UNITS + " max.request=" + MAX_JETTON_REQUEST_UNITS);
    PayoutsConfig config = new PayoutsConfig(values);

    app = remember(new StreamsApp(config, key.key(), api, ledgerDb, Clock.systemUTC(), metrics));
    poller = remember(new ChainPoller(config, api, Clock.systemUTC(), PollerMetrics.inMemory(), new Properties()));
    app.start();
    poller.start();
    await("both apps running").atMost(Duration.ofSeconds(120)).until(() ->
        app.streams().state() == KafkaStreams.State.RUNNING && poller.streams().state() == KafkaStreams.State.RUNNING);
    settlements = remember(SettlementWatcher.start(kafka.bootstrapServers(), Clock.systemUTC()));
    rejections = remember(RejectionWatcher.start(kafka.bootstrapServers()));
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    // a hostile producer's megabyte values: the client must not refuse what the broker accepts
    props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 2 * 1024 * 1024);
    producer = remember(new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer()));
    initialThreads = threadNames();
  }

  private <T extends AutoCloseable> T remember(T resource) {
    resources.add(resource);
    return resource;
  }

  /** The partition that owns subwallet {@code id}, as the default partitioner computes it. */
  static int partitionOf(long subwalletId) {
    return BuiltInPartitioner.partitionForKey(Topics.walletKey(subwalletId).getBytes(StandardCharsets.UTF_8), PARTITIONS);
  }

  /** Writes {@code value} with {@code key} (either may be anything, null included) to the wallet's partition. */
  RejectionWatcher.Source send(long subwalletId, String key, byte[] value) {
    try {
      RecordMetadata meta = producer.send(new ProducerRecord<>(Topics.PAYOUT_REQUESTS.name(), partitionOf(subwalletId),
          key, value)).get();
      return new RejectionWatcher.Source(meta.partition(), meta.offset());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("could not produce " + (value == null ? 0 : value.length) + " bytes", e.getCause());
    }
  }

  /** Writes a valid one-transfer request from wallet {@code walletIndex} and remembers what it must pay. */
  TransferRef sendValid(String requestId, int walletIndex, int recipient, long nano, String comment) {
    long subwallet = wallets.subwalletId(walletIndex);
    PayoutRequest request = PayoutRequest.of(requestId, subwallet, List.of(new TransferRequest("t", TransferKind.PAYOUT,
        wallets.recipient(recipient).toFriendly(false, false), nano, comment, null)), Instant.now());
    send(subwallet, request.walletKey(), Topics.PAYOUT_REQUESTS.valueSerde().serializer()
        .serialize(Topics.PAYOUT_REQUESTS.name(), request));
    TransferRef ref = new TransferRef(requestId, "t");
    validByWallet.computeIfAbsent(subwallet, id -> new ArrayList<>()).add(ref);
    return ref;
  }

  /** Writes a valid one-transfer request paying {@code units} of the jetton from wallet {@code walletIndex}. */
  TransferRef sendValidJetton(String requestId, int walletIndex, int recipient, BigInteger units, String comment) {
    long subwallet = wallets.subwalletId(walletIndex);
    PayoutRequest request = PayoutRequest.of(requestId, subwallet, List.of(TransferRequest.ofJetton("t",
        TransferKind.WITHDRAWAL, wallets.recipient(recipient).toFriendly(false, false),
        new JettonAmount(jettonMaster.toFriendly(true, false), units), comment)), Instant.now());
    send(subwallet, request.walletKey(), Topics.PAYOUT_REQUESTS.valueSerde().serializer()
        .serialize(Topics.PAYOUT_REQUESTS.name(), request));
    TransferRef ref = new TransferRef(requestId, "t");
    validByWallet.computeIfAbsent(subwallet, id -> new ArrayList<>()).add(ref);
    validJettonsTo.merge(wallets.recipient(recipient), units, BigInteger::add);
    validJettonsFrom.merge(subwallet, units, BigInteger::add);
    return ref;
  }

  /** Names of the stream threads of both apps now: a replaced thread gets a new name. */
  Set<String> threadNames() {
    Set<String> names = new TreeSet<>();
    app.streams().metadataForLocalThreads().stream().map(ThreadMetadata::threadName).forEach(names::add);
    poller.streams().metadataForLocalThreads().stream().map(ThreadMetadata::threadName).forEach(names::add);
    return names;
  }

  /** Waits until every one of {@code refs} has a settlement and no second one follows. */
  void awaitSettled(List<TransferRef> refs) {
    await("every valid transfer settled").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100))
        .until(() -> settlements.settledCount(refs) == refs.size());
    await("no second settlement").during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5))
        .until(() -> settlements.duplicateCount(refs) == 0);
    for (TransferRef ref : refs) {
      assertThat(settlements.settlements(ref)).as("settlements of %s", ref).hasSize(1);
      assertThat(settlements.settlements(ref).get(0).settlement().status()).as("status of %s", ref)
          .isEqualTo(SettlementStatus.SETTLED);
    }
  }

  /**
   * The chain paid exactly the valid requests: per paying wallet one external transaction per valid
   * transfer, every comment landed byte for byte, the jetton's balances are what the valid jetton
   * requests paid (each recipient their sum, each paying wallet what was minted less its own, and
   * not a unit of the unpaid jetton moved), and no recipient named only by hostile input got
   * anything, TON or jetton.
   */
  void assertChainPaidOnlyValid(Map<TransferRef, String> commentsByRef) {
    validByWallet.forEach((subwallet, refs) -> {
      List<DevnetTransaction> external = devnet.transactions(wallets.address(subwallet)).stream()
          .filter(tx -> tx.inMsg().external()).toList();
      assertThat(external).as("external transactions of subwallet %d", subwallet).hasSize(refs.size());
    });
    List<String> landed = new ArrayList<>();
    validByWallet.keySet().forEach(subwallet -> devnet.transactions(wallets.address(subwallet)).stream()
        .flatMap(tx -> tx.outMsgs().stream()).map(DevnetMessage::comment).filter(c -> c != null).forEach(landed::add));
    for (String comment : commentsByRef.values()) {
      assertThat(landed).as("comments on chain").anySatisfy(c ->
          assertThat(c.getBytes(StandardCharsets.UTF_8)).isEqualTo(comment.getBytes(StandardCharsets.UTF_8)));
    }
    for (int i = VALID_RECIPIENTS + 1; i <= RECIPIENTS; i++) {
      TonAddress untouched = wallets.recipient(i);
      assertThat(devnet.balance(untouched)).as("balance of hostile-only recipient %d", i).isZero();
      for (TonAddress master : List.of(jettonMaster, unpaidJettonMaster)) {
        assertThat(devnet.jettonWallet(master, untouched).balance())
            .as("jettons of %s of hostile-only recipient %d", master, i).isZero();
      }
    }
    validJettonsTo.forEach((recipient, units) -> assertThat(devnet.jettonWallet(jettonMaster, recipient).balance())
        .as("jettons of recipient %s", recipient).isEqualTo(units));
    for (long id : wallets.subwalletIds()) {
      assertThat(devnet.jettonWallet(jettonMaster, wallets.address(id)).balance()).as("jettons of subwallet %d", id)
          .isEqualTo(MINTED_JETTON_UNITS.subtract(validJettonsFrom.getOrDefault(id, BigInteger.ZERO)));
      assertThat(devnet.jettonWallet(unpaidJettonMaster, wallets.address(id)).balance())
          .as("unpaid jettons of subwallet %d", id).isEqualTo(MINTED_JETTON_UNITS);
    }
  }

  /** No stream thread of either app died and was replaced since start-up. */
  void assertNoThreadReplaced() {
    assertThat(threadNames()).as("stream threads").isEqualTo(initialThreads);
    assertThat(app.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
  }

  @Override
  public void close() throws Exception {
    Exception first = null;
    for (int i = resources.size() - 1; i >= 0; i--) {
      try {
        resources.get(i).close();
      } catch (Exception e) {
        if (first == null) {
          first = e;
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
