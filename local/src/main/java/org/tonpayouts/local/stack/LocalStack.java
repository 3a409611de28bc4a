package org.tonpayouts.local.stack;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.embedded.EmbeddedKafkaBroker;
import org.tonpayouts.embedded.EmbeddedKafkaCluster;
import org.tonpayouts.embedded.EmbeddedPostgresServer;
import org.tonpayouts.embedded.KafkaServers;

/**
 * The in-process half of the local stack: Kafka with the payout topics (one KRaft broker, or a
 * cluster of three for the soak, see {@link Brokers}), a PostgreSQL server with an empty ledger
 * database, and (unless an external TON API is used) devnet.
 * Closing it stops them in reverse order; closing twice is harmless (Ctrl-C and a normal end may race).
 */
public final class LocalStack implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LocalStack.class);
  public static final String LEDGER_DATABASE = "payouts";
  private static final int DEVNET_HTTP_THREADS = 64;

  /** Which Kafka the stack starts. */
  public enum Brokers {
    /** One KRaft broker in this JVM, topics with replication factor 1: the demo, the bench, most tests. */
    ONE,
    /**
     * Three KRaft nodes, each in a child JVM so that a kill is a real {@code kill -9}, with the
     * production settings (replication factor 3, {@code min.insync.replicas} 2): the chaos soak, which
     * kills and restarts brokers.
     */
    CLUSTER_OF_THREE
  }

  private final KafkaServers kafka;
  private final EmbeddedKafkaCluster cluster;
  private final EmbeddedPostgresServer postgres;
  private final Devnet devnet;
  private final List<AutoCloseable> closeInOrder;
  private boolean closed;

  private LocalStack(KafkaServers kafka, EmbeddedPostgresServer postgres, Devnet devnet,
      List<AutoCloseable> closeInOrder) {
    this.kafka = kafka;
    this.cluster = kafka instanceof EmbeddedKafkaCluster c ? c : null;
    this.postgres = postgres;
    this.devnet = devnet;
    this.closeInOrder = closeInOrder;
  }

  /**
   * Starts everything (about 6 s on a warm machine).
   *
   * @param partitions partitions of every payout topic
   * @param blockInterval devnet's block interval; empty: no devnet (an external TON API is used)
   */
  public static LocalStack start(int partitions, Optional<Duration> blockInterval) {
    return start(partitions, blockInterval, Brokers.ONE);
  }

  /** Starts everything with {@code brokers} as Kafka. */
  public static LocalStack start(int partitions, Optional<Duration> blockInterval, Brokers brokers) {
    List<AutoCloseable> started = new ArrayList<>();
    try {
      KafkaServers kafka = brokers == Brokers.ONE ? EmbeddedKafkaBroker.start()
          : EmbeddedKafkaCluster.builder().childJvms(true).start();
      started.add(kafka);
      // one broker: replication factor 1; the cluster: its default, 3
      PipelineTopics.create(kafka.admin(), kafka.bootstrapServers(), partitions,
          brokers == Brokers.ONE ? Optional.of((short) 1) : Optional.empty());
      // synchronous_commit stays on (the class default): ledger commits reach the WAL before sendBoc
      EmbeddedPostgresServer postgres = EmbeddedPostgresServer.start();
      started.add(postgres);
      postgres.createDatabase(LEDGER_DATABASE);
      Devnet devnet = null;
      if (blockInterval.isPresent()) {
        // injected latency holds one server thread per request, and up to four processes share devnet
        devnet = Devnet.builder().blockInterval(blockInterval.get()).httpThreads(DEVNET_HTTP_THREADS).start();
        started.add(devnet);
      }
      log.info("local stack started kafka={} postgres={} devnet={} partitions={}", kafka.bootstrapServers(),
          postgres.jdbcUrl(LEDGER_DATABASE), devnet == null ? "none" : devnet.baseUrl(), partitions);
      Collections.reverse(started);
      return new LocalStack(kafka, postgres, devnet, started);
    } catch (RuntimeException e) {
      Collections.reverse(started);
      closeAll(started);
      throw e;
    }
  }

  public KafkaServers kafka() {
    return kafka;
  }

  /** The cluster, when the stack started one ({@link Brokers#CLUSTER_OF_THREE}). */
  public Optional<EmbeddedKafkaCluster> cluster() {
    return Optional.ofNullable(cluster);
  }

  public EmbeddedPostgresServer postgres() {
    return postgres;
  }

  public Optional<Devnet> devnet() {
    return Optional.ofNullable(devnet);
  }

  public String ledgerJdbcUrl() {
    return postgres.jdbcUrl(LEDGER_DATABASE);
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    closeAll(closeInOrder);
  }

  private static void closeAll(List<AutoCloseable> closeables) {
    for (AutoCloseable c : closeables) {
      try {
        c.close();
      } catch (Exception e) {
        log.warn("could not stop {} error={}", c, e.toString());
      }
    }
  }
}
