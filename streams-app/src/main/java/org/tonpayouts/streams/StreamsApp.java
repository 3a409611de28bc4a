package org.tonpayouts.streams;

import java.time.Clock;
import java.time.Duration;
import java.util.Properties;
import javax.sql.DataSource;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.StreamsProperties;
import org.tonpayouts.schemas.PayoutRequestValidator;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.metrics.PayoutMetrics;
import org.tonpayouts.streams.topology.PayoutTopology;
import org.tonpayouts.streams.validation.RequestRules;
import org.tonpayouts.streams.validation.RequestValidationProcessor;
import org.tonpayouts.streams.wallet.IssuingRound;
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

  /** Messages per transfer before it is given up as FAILED (each one provably expired unapplied). */
  public static final int MAX_ATTEMPTS = 5;

  private final KafkaStreams streams;
  private final Topology topology;
  private final PayoutsConfig config;

  public StreamsApp(PayoutsConfig config, WalletKey key, TonApi api, DataSource ledgerDataSource, Clock clock,
      PayoutMetrics metrics) {
    Ledger.migrate(ledgerDataSource);
    this.config = config;
    this.topology = topology(config, key, api, new Ledger(ledgerDataSource, clock), clock, metrics);
    Properties props = StreamsProperties.base(config, config.getString(PayoutsConfig.STREAMS_APPLICATION_ID_CONFIG));
    this.streams = new KafkaStreams(topology, props);
    streams.setUncaughtExceptionHandler(e -> {
      // Infrastructure trouble (database, broker) is retried by a fresh thread from the last commit;
      // bad records never get here (they are rejected or skipped where they are read).
      log.error("stream thread died, replacing it", e);
      return StreamThreadExceptionResponse.REPLACE_THREAD;
    });
  }

  /** The topology streams-app runs, wired to its collaborators; driver and broker tests call this too. */
  public static Topology topology(PayoutsConfig config, WalletKey key, TonApi api, Ledger ledger, Clock clock,
      PayoutMetrics metrics) {
    Subwallets subwallets = new Subwallets(key, config.workchain());
    TransferSigner signer = new TransferSigner(subwallets);
    IssuingRound round = new IssuingRound(api, signer, ledger, clock, config.validUntilTtl(), config.seqnoFetchTimeout(),
        metrics);
    PayoutRequestValidator validator = PayoutRequestValidator.shared();
    RequestRules rules = new RequestRules(config.subwalletMin(), config.subwalletMax());
    WalletTxProcessor.Dependencies deps = new WalletTxProcessor.Dependencies(round, ledger, subwallets, clock, metrics,
        config.tickInterval(), MAX_ATTEMPTS);
    return PayoutTopology.build(
        () -> new RequestValidationProcessor(validator, rules, clock, metrics),
        () -> new WalletTxProcessor(deps));
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
  }
}
