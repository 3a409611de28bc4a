package org.tonpayouts.streams;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.StartupException;
import org.tonpayouts.runtime.StreamThreadFailures;
import org.tonpayouts.runtime.StreamsProperties;
import org.tonpayouts.runtime.http.ServerTls;
import org.tonpayouts.runtime.trust.VerdictKeys;
import org.tonpayouts.runtime.wakeup.StreamThreads;
import org.tonpayouts.runtime.wakeup.WakeableClientSupplier;
import org.tonpayouts.schemas.PayoutRequestValidator;
import org.tonpayouts.streams.admin.AdminAccess;
import org.tonpayouts.streams.admin.AdminServer;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.ledger.sql.LedgerException;
import org.tonpayouts.streams.metrics.PayoutMetrics;
import org.tonpayouts.streams.outbox.OutboxPublisher;
import org.tonpayouts.streams.send.Resender;
import org.tonpayouts.streams.send.SendLog;
import org.tonpayouts.streams.send.SendRecorder;
import org.tonpayouts.streams.topology.PayoutTopology;
import org.tonpayouts.streams.validation.DestinationPolicy;
import org.tonpayouts.streams.validation.RequestRules;
import org.tonpayouts.streams.validation.RequestValidationProcessor;
import org.tonpayouts.streams.wallet.IssuingRound;
import org.tonpayouts.streams.wallet.JettonIssuing;
import org.tonpayouts.streams.wallet.PauseWatch;
import org.tonpayouts.streams.wallet.WalletIo;
import org.tonpayouts.streams.wallet.WalletTxDependencies;
import org.tonpayouts.streams.wallet.WalletTxProcessor;
import org.tonpayouts.ton.api.TonApi;
import org.tonpayouts.ton.keys.WalletKey;
import org.tonpayouts.ton.wallet.Subwallets;
import org.tonpayouts.ton.wallet.TransferSigner;

/**
 * Wires streams-app from its configuration: the ledger, the TON API, the signer and the topology,
 * the outbox publisher ({@code payout.audit}, resolution settlements) and the admin API, and runs
 * them. Tests build the same object with their own broker, database and devnet.
 */
