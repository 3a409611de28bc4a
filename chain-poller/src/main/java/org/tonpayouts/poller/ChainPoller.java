package org.tonpayouts.poller;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Properties;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.StreamThreadFailures;
import org.tonpayouts.runtime.StreamsProperties;
import org.tonpayouts.runtime.trust.VerdictKeys;
import org.tonpayouts.runtime.wakeup.WakeableClientSupplier;
import org.tonpayouts.ton.api.TonApi;

/**
 * One running chain poller: the topology on a {@link KafkaStreams} instance with exactly-once v2,
 * stream threads replaced after transient failures. What {@link ChainPollerMain} runs, and what a
 * launcher or an integration test embeds.
 */
public final class ChainPoller implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ChainPoller.class);
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

  private final Topology topology;
  private final KafkaStreams streams;
  private final WakeableClientSupplier clients = new WakeableClientSupplier();
  private final PollerMetrics metrics;
  private final CloseOptions closeOptions;

  /**
   * Builds (does not start) the poller.
   *
   * @param extraProperties Kafka Streams properties applied over the base ones (tests: state dir,
   *     commit interval); may be empty
   */
  public ChainPoller(PayoutsConfig config, TonApi api, Clock clock, PollerMetrics metrics,
      Properties extraProperties) {
    Objects.requireNonNull(config, "config");
    this.closeOptions = StreamsProperties.closeOptions(config, CLOSE_TIMEOUT);
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.topology = ChainPollerTopology.build(api, clock, PollerSettings.from(config), metrics, clients.threads(),
        verdictKeys(config));
    Properties props = StreamsProperties.base(config, config.getString(PayoutsConfig.POLLER_APPLICATION_ID_CONFIG));
    props.putAll(extraProperties);
    this.streams = new KafkaStreams(topology, props, clients);
    streams.setUncaughtExceptionHandler(uncaughtExceptionHandler());
    streams.setStateListener((now, before) -> log.info("state change from={} to={}", before, now));
  }

  /** The verdict keys, or a refusal to start that says how to make them. */
  private static VerdictKeys verdictKeys(PayoutsConfig config) {
    try {
      return VerdictKeys.from(config);
    } catch (org.apache.kafka.common.config.ConfigException e) {
      throw new org.tonpayouts.runtime.StartupException(e.getMessage(), e);
    }
  }

  /** Logs the topology and starts the stream threads. */
  public void start() {
    log.info("chain-poller topology\n{}", topology.describe());
    streams.start();
  }

  public KafkaStreams streams() {
    return streams;
  }

  public PollerMetrics metrics() {
    return metrics;
  }

  public Topology topology() {
    return topology;
  }

  /**
   * Commits and stops, leaving the consumer group: its partitions move to another instance (or
   * to this one restarted) at once instead of after the session timeout, which would leave every
   * watched wallet unpolled for 45 s. With static membership ({@code streams.group.instance.id})
   * it stays in the group instead, so its own restart gets the same partitions back.
   */
  @Override
  public void close() {
    clients.stayAwake(); // the stream threads see the close at once, not after a poll at rest
    streams.close(closeOptions);
  }

  /** The handler type, for callers wiring their own {@link KafkaStreams}. */
  public static StreamsUncaughtExceptionHandler uncaughtExceptionHandler() {
    return StreamThreadFailures.handler(t -> false);
  }
}
