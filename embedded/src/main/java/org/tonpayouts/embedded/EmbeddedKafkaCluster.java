package org.tonpayouts.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Three real Apache Kafka KRaft nodes inside this JVM, each a combined broker+controller on its own
 * ports and data directory: the cluster the chaos soak and the failover tests stop brokers in,
 * shaped like the production cluster the docs recommend (replication factor 3, {@code
 * min.insync.replicas} 2, the transaction state log and the offsets topic likewise).
 *
 * <p>Each node runs {@code kafka.server.KafkaRaftServer} with the settings of {@link
 * EmbeddedKafkaBroker} ({@link EmbeddedKafkaBroker#nodeProperties}, one place for both) and a static
 * quorum of the three voters. {@link #stop(int)} and {@link #restart(int)} take one node down and
 * bring it back on the same ports and data directory; {@link #stop(Collection)} and {@link
 * #restart(Collection)} do it to several together, e.g. to the whole cluster ({@link #nodeIds()}).
 *
 * <p><b>How abrupt a stop is.</b> In-process, a node cannot be killed with {@code -9}: its threads
 * can only be asked to stop. The nodes therefore run with {@code controlled.shutdown.enable=false}:
 * a stopping broker does not ask the controller to move its leaderships away first, so they stay on
 * it until the controller fences it (no heartbeat for {@code broker.session.timeout.ms}), and
 * clients see disconnects and stale leaders exactly as after a crash. After the stop the node's
 * clean-shutdown marker ({@code .kafka_cleanshutdown}) is deleted, so the restart recovers its logs
 * and registers with no previous broker epoch, as after a crash. What is still gentler than {@code kill -9}: the stopping node flushes
 * its logs, closes its sockets (clients see a reset rather than a silent peer) and, when it leads the
 * KRaft quorum, resigns so the other voters elect at once. For a true {@code kill -9}, start the
 * cluster with {@link Builder#childJvms(boolean) childJvms(true)}: each node then runs in a child JVM
 * and a stop is {@code SIGKILL}.
 *
 * <p>Start-up took 3 to 9 s on two shared cores (the three nodes start together: a broker waits for
 * a quorum), {@link #close()} about 5 s (the last quorum leader waits out KRaft's graceful-shutdown
 * timeout, as no other voter is left to take over). Start one per test class and isolate tests by
 * topic name.
 */
public final class EmbeddedKafkaCluster implements KafkaServers {
  private static final Logger log = LoggerFactory.getLogger(EmbeddedKafkaCluster.class);

  /** The number of nodes: three voters, replication factor 3, two in sync. */
  public static final int NODES = 3;
  private static final int REPLICAS = 3;
  private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);
  private static final int BIND_ATTEMPTS = 3;
  /** Written by a node's log manager on a clean shutdown; its absence makes the next start a recovery. */
  private static final String CLEAN_SHUTDOWN_FILE = ".kafka_cleanshutdown";

  private final Path rootDir;
  private final boolean deleteOnClose;
  private final Map<Integer, Node> nodes;
  private final String bootstrapServers;
  private final Admin admin;
  private final Duration startupTime;
  private final boolean childJvms;
  private boolean closed;

  private EmbeddedKafkaCluster(Path rootDir, boolean deleteOnClose, Map<Integer, Node> nodes, Admin admin,
      Duration startupTime, boolean childJvms) {
    this.childJvms = childJvms;
    this.rootDir = rootDir;
    this.deleteOnClose = deleteOnClose;
    this.nodes = nodes;
    this.bootstrapServers =
        nodes.values().stream().map(n -> "127.0.0.1:" + n.brokerPort).collect(Collectors.joining(","));
    this.admin = admin;
    this.startupTime = startupTime;
  }

  /** A cluster on free ports in a temporary directory that {@link #close()} deletes. */
  public static EmbeddedKafkaCluster start() {
    return builder().start();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The three brokers' {@code 127.0.0.1:<port>}, for {@code bootstrap.servers}. */
  public String bootstrapServers() {
    return bootstrapServers;
  }

  /** The node ids, 1 to {@value #NODES}. */
  public List<Integer> nodeIds() {
    return List.copyOf(nodes.keySet());
  }

  /** The client port of node {@code nodeId}; it keeps it across restarts. */
  public int port(int nodeId) {
    return node(nodeId).brokerPort;
  }

  public Path dataDir(int nodeId) {
    return node(nodeId).dir;
  }

  /** Whether node {@code nodeId} is running (not {@link #stop stopped}). */
  public synchronized boolean isRunning(int nodeId) {
    return node(nodeId).running != null;
  }

  /** Wall time from {@link Builder#start()} until all three brokers answered. */
  public Duration startupTime() {
    return startupTime;
  }

  /**
   * The cluster's admin client (bootstrapped on all three, so it survives any one node stopping),
   * shared and closed by the cluster; never close it yourself.
   */
  public Admin admin() {
    return admin;
  }

  /** The node id leading {@code topic}'s partition {@code partition}, as the controller last decided. */
  public int leaderOf(String topic, int partition) {
    TopicPartitionInfo info = partitionInfo(new TopicPartition(topic, partition));
    if (info.leader() == null || info.leader().isEmpty()) {
      throw new IllegalStateException(topic + "-" + partition + " has no leader");
    }
    return info.leader().id();
  }

  /** The node ids in sync for {@code topic}'s partition {@code partition}. */
  public List<Integer> inSyncReplicasOf(String topic, int partition) {
    return partitionInfo(new TopicPartition(topic, partition)).isr().stream()
        .map(org.apache.kafka.common.Node::id)
        .sorted()
        .toList();
  }

  /**
   * Waits until every partition of every topic, internal ones included, has all its replicas in
   * sync: what an operator waits for between two brokers of a rolling restart, since stopping the
   * next one earlier can leave a partition below {@code min.insync.replicas}.
   *
   * @throws IllegalStateException when some are still under-replicated after {@code timeout}
   */
  public void awaitAllInSync(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<String> under = List.of();
    while (System.nanoTime() < deadline) {
      var names = get(admin.listTopics(new ListTopicsOptions().listInternal(true)).names(), "list topics");
      under = get(admin.describeTopics(names).allTopicNames(), "describe topics").values().stream()
          .flatMap(t -> t.partitions().stream()
              .filter(p -> p.isr().size() < p.replicas().size())
              .map(p -> t.name() + "-" + p.partition()))
          .sorted()
          .toList();
      if (under.isEmpty()) {
        return;
      }
      sleepBriefly(); // polling with a deadline, not a guess at how long it takes
    }
    throw new IllegalStateException("under-replicated after " + timeout + ": " + under);
  }

  /** The node id of the active controller: the leader of the KRaft quorum. */
  public int activeController() {
    return get(admin.describeMetadataQuorum().quorumInfo(), "describe the metadata quorum").leaderId();
  }

  /**
   * Stops node {@code nodeId} as abruptly as this JVM allows (see the class comment): no controlled
   * shutdown, and its clean-shutdown marker removed so its restart recovers. Returns when its
   * threads have stopped; its leaderships move once the controller fences it.
   */
  public synchronized void stop(int nodeId) {
    stop(List.of(nodeId));
  }

  /**
   * Stops nodes {@code nodeIds} together, each as {@link #stop(int)} does: with all of them, the
   * whole cluster goes at once (a power cut), and clients find no broker at all. Returns when every
   * one's threads have stopped.
   *
   * @throws IllegalStateException when one of them is already stopped (then none is stopped)
   */
  public synchronized void stop(Collection<Integer> nodeIds) {
    List<Node> stopping = distinctNodes(nodeIds);
    stopping.stream().filter(n -> n.running == null).findFirst().ifPresent(n -> {
      throw new IllegalStateException("node " + n.id + " is already stopped");
    });
    long started = System.nanoTime();
    // in parallel: a voter stopping alone after the others could wait on a quorum they already left
    CompletableFuture.allOf(stopping.stream()
            .map(n -> {
              Running running = n.running;
              n.running = null;
              return CompletableFuture.runAsync(running::kill, runnable -> daemon("kafka-node-stop-" + n.id, runnable));
            })
            .toArray(CompletableFuture[]::new))
        .join();
    for (Node node : stopping) {
      boolean markerRemoved = deleteCleanShutdownMarker(node.dir.resolve("logs"));
      log.info("kafka node stopped node_id={} clean_shutdown_marker_removed={} took_ms={}", node.id, markerRemoved,
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    }
  }

  /**
   * Starts stopped node {@code nodeId} again on its ports and data directory and waits until it is a
   * registered, unfenced broker again. Its replicas then catch up in the background: wait for {@link
   * #inSyncReplicasOf} when a test needs them in sync.
   */
  public synchronized void restart(int nodeId) {
    restart(List.of(nodeId));
  }

  /**
   * Starts stopped nodes {@code nodeIds} together, each as {@link #restart(int)} does, and waits
   * until every running node is a registered, unfenced broker. After the whole cluster stopped this
   * is the only way back: a node started alone waits for a controller quorum, which needs two voters.
   *
   * @throws IllegalStateException when one of them is running (then none is started), or when they
   *     do not all serve within 30 s (then those started are stopped again)
   */
  public synchronized void restart(Collection<Integer> nodeIds) {
    List<Node> starting = distinctNodes(nodeIds);
    starting.stream().filter(n -> n.running != null).findFirst().ifPresent(n -> {
      throw new IllegalStateException("node " + n.id + " is running");
    });
    long started = System.nanoTime();
    try {
      // together: each broker's start-up waits for a controller quorum, which needs two voters up
      List<CompletableFuture<Void>> startups = new ArrayList<>();
      for (Node node : starting) {
        if (childJvms) {
          node.running = ChildJvm.launch(node); // ready when the admin client sees it below
        } else {
          InProcess inProcess = InProcess.create(node.config);
          node.running = inProcess;
          startups.add(CompletableFuture.runAsync(inProcess.server::startup,
              runnable -> daemon("kafka-node-start-" + node.id, runnable)));
        }
      }
      CompletableFuture.allOf(startups.toArray(CompletableFuture[]::new))
          .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      awaitBrokers(runningIds());
      // the cluster may still list a killed node until the controller fences it: ask each one itself
      for (Node node : starting) {
        awaitServing(node);
      }
    } catch (ExecutionException e) {
      abandon(starting);
      throw new IllegalStateException("kafka nodes " + ids(starting) + " did not restart", e.getCause());
    } catch (TimeoutException | RuntimeException e) {
      abandon(starting);
      throw new IllegalStateException("kafka nodes " + ids(starting) + " did not restart", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      abandon(starting);
      throw new IllegalStateException("interrupted while restarting kafka nodes " + ids(starting), e);
    }
    for (Node node : starting) {
      log.info("kafka node restarted node_id={} port={} took_ms={}", node.id, node.brokerPort,
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    }
  }

  /** The nodes of {@code nodeIds}, each once, in the order given; refuses an unknown id or none. */
  private List<Node> distinctNodes(Collection<Integer> nodeIds) {
    if (nodeIds.isEmpty()) {
      throw new IllegalArgumentException("no node given; the nodes are " + nodes.keySet());
    }
    return nodeIds.stream().distinct().map(this::node).toList();
  }

  private static List<Integer> ids(List<Node> nodes) {
    return nodes.stream().map(n -> n.id).toList();
  }

  /** Stops nodes whose restart failed, so that a later restart of them starts afresh. */
  private static void abandon(List<Node> nodes) {
    for (Node node : nodes) {
      if (node.running != null) {
        node.running.stop();
        node.running = null;
      }
    }
  }

  /**
   * Stops the running nodes and deletes the data if it was temporary. Idempotent. Child-JVM nodes
   * whose data is temporary are killed ({@code kill -9}) rather than asked to stop: their data is
   * deleted right after, so a clean shutdown would buy nothing, and it costs about 5 s (the last
   * controller quorum leader waits out KRaft's graceful-resignation timeout with no voter left to
   * take over).
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    admin.close(Duration.ofSeconds(5));
    // all at once: a node stopping alone could wait on a quorum the others already left
    CompletableFuture.allOf(nodes.values().stream()
            .filter(n -> n.running != null)
            .map(n -> {
              Running running = n.running;
              Runnable end = deleteOnClose && running instanceof ChildJvm ? running::kill : running::stop;
              return CompletableFuture.runAsync(end, runnable -> daemon("kafka-node-stop-" + n.id, runnable));
            })
            .toArray(CompletableFuture[]::new))
        .join();
    nodes.values().forEach(n -> n.running = null);
    if (deleteOnClose) {
      Directories.deleteRecursively(rootDir);
    }
    log.info("kafka cluster stopped bootstrap={}", bootstrapServers);
  }

  @Override
  public String toString() {
    return "EmbeddedKafkaCluster[" + bootstrapServers + ", dir=" + rootDir + "]";
  }

  private synchronized List<Integer> runningIds() {
    return nodes.values().stream().filter(n -> n.running != null).map(n -> n.id).toList();
  }

  private Node node(int nodeId) {
    Node node = nodes.get(nodeId);
    if (node == null) {
      throw new IllegalArgumentException("no node " + nodeId + "; the nodes are " + nodes.keySet());
    }
    return node;
  }

  private TopicPartitionInfo partitionInfo(TopicPartition tp) {
    var description = get(admin.describeTopics(List.of(tp.topic())).allTopicNames(), "describe " + tp.topic())
        .get(tp.topic());
    return description.partitions().stream()
        .filter(p -> p.partition() == tp.partition())
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no partition " + tp));
  }

  /** Waits until exactly {@code expected} are the cluster's live (registered, unfenced) brokers. */
  private void awaitBrokers(List<Integer> expected) {
    awaitBrokers(admin, expected);
  }

  /**
   * Until {@code node} itself answers a metadata request on its port, as a restarted broker does
   * once it serves (the cluster's own view can still list a killed node before its fencing).
   */
  private static void awaitServing(Node node) {
    long deadline = System.nanoTime() + ADMIN_TIMEOUT.toNanos();
    try (Admin own = Admin.create(java.util.Map.of(
        org.apache.kafka.clients.admin.AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + node.brokerPort,
        org.apache.kafka.clients.admin.AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000",
        org.apache.kafka.clients.admin.AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "2000"))) {
      RuntimeException last = null;
      while (System.nanoTime() < deadline) {
        try {
          Collection<org.apache.kafka.common.Node> seen = own.describeCluster().nodes().get(2, TimeUnit.SECONDS);
          if (seen.stream().anyMatch(n -> n.id() == node.id)) {
            return;
          }
        } catch (ExecutionException | TimeoutException e) {
          last = new IllegalStateException(e.getMessage(), e);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while waiting for kafka node " + node.id, e);
        }
        sleepBriefly(); // polling with a deadline, not a guess at how long it takes
      }
      throw new IllegalStateException("kafka node " + node.id + " does not serve on port " + node.brokerPort
          + " after " + ADMIN_TIMEOUT, last);
    }
  }

  private static void awaitBrokers(Admin admin, List<Integer> expected) {
    List<Integer> wanted = expected.stream().sorted().toList();
    long deadline = System.nanoTime() + ADMIN_TIMEOUT.toNanos();
    List<Integer> live = List.of();
    while (System.nanoTime() < deadline) {
      live = get(admin.describeCluster().nodes(), "describe the cluster").stream()
          .map(org.apache.kafka.common.Node::id)
          .sorted()
          .toList();
      if (live.equals(wanted)) {
        return;
      }
      sleepBriefly(); // polling with a deadline, not a guess at how long it takes
    }
    throw new IllegalStateException("brokers " + wanted + " not live in " + ADMIN_TIMEOUT + "; live: " + live);
  }

  /** A running node, in this JVM or in a child one. */
  private interface Running {
    /** Stops the node as abruptly as its kind allows (see the class comment). */
    void kill();

    /** Stops the node the ordinary way, for {@link #close()}. */
    void stop();
  }

  /** A node's {@code KafkaRaftServer} in this JVM; killing it is a shutdown without controlled shutdown. */
  private static final class InProcess implements Running {
    private final KafkaRaftServer server;

    private InProcess(KafkaRaftServer server) {
      this.server = server;
    }

    static InProcess create(Properties config) {
      return new InProcess(new KafkaRaftServer(KafkaConfig.fromProps(config, false), Time.SYSTEM));
    }

    @Override
    public void kill() {
      server.shutdown();
      server.awaitShutdown();
    }

    @Override
    public void stop() {
      EmbeddedKafkaBroker.Builder.stopQuietly(server);
    }
  }

  /**
   * A node in a child JVM ({@code kafka.Kafka server.properties} on this JVM's class path): killing
   * it is a real {@code kill -9}. Its output goes to {@code node.log} in its data directory.
   */
  private static final class ChildJvm implements Running {
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private final Process process;

    private ChildJvm(Process process) {
      this.process = process;
    }

    static ChildJvm launch(Node node) {
      Path logConfig = node.dir.resolve("logback-node.xml");
      Path logFile = node.dir.resolve("node.log");
      try {
        Files.writeString(logConfig, "<configuration><appender name=\"out\" class=\"ch.qos.logback.core"
            + ".ConsoleAppender\"><encoder><pattern>%d %-5level [%thread] %logger - %msg%n</pattern></encoder>"
            + "</appender><root level=\"WARN\"><appender-ref ref=\"out\"/></root></configuration>");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
            "-Dlogback.configurationFile=" + logConfig, "-cp", System.getProperty("java.class.path"),
            "kafka.Kafka", node.dir.resolve("server.properties").toString())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
            .start();
        return new ChildJvm(process);
      } catch (IOException e) {
        throw new UncheckedIOException("could not start kafka node " + node.id + " in a child JVM", e);
      }
    }

    @Override
    public void kill() {
      process.destroyForcibly(); // SIGKILL on Linux
      awaitExit(process, STOP_TIMEOUT);
    }

    @Override
    public void stop() {
      process.destroy(); // SIGTERM: Kafka's shutdown hook stops the node
      if (!awaitExit(process, STOP_TIMEOUT)) {
        process.destroyForcibly();
        awaitExit(process, STOP_TIMEOUT);
      }
    }

    private static boolean awaitExit(Process process, Duration timeout) {
      try {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted waiting for a kafka node to exit", e);
      }
    }
  }

  private static boolean deleteCleanShutdownMarker(Path logDir) {
    try {
      return Files.deleteIfExists(logDir.resolve(CLEAN_SHUTDOWN_FILE));
    } catch (IOException e) {
      throw new UncheckedIOException("could not delete the clean-shutdown marker in " + logDir, e);
    }
  }

  private static <T> T get(org.apache.kafka.common.KafkaFuture<T> future, String what) {
    try {
      return future.get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException("could not " + what, e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("timed out trying to " + what, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted trying to " + what, e);
    }
  }

  private static void sleepBriefly() {
    try {
      TimeUnit.MILLISECONDS.sleep(50);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted waiting for the cluster", e);
    }
  }

  private static void daemon(String name, Runnable runnable) {
    Thread thread = new Thread(runnable, name);
    thread.setDaemon(true);
    thread.start();
  }

  /** One node: its fixed ports, directory and configuration, and its process or server while it runs. */
  private static final class Node {
    final int id;
    final int brokerPort;
    final Path dir;
    final Properties config;
    volatile Running running;

    Node(int id, int brokerPort, Path dir, Properties config) {
      this.id = id;
      this.brokerPort = brokerPort;
      this.dir = dir;
      this.config = config;
    }
  }

  /** Options for {@link EmbeddedKafkaCluster}; every one has a default. */
  public static final class Builder {
    private Path dataDir;
    private boolean quietLogging = true;
    private boolean childJvms;
    private final Map<String, String> properties = new LinkedHashMap<>();

    private Builder() {}

    /**
     * Keeps the nodes' data under {@code dir} ({@code node-1}, {@code node-2}, {@code node-3}), kept
     * on close. Default: a temporary directory deleted on close. The ports are chosen anew on each
     * start, which a static quorum allows (its formatted log holds no endpoints); reusing a directory
     * across JVM runs is not tested yet.
     */
    public Builder dataDir(Path dir) {
      this.dataDir = Objects.requireNonNull(dir, "dir");
      return this;
    }

    /**
     * A setting for every node, applied over the defaults; e.g. a shorter {@code
     * broker.session.timeout.ms} (default 9 s) so tests see a stopped broker fenced sooner.
     */
    public Builder property(String key, String value) {
      properties.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
      return this;
    }

    /**
     * Runs each node in a child JVM of its own (about 200 MB each), so that {@link
     * EmbeddedKafkaCluster#stop(int)} is a real {@code kill -9}. Default false: the nodes run in this
     * JVM and a stop is a shutdown without controlled shutdown (see the class comment).
     */
    public Builder childJvms(boolean childJvms) {
      this.childJvms = childJvms;
      return this;
    }

    /** Whether to set the brokers' loggers to WARN when they have no configured level. Default true. */
    public Builder quietLogging(boolean quiet) {
      this.quietLogging = quiet;
      return this;
    }

    /** Formats the three nodes' storage, starts them together and waits until all three serve. */
    public EmbeddedKafkaCluster start() {
      if (quietLogging) {
        QuietLogging.setUnlessConfigured(EmbeddedKafkaBroker.BROKER_LOG_LEVELS);
        // a WARN with the whole fetch request, every second, for each follower of a stopped leader:
        // expected here, where nodes are stopped on purpose
        QuietLogging.setUnlessConfigured(Map.of("kafka.server.ReplicaFetcherThread", "ERROR"));
      }
      long started = System.nanoTime();
      boolean temporary = dataDir == null;
      Path root = temporary ? Directories.createTemp("embedded-kafka-cluster-") : Directories.create(dataDir);
      String clusterId = Uuid.randomUuid().toString();
      RuntimeException lastBindFailure = null;
      for (int attempt = 1; attempt <= BIND_ATTEMPTS; attempt++) {
        try {
          EmbeddedKafkaCluster cluster = startOnce(root, temporary, clusterId, started);
          log.info("kafka cluster started bootstrap={} data_dir={} took_ms={}", cluster.bootstrapServers(), root,
              cluster.startupTime().toMillis());
          return cluster;
        } catch (RuntimeException e) {
          if (!EmbeddedKafkaBroker.Builder.isBindFailure(e)) {
            if (temporary) {
              Directories.deleteRecursively(root);
            }
            throw e;
          }
          // a port picked free was taken before the node bound it; the static quorum lets the
          // formatted directories start again on new ports
          log.warn("kafka port taken, retrying the cluster attempt={}", attempt);
          lastBindFailure = e;
        }
      }
      if (temporary) {
        Directories.deleteRecursively(root);
      }
      throw lastBindFailure;
    }

    private EmbeddedKafkaCluster startOnce(Path root, boolean temporary, String clusterId, long startedNanos) {
      Set<Integer> ports = new HashSet<>();
      while (ports.size() < 2 * NODES) {
        ports.add(FreePorts.pick()); // six distinct ones: two picks may return the same free port
      }
      Iterator<Integer> free = ports.iterator();
      int[] brokerPorts = new int[NODES + 1];
      int[] quorumPorts = new int[NODES + 1];
      List<String> voters = new ArrayList<>();
      for (int id = 1; id <= NODES; id++) {
        brokerPorts[id] = free.next();
        quorumPorts[id] = free.next();
        voters.add(id + "@127.0.0.1:" + quorumPorts[id]);
      }
      Map<Integer, Node> nodes = new LinkedHashMap<>();
      for (int id = 1; id <= NODES; id++) {
        Path dir = Directories.create(root.resolve("node-" + id));
        Map<String, String> p = new LinkedHashMap<>(EmbeddedKafkaBroker.nodeProperties(
            id, String.join(",", voters), dir, brokerPorts[id], quorumPorts[id], REPLICAS));
        // a stopped broker keeps its leaderships until fenced, as after a crash (see the class comment)
        p.put("controlled.shutdown.enable", "false");
        p.putAll(properties);
        Properties config = new Properties();
        config.putAll(p);
        Path configFile = dir.resolve("server.properties");
        EmbeddedKafkaBroker.Builder.writeProperties(config, configFile);
        EmbeddedKafkaBroker.Builder.formatIfNeeded(dir, configFile, clusterId);
        Node node = new Node(id, brokerPorts[id], dir, config);
        nodes.put(id, node);
      }
      // together: each broker's start-up waits for a controller quorum, which needs two voters up
      List<CompletableFuture<Void>> starts = new ArrayList<>();
      for (Node node : nodes.values()) {
        if (childJvms) {
          node.running = ChildJvm.launch(node); // ready when the admin client sees it below
        } else {
          InProcess inProcess = InProcess.create(node.config);
          node.running = inProcess;
          starts.add(CompletableFuture.runAsync(inProcess.server::startup,
              runnable -> daemon("kafka-node-start-" + node.id, runnable)));
        }
      }
      Admin admin = null;
      try {
        CompletableFuture.allOf(starts.toArray(CompletableFuture[]::new))
            .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        admin = Admin.create(EmbeddedKafkaBroker.Builder.adminConfig(
            nodes.values().stream().map(n -> "127.0.0.1:" + n.brokerPort).collect(Collectors.joining(","))));
        awaitBrokers(admin, List.copyOf(nodes.keySet()));
      } catch (ExecutionException e) {
        abandon(admin, nodes);
        throw new IllegalStateException("kafka cluster did not start", e.getCause());
      } catch (TimeoutException | RuntimeException e) {
        abandon(admin, nodes);
        throw new IllegalStateException("kafka cluster did not start", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        abandon(admin, nodes);
        throw new IllegalStateException("interrupted while starting the kafka cluster", e);
      }
      Duration took = Duration.ofNanos(System.nanoTime() - startedNanos);
      return new EmbeddedKafkaCluster(root, temporary, nodes, admin, took, childJvms);
    }

    private static void abandon(Admin admin, Map<Integer, Node> nodes) {
      if (admin != null) {
        admin.close(Duration.ZERO);
      }
      EmbeddedKafkaCluster.abandon(List.copyOf(nodes.values()));
    }
  }
}
