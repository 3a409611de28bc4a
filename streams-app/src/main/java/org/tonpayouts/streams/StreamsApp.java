package org.tonpayouts.streams;

import java.time.Clock;
import java.time.Duration;
import java.util.Properties;
import javax.sql.DataSource;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.StreamThreadFailures;
import org.tonpayouts.runtime.StreamsProperties;
import org.tonpayouts.schemas.PayoutRequestValidator;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.ledger.LedgerException;
import org.tonpayouts.streams.metrics.PayoutMetrics;
import org.tonpayouts.streams.topology.PayoutTopology;
import org.tonpayouts.streams.validation.RequestRules;
import org.tonpayouts.streams.validation.RequestValidationProcessor;
import org.tonpayouts.streams.io.Resender;
import org.tonpayouts.streams.wallet.IssuingRound;
import org.tonpayouts.streams.wallet.WalletIo;
import org.tonpayouts.streams.wallet.WalletTxDependencies;
import org.tonpayouts.streams.wallet.WalletTxProcessor;
import org.tonpayouts.ton.api.TonApi;
import org.tonpayouts.ton.keys.WalletKey;
import org.tonpayouts.ton.wallet.Subwallets;
import org.tonpayouts.ton.wallet.TransferSigner;

/**
 * Wires streams-app from its configuration: the ledger, the TON API, the signer and the topology,
 * and runs it. Tests build the same object with their own broker, database and devnet.
 */
public final class StreamsApp implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(StreamsApp.class);

  private final KafkaStreams streams;
  private final Topology topology;
  private final Wiring wiring;
  private final PayoutsConfig config;

  public StreamsApp(PayoutsConfig config, WalletKey key, TonApi api, DataSource ledgerDataSource, Clock clock,
      PayoutMetrics metrics) {
    Ledger.migrate(ledgerDataSource);
    this.config = config;
    this.wiring = wire(config, key, api, new Ledger(ledgerDataSource, clock, config.maxAttempts()), clock, metrics);
    this.topology = wiring.topology();
    Properties props = StreamsProperties.base(config, config.getString(PayoutsConfig.STREAMS_APPLICATION_ID_CONFIG),
        metrics.registry());
    this.streams = new KafkaStreams(topology, props);
    // Database, broker and API trouble gets a fresh thread from the last commit; anything else
    // (a bug, an unreadable record on an internal topic) stops the instance loudly.
    streams.setUncaughtExceptionHandler(StreamThreadFailures.handler(t -> t instanceof LedgerException));
  }

  /**
   * The topology streams-app runs with the I/O threads its processors hand their work to; close it
   * after the topology stopped.
   */
  public record Wiring(Topology topology, WalletIo io) implements AutoCloseable {
    @Override
    public void close() {
      io.close();
    }
  }

  /** The topology streams-app runs, wired to its collaborators; driver and broker tests call this too. */
  public static Wiring wire(PayoutsConfig config, WalletKey key, TonApi api, Ledger ledger, Clock clock,
      PayoutMetrics metrics) {
    Subwallets subwallets = new Subwallets(key, config.workchain());
    TransferSigner signer = new TransferSigner(subwallets);
    Resender resender = new Resender(api, ledger, clock, new Resender.Settings(config.resendAfter(),
        config.resendInterval()), metrics);
    IssuingRound round = new IssuingRound(api, signer, ledger, clock, new IssuingRound.Settings(config.validUntilTtl(),
        config.seqnoFetchTimeout(), config.feeReserveNano(), config.maxAttempts()), metrics, resender);
    WalletIo io = new WalletIo(round, ledger, resender);
    PayoutRequestValidator validator = PayoutRequestValidator.shared();
    RequestRules rules = RequestRules.from(config);
    metrics.batchIncomplete(clock, config.batchIncompleteThreshold());
    WalletTxDependencies deps = new WalletTxDependencies(io, ledger, subwallets, clock, metrics,
        new WalletTxDependencies.Settings(config.clockSkewMargin(), config.verdictTimeout(),
            config.walletBacklogMax(), config.dedupRetention()), WalletTxDependencies.processOwner());
    Topology topology = PayoutTopology.build(
        () -> new RequestValidationProcessor(validator, rules, clock, metrics),
        () -> new WalletTxProcessor(deps),
        config.dedupRetention());
    return new Wiring(topology, io);
  }

  public Topology topology() {
    return topology;
  }

  public KafkaStreams streams() {
    return streams;
  }

  public void start() {
    log.info("starting streams-app topology:\n{}", topology.describe());
    streams.start();
  }

  /**
   * Commits and stops. With dynamic membership it leaves the consumer group, so a restarted (or
   * another) instance gets the partitions at once instead of after the session timeout (45 s);
   * with static membership it keeps them reserved for its own restart (StreamsProperties.closeOptions).
   */
  @Override
  public void close() {
    streams.close(StreamsProperties.closeOptions(config, Duration.ofSeconds(30)));
    wiring.close();
  }

  /** The I/O threads of this instance's processors. */
  public WalletIo io() {
    return wiring.io();
  }
}
