package org.tonpayouts.runtime.ops;

import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.StartupException;
import org.tonpayouts.runtime.topics.AdminClients;
import org.tonpayouts.runtime.topics.RequiredTopics;
import org.tonpayouts.schemas.Topic;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.ton.api.ProviderPool;
import org.tonpayouts.ton.api.TonApi;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;
import org.tonpayouts.ton.network.TonNetwork;

/**
 * What streams-app and chain-poller do around their topology, in one place: refuse to start on a
 * TON API node of another network than {@code ton.network} or whose clock is off, or on a missing topic; serve metrics and health (Kafka Streams
 * state, Kafka, the TON API and whatever the app adds, e.g. its database) on
 * {@code metrics.port}; close cleanly on SIGTERM; exit non-zero when Kafka Streams stops on an error.
 */
public final class PayoutProcess {
  private static final Logger log = LoggerFactory.getLogger(PayoutProcess.class);
  /** The TON API check of readiness runs at most this often: probes must not spend the API budget. */
  static final Duration TON_CHECK_EVERY = Duration.ofSeconds(10);
  static final Duration CHECK_TIMEOUT = Duration.ofSeconds(3);

  private final String name;
  private final PayoutsConfig config;
  private final Optional<Path> configFile;
  private final ProcessMetrics metrics;
  private final Clock clock;
  private final Map<String, HealthCheck> readinessChecks = new LinkedHashMap<>();
  private final ExecutorService checkExecutor = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "health-check");
    t.setDaemon(true);
    return t;
  });

  /**
   * @param name the process, e.g. {@code streams-app}: the {@code application} tag and the log prefix
   * @param configFile the file the configuration came from, quoted in the hints of start-up errors
   */
  public PayoutProcess(String name, PayoutsConfig config, Optional<Path> configFile, ProcessMetrics metrics,
      Clock clock) {
    this.name = Objects.requireNonNull(name, "name");
    this.config = Objects.requireNonNull(config, "config");
    this.configFile = Objects.requireNonNull(configFile, "configFile");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Reads the TON API node's global id (configuration parameter 19) and refuses to start unless it
   * is the one of {@code ton.network}, which must be set. Both apps run it first: nothing is signed
   * or concluded on a node of another network.
   *
   * @throws StartupException when {@code ton.network} is not set, or naming the URL and both
   *     networks and ids on a mismatch, or the cause when the node cannot be read
   */
  public TonNetwork verifyNetwork(TonApi api) {
    TonApiConfig apiConfig = config.tonApi();
    return verifyNetwork(api, "default", apiConfig, PayoutsConfig.TON_API_URL_CONFIG);
  }

  /**
   * {@link #verifyNetwork(TonApi)} for every provider of the pool: one of another network (or one
   * that cannot be read) refuses the start, naming its URL; the pool would otherwise route calls
   * to it whenever the others fail.
   */
  public TonNetwork verifyNetwork(ProviderPool pool) {
    TonNetwork network = null;
    boolean list = !config.getString(PayoutsConfig.TON_API_URLS_CONFIG).isBlank();
    for (ProviderPool.Provider p : pool.providers()) {
      network = verifyNetwork(p.api(), p.name(), apiConfigOf(p), list ? "provider '" + p.name() + "' of "
          + PayoutsConfig.TON_API_URLS_CONFIG : PayoutsConfig.TON_API_URL_CONFIG);
    }
    return network;
  }

  private TonNetwork verifyNetwork(TonApi api, String provider, TonApiConfig apiConfig, String setting) {
    TonNetwork expected;
    try {
      expected = config.requiredTonNetwork();
    } catch (ConfigException e) {
      throw new StartupException(e.getMessage(), e);
    }
    TonNetwork network = new NodeNetwork(api, apiConfig.baseUrl(), expected,
        apiConfig.callTimeout().multipliedBy(apiConfig.maxReadAttempts()).plusSeconds(1), setting).verify();
    log.info("ton api node network checked process={} provider={} url={} network={} global_id={}", name, provider,
        apiConfig.baseUrl(), network, network.globalId());
    return network;
  }

  /**
   * Reads the TON API node's clock and refuses to start beyond {@code transfer.clock.skew.seconds};
   * adds the same check (re-run at most every 10 s) to readiness.
   *
   * @throws StartupException naming the URL and the cause
   */
  public NodeClock.Reading verifyNodeClock(TonApi api) {
    TonApiConfig apiConfig = config.tonApi();
    NodeClock nodeClock = nodeClock(api, apiConfig.baseUrl(), apiConfig);
    NodeClock.Reading reading = verifyNodeClock(nodeClock, "default");
    readinessChecks.put("tonApi", new TimedCheck(nodeClock.check(), CHECK_TIMEOUT, TON_CHECK_EVERY, clock,
        checkExecutor));
    return reading;
  }

  /**
   * {@link #verifyNodeClock(TonApi)} for every provider of the pool (each one's answers carry its
   * own time, and expiry is judged by it); readiness reads the clock through the pool, so it is up
   * while some provider answers in time. Returns the first provider's reading.
   */
  public NodeClock.Reading verifyNodeClock(ProviderPool pool) {
    NodeClock.Reading first = null;
    for (ProviderPool.Provider p : pool.providers()) {
      NodeClock.Reading reading = verifyNodeClock(nodeClock(p.api(), p.url(), apiConfigOf(p)), p.name());
      first = first == null ? reading : first;
    }
    URI label = pool.providers().size() == 1 ? pool.providers().get(0).url()
        : URI.create("urn:ton-api-providers:" + String.join(",", pool.providers().stream()
            .map(ProviderPool.Provider::name).toList()));
    readinessChecks.put("tonApi", new TimedCheck(nodeClock(pool, label, config.tonApi()).check(), CHECK_TIMEOUT,
        TON_CHECK_EVERY, clock, checkExecutor));
    return first;
  }

  private NodeClock nodeClock(TonApi api, URI url, TonApiConfig apiConfig) {
    return new NodeClock(api, url, clock, config.clockSkewMargin(),
        apiConfig.callTimeout().multipliedBy(apiConfig.maxReadAttempts()).plusSeconds(1));
  }

  private NodeClock.Reading verifyNodeClock(NodeClock nodeClock, String provider) {
    NodeClock.Reading reading = nodeClock.verify();
    log.info("ton api node clock checked provider={} url={} node_time={} skew_ms={} max_skew_s={}", provider,
        reading.url(), reading.nodeTime(), reading.skew().toMillis(), reading.maxSkew().toSeconds());
    return reading;
  }

  /** The settings the provider's client was made with: its own timeouts (one attempt each in a pool of several). */
  private static TonApiConfig apiConfigOf(ProviderPool.Provider p) {
    return p.api() instanceof TonApiClient client ? client.config() : TonApiConfig.of(p.url());
  }

  /**
   * Checks that every topic {@code topology} reads or writes exists and that co-partitioned topics
   * agree.
   *
   * @throws StartupException naming the missing topics and the command that creates them
   */
  public void verifyTopics(Topology topology) {
    verifyTopics(topology, List.of());
  }

  /**
   * {@link #verifyTopics(Topology)}, and also {@code alsoWritten}: topics the process writes outside
   * its topology (streams-app's outbox publisher writes {@code payout.audit}).
   */
  public void verifyTopics(Topology topology, Collection<String> alsoWritten) {
    Set<String> required = new LinkedHashSet<>(RequiredTopics.of(topology));
    required.addAll(alsoWritten);
    try (AdminClients.Session session = AdminClients.open(config, name + "-topic-check")) {
      RequiredTopics.verify(session.admin(), config.bootstrapServers(), required,
          Topics.CO_PARTITIONED.stream().map(Topic::name).toList(), AdminClients.TIMEOUT,
          RequiredTopics.createCommand(configFile));
    }
    log.info("topics checked process={} topics={}", name, required);
  }

  /** Adds a readiness check that may block (a database): bounded to 3 s, re-run at most every 2 s. */
  public PayoutProcess readyWhen(String checkName, HealthCheck check) {
    readinessChecks.put(checkName, new TimedCheck(check, CHECK_TIMEOUT, Duration.ofSeconds(2), clock, checkExecutor));
    return this;
  }

  /**
   * Adds the {@code kafka} readiness check: the cluster describes its brokers through {@code admin}
   * within the timeout. Kafka Streams stays RUNNING while the brokers are away (its threads retry
   * and warn), so readiness asks the cluster itself.
   */
  public PayoutProcess readyWhenKafkaAnswers(Admin admin) {
    return readyWhen("kafka", new KafkaCheck(admin, CHECK_TIMEOUT.minusMillis(500)));
  }

  /** The health of {@code streams} plus the readiness checks added so far. */
  public Health health(KafkaStreams streams) {
    Health health = new Health()
        .live("streams", StreamsChecks.live(streams))
        .ready("streams", StreamsChecks.ready(streams));
    readinessChecks.forEach(health::ready);
    return health;
  }

  /**
   * Binds the streams' metrics, serves {@code metrics.port} (when not 0), starts the streams with
   * {@code start}, and blocks until they stop: after SIGTERM/SIGINT (the hook runs {@code close}, a
   * clean close) or when Kafka Streams stops on an error.
   *
   * @return 0 after a clean stop, 1 when Kafka Streams ended in ERROR
   */
  public int runUntilStopped(KafkaStreams streams, Runnable start, Runnable close) throws InterruptedException {
    metrics.bind(streams);
    CountDownLatch stopped = new CountDownLatch(1);
    streams.setStateListener((now, before) -> {
      log.info("state change process={} from={} to={}", name, before, now);
      metrics.onStateChange(streams, now);
      if (now == KafkaStreams.State.NOT_RUNNING || now == KafkaStreams.State.ERROR) {
        stopped.countDown();
      }
    });
    AdminClients.Session kafka = AdminClients.open(config, name + "-health");
    readyWhenKafkaAnswers(kafka.admin());
    Health health = health(streams);
    OpsServer ops = config.metricsPort() == 0 ? null : OpsServer.start(config, metrics::scrape, health);
    Thread hook = new Thread(() -> {
      log.info("shutdown requested process={}: closing", name);
      close.run();
      stopped.countDown();
    }, name + "-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      start.run();
      stopped.await();
      KafkaStreams.State state = streams.state();
      if (state == KafkaStreams.State.ERROR) {
        log.error("kafka streams stopped on an error process={}: exiting", name);
      }
      return state == KafkaStreams.State.ERROR ? 1 : 0;
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // the JVM is shutting down: the hook closes
      }
      if (ops != null) {
        ops.close();
      }
      kafka.close();
      checkExecutor.shutdownNow();
    }
  }

  /** Prints a start-up failure as one line on stderr (and the log) and gives the exit code. */
  public static int refuse(String process, StartupException e) {
    // the message says it all; the cause's stack trace only at DEBUG
    log.error("cannot start process={} reason=\"{}\"", process, e.getMessage());
    log.debug("cannot start process={}", process, e);
    System.err.println(process + ": cannot start: " + e.getMessage());
    return StartupException.EXIT_CODE;
  }
}
