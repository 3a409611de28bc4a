package org.tonpayouts.embedded;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Apache Kafka KRaft node (broker and controller in one) running inside this JVM: the Kafka
 * of the tests and of the local stack, with no Docker and no child process.
 *
 * <p>It formats its storage with {@code kafka.tools.StorageTool} and runs {@code
 * kafka.server.KafkaRaftServer}, the same classes {@code bin/kafka-server-start.sh} runs, with the
 * single-node settings that transactions (Kafka Streams {@code exactly_once_v2}) need. The
 * controller quorum is static ({@code controller.quorum.voters}), not the dynamic {@code
 * --standalone} form: a static voter carries no endpoint in the formatted log, so a persistent data
 * directory can be restarted on other ports.
 *
 * <p>Start-up takes about 4 s; start one per JVM (see {@link SharedTestInfrastructure}) and isolate
 * tests by topic name.
 */
public final class EmbeddedKafkaBroker implements KafkaServers {
  private static final Logger log = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);

  private static final int NODE_ID = 1;
  private static final int BIND_ATTEMPTS = 3;
  private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);
  private static final int SCRAM_ITERATIONS = 4096;
  /** The listener of {@link Builder#saslSslListener}. */
  private static final String SECURE_LISTENER = "SECURE";

  /** The broker's own loggers and their quiet levels; the clients' loggers are left alone. */
  static final Map<String, String> BROKER_LOG_LEVELS = brokerLogLevels();


  private final KafkaRaftServer server;
  private final Path dataDir;
  private final boolean deleteDataDirOnClose;
  private final int port;
  private final int controllerPort;
  private final int securePort;
  private final Admin admin;
  private final Duration startupTime;
  private boolean closed;

  private EmbeddedKafkaBroker(
      KafkaRaftServer server,
      Path dataDir,
      boolean deleteDataDirOnClose,
      int port,
      int controllerPort,
      int securePort,
      Admin admin,
      Duration startupTime) {
    this.server = server;
    this.dataDir = dataDir;
    this.deleteDataDirOnClose = deleteDataDirOnClose;
    this.port = port;
    this.controllerPort = controllerPort;
    this.securePort = securePort;
    this.admin = admin;
    this.startupTime = startupTime;
  }

  /** A broker on free ports with a temporary data directory that {@link #close()} deletes. */
  public static EmbeddedKafkaBroker start() {
    return builder().start();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** {@code 127.0.0.1:<port>}, for {@code bootstrap.servers}. */
  public String bootstrapServers() {
    return "127.0.0.1:" + port;
  }

  public int port() {
    return port;
  }

  /**
   * {@code 127.0.0.1:<port>} of the SASL_SSL listener ({@link Builder#saslSslListener}): TLS with a
   * certificate for {@code localhost} and {@code 127.0.0.1}, SCRAM-SHA-512 users
   * ({@link #createScramUser}), every request authorized by ACLs.
   *
   * @throws IllegalStateException when the broker has no such listener
   */
  public String secureBootstrapServers() {
    if (securePort == 0) {
      throw new IllegalStateException("this broker has no SASL_SSL listener: start it with saslSslListener(ca)");
    }
    return "127.0.0.1:" + securePort;
  }

  /**
   * Creates (or replaces) a SCRAM-SHA-512 user of the SASL_SSL listener, principal {@code
   * User:<name>}, and waits until the broker knows it.
   */
  public void createScramUser(String name, String password) {
    try {
      admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(name,
              new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, SCRAM_ITERATIONS), password)))
          .all().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      long deadline = System.nanoTime() + ADMIN_TIMEOUT.toNanos();
      // the controller commits the credential; the broker serves it once it applied that metadata
      while (!admin.describeUserScramCredentials(List.of(name)).all()
          .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).containsKey(name)) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the broker did not show SCRAM user " + name + " in " + ADMIN_TIMEOUT);
        }
        TimeUnit.MILLISECONDS.sleep(20); // polling with a deadline, not a guess at how long it takes
      }
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("could not create SCRAM user " + name, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted creating SCRAM user " + name, e);
    }
  }

  public int controllerPort() {
    return controllerPort;
  }

  public Path dataDir() {
    return dataDir;
  }

  /** Wall time from {@link Builder#start()} until the broker answered an admin request. */
  public Duration startupTime() {
    return startupTime;
  }

  /**
   * The broker's admin client, shared and closed by the broker. Tests may use it freely; never close
   * it yourself.
   */
  public Admin admin() {
    return admin;
  }

  /** {@link #createTopics(Map)} through any admin client; the cluster's default replication applies. */
  static void createTopics(Admin admin, Map<String, Integer> partitionsByTopic) {
    List<NewTopic> topics = new ArrayList<>();
    partitionsByTopic.forEach(
        (name, partitions) -> topics.add(new NewTopic(name, Optional.of(partitions), Optional.empty())));
    Map<String, KafkaFuture<Void>> results = admin.createTopics(topics).values();
    List<String> existing = new ArrayList<>();
    for (Map.Entry<String, KafkaFuture<Void>> result : results.entrySet()) {
      try {
        result.getValue().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof TopicExistsException) {
          existing.add(result.getKey());
        } else {
          throw new IllegalStateException("could not create topic " + result.getKey(), e.getCause());
        }
      } catch (TimeoutException e) {
        throw new IllegalStateException("timed out creating topic " + result.getKey(), e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted creating topic " + result.getKey(), e);
      }
    }
    if (!existing.isEmpty()) {
      checkPartitions(admin, existing, partitionsByTopic);
    }
    log.debug("topics created topics={}", partitionsByTopic);
  }

  private static void checkPartitions(Admin admin, List<String> existing, Map<String, Integer> wanted) {
    Map<String, TopicDescription> descriptions;
    try {
      descriptions =
          admin
              .describeTopics(existing)
              .allTopicNames()
              .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("could not describe existing topics " + existing, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted describing topics " + existing, e);
    }
    for (String name : existing) {
      int actual = descriptions.get(name).partitions().size();
      if (actual != wanted.get(name)) {
        throw new IllegalStateException(
            "topic " + name + " exists with " + actual + " partitions, wanted " + wanted.get(name));
      }
    }
  }

  /** Stops the broker and deletes its data directory if it was a temporary one. Idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    long started = System.nanoTime();
    admin.close(Duration.ofSeconds(5));
    server.shutdown();
    server.awaitShutdown();
    if (deleteDataDirOnClose) {
      Directories.deleteRecursively(dataDir);
    }
    log.info(
        "kafka broker stopped port={} took_ms={}",
        port,
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
  }

  /**
   * The settings of one combined broker+controller node on 127.0.0.1, shared by the single broker and
   * {@link EmbeddedKafkaCluster}: {@code voters} is the static quorum ({@code id@host:port,...}),
   * {@code replicas} the replication factor of every topic.
   */
  static Map<String, String> nodeProperties(
      int nodeId, String voters, Path dir, int brokerPort, int quorumPort, int replicas) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("process.roles", "broker,controller");
    p.put("node.id", Integer.toString(nodeId));
    p.put("controller.quorum.voters", voters);
    p.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + quorumPort);
    p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
    p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    p.put("controller.listener.names", "CONTROLLER");
    p.put("inter.broker.listener.name", "PLAINTEXT");
    p.put("log.dirs", dir.resolve("logs").toString());
    p.put("num.partitions", "1");
    // Every topic, internal ones included, gets `replicas` copies (one node: one, or the internal
    // topics are never created) and needs two of them in sync (one for a single node), so that a
    // committed write survives the loss of any one broker.
    String rf = Integer.toString(replicas);
    String minIsr = Integer.toString(Math.min(2, replicas));
    p.put("default.replication.factor", rf);
    p.put("min.insync.replicas", minIsr);
    p.put("offsets.topic.replication.factor", rf);
    p.put("transaction.state.log.replication.factor", rf);
    p.put("transaction.state.log.min.isr", minIsr);
    p.put("share.coordinator.state.topic.replication.factor", rf);
    p.put("share.coordinator.state.topic.min.isr", minIsr);
    // Fewer internal partitions than the default 50: faster first group/transaction on 2 cores.
    p.put("offsets.topic.num.partitions", "5");
    p.put("transaction.state.log.num.partitions", "5");
    p.put("group.initial.rebalance.delay.ms", "0");
    // The controller appends a no-op record to the metadata log this often so that brokers see its
    // high watermark move; every one is written, replicated to, loaded and published by this very
    // node. At the default 500 ms that was half of the broker's CPU at rest, for a cluster of one.
    p.put("metadata.max.idle.interval.ms", "5000");
    // The 128 MB default is allocated eagerly and would quadruple the heap.
    p.put("log.cleaner.dedupe.buffer.size", "2097152");
    return p;
  }

  private static Map<String, String> brokerLogLevels() {
    Map<String, String> levels = new LinkedHashMap<>();
    for (String name :
        List.of(
            "kafka",
            "state.change.logger",
            "org.apache.kafka.server",
            "org.apache.kafka.controller",
            "org.apache.kafka.raft",
            "org.apache.kafka.metadata",
            "org.apache.kafka.image",
            "org.apache.kafka.storage",
            "org.apache.kafka.coordinator",
            "org.apache.kafka.queue",
            "org.apache.kafka.snapshot",
            "org.apache.kafka.security",
            "org.apache.kafka.network",
            "org.apache.kafka.deferred",
            "org.apache.kafka.tools",
            "org.apache.kafka.common.network",
            "org.apache.kafka.common.metrics",
            "org.apache.kafka.common.telemetry",
            "org.apache.kafka.common.security")) {
      levels.put(name, "WARN");
    }
    // Logs every (normal) first start of a fresh node at WARN.
    levels.put("org.apache.kafka.controller.QuorumController", "ERROR");
    return Map.copyOf(levels);
  }

  @Override
  public String toString() {
    return "EmbeddedKafkaBroker[" + bootstrapServers() + ", dataDir=" + dataDir + "]";
  }

  /** Options for {@link EmbeddedKafkaBroker}; every one has a default. */
  public static final class Builder {
    private Path dataDir;
    private int port;
    private int controllerPort;
    private boolean quietLogging = true;
    private CertificateAuthority secureListenerCa;
    private final Map<String, String> properties = new LinkedHashMap<>();

    private Builder() {}

    /**
     * Keeps the broker's data in {@code dir} (created if missing, kept on close, reused when already
     * formatted). Default: a temporary directory deleted on close.
     */
    public Builder dataDir(Path dir) {
      this.dataDir = Objects.requireNonNull(dir, "dir");
      return this;
    }

    /** The client port on 127.0.0.1. Default 0: a free port. */
    public Builder port(int port) {
      this.port = checkPort(port);
      return this;
    }

    /** The controller (KRaft quorum) port on 127.0.0.1. Default 0: a free port. */
    public Builder controllerPort(int port) {
      this.controllerPort = checkPort(port);
      return this;
    }

    /** A broker setting, applied over the defaults (e.g. {@code auto.create.topics.enable}). */
    public Builder property(String key, String value) {
      properties.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
      return this;
    }

    public Builder properties(Map<String, String> extra) {
      extra.forEach(this::property);
      return this;
    }

    /**
     * Adds a SASL_SSL listener on a free port ({@link EmbeddedKafkaBroker#secureBootstrapServers()}), as a
     * secured production cluster has one: TLS with a {@code localhost} certificate issued by {@code ca},
     * SCRAM-SHA-512 logins ({@link EmbeddedKafkaBroker#createScramUser}), and Kafka's {@code
     * StandardAuthorizer} with {@code allow.everyone.if.no.acl.found=false}, so a principal may do only
     * what ACLs grant. The plaintext listener on 127.0.0.1 stays, and its (anonymous) principal is the
     * only super user: it is the broker's own controller link and the tests' administrator
     * ({@link #admin()}), which creates the users and the ACLs.
     */
    public Builder saslSslListener(CertificateAuthority ca) {
      this.secureListenerCa = Objects.requireNonNull(ca, "ca");
      return this;
    }

    /** Whether to set the broker's loggers to WARN when they have no configured level. Default true. */
    public Builder quietLogging(boolean quiet) {
      this.quietLogging = quiet;
      return this;
    }

    /** Formats storage if needed, starts the node and waits until it serves requests. */
    public EmbeddedKafkaBroker start() {
      if (quietLogging) {
        QuietLogging.setUnlessConfigured(BROKER_LOG_LEVELS);
      }
      long started = System.nanoTime();
      boolean temporary = dataDir == null;
      Path dir = temporary ? Directories.createTemp("embedded-kafka-") : Directories.create(dataDir);
      RuntimeException lastBindFailure = null;
      for (int attempt = 1; attempt <= BIND_ATTEMPTS; attempt++) {
        int brokerPort = port != 0 ? port : FreePorts.pick();
        int quorumPort = controllerPort != 0 ? controllerPort : FreePorts.pick();
        int securePort = secureListenerCa != null ? FreePorts.pick() : 0;
        try {
          return startOnce(dir, temporary, brokerPort, quorumPort, securePort, started);
        } catch (RuntimeException e) {
          boolean portsChosenHere = port == 0 || controllerPort == 0;
          if (!isBindFailure(e) || !portsChosenHere) {
            if (temporary) {
              Directories.deleteRecursively(dir);
            }
            throw e;
          }
          log.warn("kafka port taken, retrying attempt={} port={} controller_port={}", attempt, brokerPort, quorumPort);
          lastBindFailure = e;
        }
      }
      if (temporary) {
        Directories.deleteRecursively(dir);
      }
      throw lastBindFailure;
    }

    private EmbeddedKafkaBroker startOnce(
        Path dir, boolean temporary, int brokerPort, int quorumPort, int securePort, long startedNanos) {
      Properties config = serverProperties(dir, brokerPort, quorumPort, securePort);
      Path configFile = dir.resolve("server.properties");
      writeProperties(config, configFile);
      formatIfNeeded(dir, configFile, Uuid.randomUuid().toString());

      KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(config, false), Time.SYSTEM);
      try {
        server.startup();
      } catch (RuntimeException e) {
        stopQuietly(server);
        throw e;
      }
      Admin admin = null;
      try {
        admin = Admin.create(adminConfig(brokerPort));
        int nodes =
            admin
                .describeCluster()
                .nodes()
                .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .size();
        if (nodes != 1) {
          throw new IllegalStateException("expected one broker, the cluster reports " + nodes);
        }
      } catch (ExecutionException | TimeoutException | RuntimeException e) {
        if (admin != null) {
          admin.close(Duration.ZERO);
        }
        stopQuietly(server);
        throw new IllegalStateException("kafka broker did not become ready on port " + brokerPort, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        admin.close(Duration.ZERO);
        stopQuietly(server);
        throw new IllegalStateException("interrupted while starting kafka", e);
      }
      Duration took = Duration.ofNanos(System.nanoTime() - startedNanos);
      log.info(
          "kafka broker started bootstrap=127.0.0.1:{} controller_port={} data_dir={} took_ms={}",
          brokerPort,
          quorumPort,
          dir,
          took.toMillis());
      return new EmbeddedKafkaBroker(server, dir, temporary, brokerPort, quorumPort, securePort, admin, took);
    }

    private Properties serverProperties(Path dir, int brokerPort, int quorumPort, int securePort) {
      Map<String, String> p = new LinkedHashMap<>(
          nodeProperties(NODE_ID, NODE_ID + "@127.0.0.1:" + quorumPort, dir, brokerPort, quorumPort, 1));
      if (secureListenerCa != null) {
        p.putAll(saslSslProperties(dir, brokerPort, quorumPort, securePort));
      }
      p.putAll(properties);
      Properties props = new Properties();
      props.putAll(p);
      return props;
    }

    /** The SASL_SSL listener beside the plaintext one, SCRAM-SHA-512 logins and ACLs enforced. */
    private Map<String, String> saslSslProperties(Path dir, int brokerPort, int quorumPort, int securePort) {
      char[] password = Uuid.randomUuid().toString().toCharArray();
      Path keyStore = secureListenerCa.issueLocalhost("embedded-kafka")
          .writeKeyStore(dir.resolve("broker-keystore.p12"), "broker", password);
      String prefix = "listener.name." + SECURE_LISTENER.toLowerCase(Locale.ROOT) + ".";
      Map<String, String> p = new LinkedHashMap<>();
      p.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + "," + SECURE_LISTENER + "://127.0.0.1:" + securePort
          + ",CONTROLLER://127.0.0.1:" + quorumPort);
      p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + "," + SECURE_LISTENER + "://127.0.0.1:"
          + securePort);
      p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT," + SECURE_LISTENER
          + ":SASL_SSL");
      p.put(prefix + "ssl.keystore.type", "PKCS12");
      p.put(prefix + "ssl.keystore.location", keyStore.toString());
      p.put(prefix + "ssl.keystore.password", new String(password));
      p.put(prefix + "ssl.key.password", new String(password));
      p.put(prefix + "sasl.enabled.mechanisms", "SCRAM-SHA-512");
      p.put(prefix + "scram-sha-512.sasl.jaas.config",
          "org.apache.kafka.common.security.scram.ScramLoginModule required;");
      p.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
      p.put("allow.everyone.if.no.acl.found", "false");
      // the plaintext listener (loopback only) and the controller link: the broker itself and the tests' admin
      p.put("super.users", "User:ANONYMOUS");
      return p;
    }

    /** Formats {@code dir} as a node of cluster {@code clusterId} unless it already holds one. */
    static void formatIfNeeded(Path dir, Path configFile, String clusterId) {
      if (Files.exists(dir.resolve("logs").resolve("meta.properties"))) {
        log.debug("kafka storage already formatted data_dir={}", dir);
        return;
      }
      ByteArrayOutputStream output = new ByteArrayOutputStream();
      int exitCode;
      try (PrintStream out = new PrintStream(output, true, StandardCharsets.UTF_8)) {
        exitCode =
            StorageTool.execute(
                new String[] {"format", "-t", clusterId, "-c", configFile.toString()}, out);
      }
      String text = output.toString(StandardCharsets.UTF_8).trim();
      if (exitCode != 0) {
        throw new IllegalStateException("kafka storage format failed exit=" + exitCode + ": " + text);
      }
      log.debug("kafka storage formatted cluster_id={} output={}", clusterId, text);
    }

    private static Properties adminConfig(int brokerPort) {
      return adminConfig("127.0.0.1:" + brokerPort);
    }

    static Properties adminConfig(String bootstrapServers) {
      Properties props = new Properties();
      props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
      props.put(AdminClientConfig.CLIENT_ID_CONFIG, "embedded-kafka-admin");
      props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) ADMIN_TIMEOUT.toMillis());
      return props;
    }

    static void writeProperties(Properties config, Path file) {
      try (OutputStream out = Files.newOutputStream(file)) {
        config.store(out, "written by EmbeddedKafkaBroker; rewritten on every start");
      } catch (IOException e) {
        throw new UncheckedIOException("could not write " + file, e);
      }
    }

    static void stopQuietly(KafkaRaftServer server) {
      try {
        server.shutdown();
        server.awaitShutdown();
      } catch (RuntimeException e) {
        log.debug("kafka shutdown after a failed start also failed", e);
      }
    }

    static boolean isBindFailure(Throwable e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof BindException) {
          return true;
        }
      }
      return false;
    }

    private static int checkPort(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port out of range: " + port);
      }
      return port;
    }
  }
}