public final class StreamsApp implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(StreamsApp.class);

  private final KafkaStreams streams;
  private final WakeableClientSupplier clients = new WakeableClientSupplier();
  private final Topology topology;
  private final Wiring wiring;
  private final PayoutsConfig config;
  private final Ledger ledger;
  private final OutboxPublisher outboxPublisher;
  /** Starts the admin API once the streams exist; null when {@code admin.port} is 0. */
  private final Supplier<AdminServer> adminServer;
  private volatile AdminServer admin;

  public StreamsApp(PayoutsConfig config, WalletKey key, TonApi api, DataSource ledgerDataSource, Clock clock,
      PayoutMetrics metrics) {
    // the credentials and the key store are read now, before anything starts: a wrong one stops streams-app at once
    Optional<AdminAccess> adminAccess = AdminAccess.from(config);
    Optional<ServerTls> adminTls = adminAccess.isPresent() ? AdminServer.tls(config) : Optional.empty();
    prepareSchema(config, ledgerDataSource);
    this.config = config;
    this.ledger = new Ledger(ledgerDataSource, clock, config.maxAttempts(), config.clockSkewMargin(),
        config.spendCaps());
    try {
      this.wiring = wire(config, key, api, ledger, clock, metrics, clients.threads());
    } catch (ConfigException e) {
      throw new StartupException(e.getMessage(), e); // e.g. no verdict keys: the line says how to make them
    }
    this.topology = wiring.topology();
    String applicationId = config.getString(PayoutsConfig.STREAMS_APPLICATION_ID_CONFIG);
    Properties props = StreamsProperties.base(config, applicationId, metrics.registry());
    adminAccess.ifPresent(access -> props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, adminEndpoint(config)));
    this.streams = new KafkaStreams(topology, props, clients);
    // Database, broker and API trouble gets a fresh thread from the last commit; anything else
    // (a bug, an unreadable record on an internal topic) stops the instance loudly.
    streams.setUncaughtExceptionHandler(StreamThreadFailures.handler(t -> t instanceof LedgerException));
    this.outboxPublisher = new OutboxPublisher(ledger,
        OutboxPublisher.producer(config.bootstrapServers(), config.kafkaClients(), applicationId + "-outbox"), metrics,
        config.outboxPollInterval());
    Subwallets subwallets = new Subwallets(key, config.workchain());
    this.adminServer = adminAccess.<Supplier<AdminServer>>map(access -> () -> AdminServer.start(config.adminPort(),
        access, adminTls, config, streams, ledger, subwallets, api, metrics, clock)).orElse(null);
  }

  /**
   * Migrates the ledger's schema, or with {@code postgres.migrate=false} (migrations run by the
   * schema's owner, the service's user without DDL rights) refuses to start on a schema that is not
   * current, naming what is missing and how to apply it.
   */
  /** Migrates the ledger's schema (postgres.migrate) or checks that it is current; the constructor's first step. */
  static void prepareSchema(PayoutsConfig config, DataSource ledgerDataSource) {
    if (config.postgresMigrate()) {
      Ledger.migrate(ledgerDataSource);
      return;
    }
    java.util.List<String> pending = Ledger.pendingMigrations(ledgerDataSource);
    if (!pending.isEmpty()) {
      throw new StartupException("the ledger schema is not current and " + PayoutsConfig.POSTGRES_MIGRATE_CONFIG
          + " is false: " + pending.size() + " migration(s) pending (" + String.join(", ", pending) + "). Run"
          + " `streams-app migrate` with the schema owner's postgres.user and password first (docs/production.md,"
          + " Database roles)", null);
    }
  }

  /**
   * This instance's admin API as the other instances name it ({@code application.server}): Kafka
   * Streams then knows which instance holds each wallet's partition, and the wallet view says where
   * to ask when it is not here.
   */
  private static String adminEndpoint(PayoutsConfig config) {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      host = "localhost";
    }
    return host + ":" + config.adminPort();
  }

  /**
   * The topology streams-app runs with the I/O threads its processors hand their work to; close it
   * after the topology stopped.
   */
  public record Wiring(Topology topology, WalletIo io, PauseWatch pauses) implements AutoCloseable {
    @Override
    public void close() {
      io.close();
      pauses.close();
    }
  }

  /** {@link #wire(PayoutsConfig, WalletKey, TonApi, Ledger, Clock, PayoutMetrics, StreamThreads)} for a TopologyTestDriver. */
  public static Wiring wire(PayoutsConfig config, WalletKey key, TonApi api, Ledger ledger, Clock clock,
      PayoutMetrics metrics) {
    return wire(config, key, api, ledger, clock, metrics, StreamThreads.none());
  }

  /**
   * The topology streams-app runs, wired to its collaborators and to the stream threads of the
   * Kafka Streams instance it runs on; driver and broker tests call this too.
   */
  public static Wiring wire(PayoutsConfig config, WalletKey key, TonApi api, Ledger ledger, Clock clock,
      PayoutMetrics metrics, StreamThreads threads) {
    Subwallets subwallets = new Subwallets(key, config.workchain());
    TransferSigner signer = new TransferSigner(subwallets);
    SendLog sendLog = new SendLog(ledger, clock);
    Resender resender = new Resender(api, sendLog, clock, new Resender.Settings(config.resendAfter(),
        config.resendInterval()), metrics);
    SendRecorder sends = new SendRecorder(ledger, sendLog, resender, metrics, config.seqnoFetchTimeout());
    PauseWatch pauses = PauseWatch.start(ledger, config.pauseRefresh(), metrics);
    IssuingRound round = new IssuingRound(api, signer, ledger, clock, new IssuingRound.Settings(config.validUntilTtl(),
        config.seqnoFetchTimeout(), config.feeReserveNano(), config.maxAttempts(), config.spendCapRecheck()), metrics,
        sends, pauses, new JettonIssuing(api, ledger.jettonWallets(), config.jettons()));
    if (!config.jettons().isEmpty()) {
      log.info("jettons paid {}", config.jettons().all().stream().map(j -> j.symbol() + " master=" + j.master().toRaw()
          + " attach_nano=" + j.attachNano() + " forward_nano=" + j.forwardTonNano()).toList());
    }
    if (config.spendCaps().any()) {
      // a ledger read per scrape, only where caps can hold anything (a deployment without caps reads nothing)
      metrics.spendHolds(() -> ledger.holds().waitingCount());
      log.info("spend caps in force {} recheck_ms={}", config.spendCaps(), config.spendCapRecheck().toMillis());
    }
    WalletIo io = new WalletIo(round, ledger, resender, sends, sendLog, clock);
    PayoutRequestValidator validator = PayoutRequestValidator.shared();
    long indexing = System.nanoTime();
    DestinationPolicy destinations = DestinationPolicy.from(config, subwallets);
    log.info("destination policy {} took_ms={}", destinations.summary(), (System.nanoTime() - indexing) / 1_000_000);
    RequestRules rules = RequestRules.from(config, destinations);
    metrics.batchIncomplete(clock, config.batchIncompleteThreshold());
    WalletTxDependencies deps = new WalletTxDependencies(io, ledger, subwallets, clock, metrics,
        new WalletTxDependencies.Settings(config.clockSkewMargin(), config.verdictTimeout(),
            config.walletBacklogMax(), config.dedupRetention()), WalletTxDependencies.processOwner(), threads);
    Topology topology = PayoutTopology.build(
        () -> new RequestValidationProcessor(validator, rules, clock, metrics),
        () -> new WalletTxProcessor(deps),
        config.dedupRetention(), VerdictKeys.from(config));
    return new Wiring(topology, io, pauses);
  }

  public Topology topology() {
    return topology;
  }

  public KafkaStreams streams() {
    return streams;
  }

  public Ledger ledger() {
    return ledger;
  }

  /** The admin API once started; empty when {@code admin.port} is 0. */
  public Optional<AdminServer> admin() {
    return Optional.ofNullable(admin);
  }

  /** Starts the topology, the outbox publisher and (when configured) the admin API. */
  public void start() {
    log.info("starting streams-app topology:\n{}", topology.describe());
    streams.start();
    outboxPublisher.start();
    if (adminServer != null) {
      admin = adminServer.get();
    }
  }

  /**
   * Commits and stops. With dynamic membership it leaves the consumer group, so a restarted (or
   * another) instance gets the partitions at once instead of after the session timeout (45 s);
   * with static membership it keeps them reserved for its own restart (StreamsProperties.closeOptions).
   */
  @Override
  public void close() {
    if (admin != null) {
      admin.close();
    }
    clients.stayAwake(); // the stream threads see the close at once, not after a poll at rest
    streams.close(StreamsProperties.closeOptions(config, Duration.ofSeconds(30)));
    wiring.close();
    outboxPublisher.close();
  }

  /** The I/O threads of this instance's processors. */
  public WalletIo io() {
    return wiring.io();
  }
}
