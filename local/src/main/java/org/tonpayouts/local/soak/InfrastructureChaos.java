package org.tonpayouts.local.soak;

import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.devnet.Faults;
import org.tonpayouts.embedded.EmbeddedKafkaCluster;
import org.tonpayouts.embedded.EmbeddedPostgresServer;
import org.tonpayouts.local.stack.ChildConfig;
import org.tonpayouts.local.stack.StackRun;
import org.tonpayouts.schemas.Topics;

/**
 * Carries out the plan's {@link ChaosPlan.InfrastructureFault infrastructure faults} on a thread
 * of its own, one after the other (never two at once: a second broker down would stop every
 * partition with two replicas on the lost nodes, which is an outage of the cluster and not what is
 * tested), beside the processes' chaos: kill -9 of a Kafka node (the cluster's nodes are child
 * JVMs) and its restart, a rolling restart of the three, PostgreSQL stopped and started or frozen
 * and resumed, and a process's own API node down while its backup node carries on. Each fault is
 * recorded as an {@link Episode} for the recovery times of the report.
 */
final class InfrastructureChaos implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(InfrastructureChaos.class);
  /** How long the cluster gets to have every replica in sync again after a restart, before the next fault. */
  private static final Duration IN_SYNC_TIMEOUT = Duration.ofMinutes(3);
  /** Between two nodes of a rolling restart, once all is in sync: what an operator's script would wait. */
  private static final Duration ROLLING_PAUSE = Duration.ofSeconds(1);

  /** The kinds of fault, as the report names them. */
  static final String BROKER_KILL = "broker kill -9";
  static final String ROLLING_RESTART = "rolling restart";
  static final String LEDGER_STOP = "PostgreSQL stop";
  static final String LEDGER_PAUSE = "PostgreSQL pause";
  static final String PROVIDER_OUTAGE = "provider outage";
  static final List<String> KINDS = List.of(BROKER_KILL, ROLLING_RESTART, LEDGER_STOP, LEDGER_PAUSE, PROVIDER_OUTAGE);

  /**
   * One infrastructure fault as it happened.
   *
   * @param kind one of {@link #KINDS}
   * @param what which node, for how long, in words
   * @param startMillis when the fault began
   * @param endMillis when it was over (the node back, PostgreSQL started or resumed, the provider up)
   * @param affected the wallets it could hold up; empty: every wallet
   */
  record Episode(String kind, String what, long startMillis, long endMillis, Set<Long> affected) {
    double seconds() {
      return (endMillis - startMillis) / 1000.0;
    }
  }

  private final ChaosPlan plan;
  private final SoakOptions options;
  private final StackRun run;
  private final PartitionOwnership ownership;
  private final Clock clock;
  private final PrintWriter out;
  private final List<Episode> episodes = new CopyOnWriteArrayList<>();
  private final Thread thread;
  private volatile long windowStart;
  private volatile boolean stopping;
  private volatile boolean done;
  private volatile Throwable failure;

  InfrastructureChaos(ChaosPlan plan, SoakOptions options, StackRun run, PartitionOwnership ownership, Clock clock,
      PrintWriter out) {
    this.plan = plan;
    this.options = options;
    this.run = run;
    this.ownership = ownership;
    this.clock = clock;
    this.out = out;
    this.thread = new Thread(this::runPlan, "soak-infrastructure-chaos");
    thread.setDaemon(true);
  }

  /** Starts the plan's clock at {@code windowStartMillis}. */
  void start(long windowStartMillis) {
    this.windowStart = windowStartMillis;
    thread.start();
  }

  private void runPlan() {
    try {
      for (ChaosPlan.Event event : plan.events()) {
        if (!(event instanceof ChaosPlan.InfrastructureFault fault)) {
          continue;
        }
        long due = windowStart + (long) (fault.at() * options.window().toMillis());
        if (!waitUntil(due)) {
          return;
        }
        log.info("soak infrastructure fault event={}", fault);
        act(fault);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      failure = e;
      log.error("soak infrastructure chaos stopped", e);
    } finally {
      done = true;
    }
  }

  private boolean waitUntil(long millis) throws InterruptedException {
    while (!stopping) {
      long left = millis - clock.millis();
      if (left <= 0) {
        return true;
      }
      Thread.sleep(Math.min(left, 250));
    }
    return false;
  }

  private void act(ChaosPlan.InfrastructureFault fault) throws InterruptedException {
    if (fault instanceof ChaosPlan.BrokerKill k) {
      brokerKill(k);
    } else if (fault instanceof ChaosPlan.RollingRestart) {
      rollingRestart();
    } else if (fault instanceof ChaosPlan.LedgerStop s) {
      ledgerStop(s);
    } else if (fault instanceof ChaosPlan.LedgerPause p) {
      ledgerPause(p);
    } else if (fault instanceof ChaosPlan.ProviderOutage o) {
      providerOutage(o);
    }
  }

  private void brokerKill(ChaosPlan.BrokerKill k) throws InterruptedException {
    EmbeddedKafkaCluster cluster = cluster();
    int node = switch (k.target()) {
      case CONTROLLER -> cluster.activeController();
      case BUSY_LEADER -> cluster.leaderOf(Topics.PAYOUT_REQUESTS.name(), k.node() % run.options().partitions());
      case ANY -> k.node();
    };
    String what = "node " + node + " (" + switch (k.target()) {
      case CONTROLLER -> "the active controller";
      case BUSY_LEADER -> "leader of " + Topics.PAYOUT_REQUESTS.name() + "-" + k.node() % run.options().partitions();
      case ANY -> "any node";
    } + ") down " + seconds(k.downFor());
    long start = clock.millis();
    cluster.stop(node);
    say("kill -9 Kafka %s", what);
    try {
      Thread.sleep(k.downFor().toMillis());
    } finally {
      cluster.restart(node);
    }
    long end = clock.millis();
    episodes.add(new Episode(BROKER_KILL, what, start, end, Set.of()));
    say("Kafka node %d back after %.1f s; waiting for every replica to be in sync", node, (end - start) / 1000.0);
    cluster.awaitAllInSync(IN_SYNC_TIMEOUT);
  }

  private void rollingRestart() throws InterruptedException {
    EmbeddedKafkaCluster cluster = cluster();
    long start = clock.millis();
    say("rolling restart of Kafka nodes %s", cluster.nodeIds());
    for (int node : cluster.nodeIds()) {
      cluster.stop(node);
      try {
        Thread.sleep(ROLLING_PAUSE.toMillis());
      } finally {
        cluster.restart(node);
      }
      cluster.awaitAllInSync(IN_SYNC_TIMEOUT);
      log.info("rolling restart node_id={} back and in sync", node);
    }
    long end = clock.millis();
    episodes.add(new Episode(ROLLING_RESTART, "nodes " + cluster.nodeIds() + " one after the other", start, end,
        Set.of()));
    say("rolling restart done in %.1f s", (end - start) / 1000.0);
  }

  private void ledgerStop(ChaosPlan.LedgerStop s) throws InterruptedException {
    EmbeddedPostgresServer postgres = run.stack().postgres();
    long start = clock.millis();
    postgres.stop();
    say("PostgreSQL stopped for %s", seconds(s.downFor()));
    try {
      Thread.sleep(s.downFor().toMillis());
    } finally {
      postgres.restart();
    }
    long end = clock.millis();
    episodes.add(new Episode(LEDGER_STOP, "stopped " + seconds(s.downFor()), start, end, Set.of()));
    say("PostgreSQL started again after %.1f s", (end - start) / 1000.0);
  }

  private void ledgerPause(ChaosPlan.LedgerPause p) throws InterruptedException {
    EmbeddedPostgresServer postgres = run.stack().postgres();
    long start = clock.millis();
    postgres.pause();
    say("PostgreSQL frozen (SIGSTOP) for %s", seconds(p.pausedFor()));
    try {
      Thread.sleep(p.pausedFor().toMillis());
    } finally {
      postgres.resume();
    }
    long end = clock.millis();
    episodes.add(new Episode(LEDGER_PAUSE, "frozen " + seconds(p.pausedFor()), start, end, Set.of()));
    say("PostgreSQL resumed (SIGCONT) after %.1f s", (end - start) / 1000.0);
  }

  /**
   * The process's own API node answers 503 to everything; its backup node carries on. A
   * streams-app's outage affects the wallets of the partitions it holds at the start, a
   * chain-poller's every wallet (which poller watches which wallet is not in the ledger).
   */
  private void providerOutage(ChaosPlan.ProviderOutage o) throws InterruptedException {
    Devnet devnet = run.stack().devnet().orElseThrow();
    Faults faults = devnet.node(o.node()).faults();
    Set<Long> affected = Set.of();
    if (o.node().startsWith(ChildConfig.STREAMS_APP)) {
      try {
        affected = Set.copyOf(ownership.walletsHeldBy(run.processes().child(o.node())));
      } catch (RuntimeException e) {
        log.warn("cannot tell which wallets {} holds: counting every wallet as affected error={}", o.node(),
            e.toString());
      }
    }
    long start = clock.millis();
    faults.outage(true);
    say("API node of %s down (503) for %s; its backup node stays up", o.node(), seconds(o.downFor()));
    try {
      Thread.sleep(o.downFor().toMillis());
    } finally {
      faults.outage(false);
    }
    long end = clock.millis();
    episodes.add(new Episode(PROVIDER_OUTAGE, "API node of " + o.node() + " down " + seconds(o.downFor())
        + " (" + faults.outageAnswers() + " requests refused so far)", start, end, affected));
    say("API node of %s up again", o.node());
  }

  private EmbeddedKafkaCluster cluster() {
    return run.stack().cluster().orElseThrow(() -> new IllegalStateException(
        "broker faults need the stack's Kafka cluster (LocalStack.Brokers.CLUSTER_OF_THREE)"));
  }

  private static String seconds(Duration d) {
    return String.format("%.1f s", d.toMillis() / 1000.0);
  }

  /** Waits until every planned fault is over; false on timeout. */
  boolean awaitDone(Duration timeout) throws InterruptedException {
    long deadline = clock.millis() + timeout.toMillis();
    while (!done && clock.millis() < deadline) {
      Thread.sleep(250);
    }
    return done;
  }

  List<Episode> episodes() {
    return List.copyOf(episodes);
  }

  Throwable failure() {
    return failure;
  }

  private void say(String format, Object... args) {
    synchronized (out) {
      out.printf("chaos: " + format + "%n", args);
      out.flush();
    }
  }

  /** Stops before the next fault; a fault under way is ended (its finally blocks restore the service). */
  @Override
  public void close() {
    stopping = true;
    thread.interrupt();
    try {
      thread.join(Duration.ofSeconds(60).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
