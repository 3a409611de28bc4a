package org.tonpayouts.local.soak;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.devnet.Faults;
import org.tonpayouts.local.stack.ChildProcess;
import org.tonpayouts.local.stack.Http;
import org.tonpayouts.local.stack.StackRun;

/**
 * The soak's zombie: a streams-app instance paused with SIGSTOP past its session timeout while a
 * round of it waits for its API node, its partitions taken over by the other instance, then resumed
 * with SIGCONT; and the evidence of what it did once resumed ({@link ZombieEvidence}), read from the
 * ledger, its log and its metrics. {@link SoakChaos} carries it out among its other acts.
 */
final class ZombieAct {
  private static final Logger log = LoggerFactory.getLogger(ZombieAct.class);
  private static final Duration SUPERVISE_EVERY = Duration.ofMillis(250);
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
  /** How slow the zombie's API node gets just before the pause: long enough that a round of it is waiting then. */
  private static final Duration ZOMBIE_NODE_LATENCY = Duration.ofSeconds(3);
  /** How long the zombie's wallets get early requests until one of its rounds waits for a wallet read. */
  private static final Duration ZOMBIE_BAIT_TIMEOUT = Duration.ofSeconds(30);
  /** The toncenter method of streams-app's wallet read (seqno, balance and node time in one answer). */
  private static final String WALLET_READ = "getAddressInformation";
  private static final Duration ZOMBIE_REJOIN_TIMEOUT = Duration.ofSeconds(60);
  private static final Pattern LOGGED_HASH = Pattern.compile(" hash=([0-9a-f]{64})");
  private static final Pattern LOGGED_SUBWALLET = Pattern.compile(" subwallet=(\\d+)");
  /** Kafka Streams' transaction.timeout.ms under exactly-once (its default; the apps keep it). */
  private static final Duration STREAMS_TRANSACTION_TIMEOUT = Duration.ofSeconds(10);

  /** How the act reports its steps (the soak's console). */
  interface Say {
    void say(String format, Object... args);
  }

  private final SoakOptions options;
  private final StackRun run;
  private final Devnet devnet;
  private final SoakLedger ledger;
  private final PartitionOwnership ownership;
  private final SoakProducer producer;
  private final Clock clock;
  private final Runnable supervise;
  private final Say out;

  /**
   * @param producer the load's producer: the zombie's wallets get their next requests early
   * @param supervise restarts any child that exited by itself (run while waiting for a candidate)
   */
  ZombieAct(SoakOptions options, StackRun run, Devnet devnet, SoakLedger ledger, PartitionOwnership ownership,
      SoakProducer producer, Clock clock, Runnable supervise, Say out) {
    this.options = options;
    this.run = run;
    this.devnet = devnet;
    this.ledger = ledger;
    this.ownership = ownership;
    this.producer = producer;
    this.clock = clock;
    this.supervise = supervise;
    this.out = out;
  }

  private void say(String format, Object... args) {
    out.say(format, args);
  }

  /**
   * Pauses a streams-app instance past its session timeout while a round of it waits for its API
   * node (slowed for the moment), so that once resumed it goes on to record what it signed: the
   * case fencing exists for. Waits until another instance took each of its partitions (the ledger
   * shows a newer epoch), resumes it and collects what it did.
   */
  ZombieEvidence pauseAndResume(ChaosPlan.Pause p) throws InterruptedException {
    String name = chooseZombie(p.child());
    ChildProcess zombie = run.processes().child(name);
    String mark = PartitionOwnership.mark(zombie);
    Map<Integer, Long> held = ownership.held(mark);

    Faults nodeFaults = devnet.node(name).faults();
    long latencyBefore = nodeFaults.settings().latencyMs();
    nodeFaults.latency(ZOMBIE_NODE_LATENCY);
    boolean roundWaiting = baitARound(name, nodeFaults, ownership.walletsOf(held.keySet()));
    // what it holds now: it may have taken another partition while the bait was laid
    held = ownership.held(mark);
    Set<Long> heldWallets = ownership.walletsOf(held.keySet());
    Instant pausedAt = clock.instant();
    zombie.pause();
    say("SIGSTOP %s (pid %d, partitions %s) until another instance takes them", name, zombie.pid(), held.keySet());
    boolean takenOver = awaitTakeover(held, mark, pausedAt);
    nodeFaults.latency(Duration.ofMillis(latencyBefore));
    long logOffset = SoakChaos.size(zombie.spec().logFile());
    zombie.resume();
    double paused = Duration.between(pausedAt, clock.instant()).toMillis() / 1000.0;
    say("SIGCONT %s after %.1f s (partitions taken over: %s)", name, paused, takenOver ? "yes" : "NO");

    List<String> lines = awaitRejoin(zombie, logOffset, mark);
    List<String> loggedBeforeRetake = new ArrayList<>();
    int fencedInLog = 0;
    boolean retaken = false;
    for (String line : lines) {
      if (line.contains("partition taken") && line.contains(mark)) {
        retaken = true;
      } else if (line.contains("ledger intent recorded") && !retaken) {
        Matcher hash = LOGGED_HASH.matcher(line);
        Matcher subwallet = LOGGED_SUBWALLET.matcher(line);
        // an intent of a partition nobody took over is the owner's, which it still is by the ledger
        if (!subwallet.find() || heldWallets.contains(Long.parseLong(subwallet.group(1)))) {
          loggedBeforeRetake.add(hash.find() ? hash.group(1) : "");
        }
      }
      if (line.contains("refusal=FENCED")) {
        fencedInLog++;
      }
    }
    int intentsBeforeRetake = zombieWrites(loggedBeforeRetake, pausedAt);
    List<String> refused = ledger.fencedRefusals().stream().filter(f -> !f.at().isBefore(pausedAt))
        .map(SoakLedger.Fenced::messageHash).toList();
    ZombieEvidence evidence = new ZombieEvidence(name, zombie.pid(), List.copyOf(held.keySet()), paused, roundWaiting,
        takenOver, intentsBeforeRetake, fencedInLog, fencedMetric(zombie), refused);
    log.info("zombie evidence {}", evidence);
    return evidence;
  }

  /**
   * Of the intents the zombie logged as recorded after its resume and before it took a partition
   * again, for wallets of the partitions it held when paused (and another instance took over),
   * those it began to record after it was paused: a zombie's writes. The others began before
   * the SIGSTOP, while it still owned their partition, and their transaction committed at the
   * ledger while the process stood still (the takeover waited for it on the owners' row lock); only
   * their log line came after the resume. A line without a hash in the ledger counts too.
   */
  private int zombieWrites(List<String> loggedHashes, Instant pausedAt) {
    if (loggedHashes.isEmpty()) {
      return 0;
    }
    Map<String, Instant> createdAt = ledger.createdAt(loggedHashes);
    int writes = 0;
    for (String hash : loggedHashes) {
      Instant at = createdAt.get(hash);
      if (at == null || !at.isBefore(pausedAt)) {
        writes++;
      } else {
        log.info("zombie intent logged after the resume was recorded before the pause hash={} created_at={}"
            + " paused_at={}", hash, at, pausedAt);
      }
    }
    return writes;
  }

  /**
   * Gives the zombie's wallets work (the load's own next requests, produced early) until one of its
   * issuing rounds waits for a wallet read at its slowed API node: paused then, it resumes with a
   * signed message to record, the write fencing must refuse. Without that wait a pause could fall
   * between rounds, and the episode would prove nothing.
   *
   * @return whether a round was seen waiting (false: it is paused anyway, and the report says so)
   */
  private boolean baitARound(String name, Faults nodeFaults, Set<Long> wallets) throws InterruptedException {
    long deadline = clock.millis() + ZOMBIE_BAIT_TIMEOUT.toMillis();
    long produceAgainAt = 0;
    int early = 0;
    while (clock.millis() < deadline) {
      if (nodeFaults.waitingInLatency(WALLET_READ) > 0) {
        log.info("zombie bait taken child={} requests_produced_early={}", name, early);
        return true;
      }
      if (clock.millis() >= produceAgainAt) {
        early += producer.produceEarly(wallets);
        produceAgainAt = clock.millis() + ZOMBIE_NODE_LATENCY.toMillis();
      }
      Thread.sleep(10);
    }
    log.warn("zombie bait not taken: no wallet read of child={} waited at its API node within {} s "
        + "requests_produced_early={}", name, ZOMBIE_BAIT_TIMEOUT.toSeconds(), early);
    return false;
  }

  /**
   * The instance to pause: the planned one, or another, as long as it holds a partition (one just
   * restarted may hold none yet) and every other instance is up to take its partitions over.
   */
  private String chooseZombie(String planned) throws InterruptedException {
    List<String> candidates = new ArrayList<>(run.instances().streamsAppNames());
    candidates.remove(planned);
    candidates.add(0, planned);
    long deadline = clock.millis() + READY_TIMEOUT.toMillis();
    while (clock.millis() < deadline) {
      supervise.run();
      for (String name : candidates) {
        ChildProcess c = run.processes().child(name);
        boolean othersReady = candidates.stream().filter(n -> !n.equals(name)).map(n -> run.processes().child(n))
            .allMatch(o -> o.isAlive() && Http.isOk(o.spec().opsUrl("/health/ready")));
        if (c.isAlive() && othersReady && !ownership.held(PartitionOwnership.mark(c)).isEmpty()) {
          return name;
        }
      }
      Thread.sleep(SUPERVISE_EVERY.toMillis());
    }
    log.warn("no streams-app instance held a partition with the others ready within {} s; pausing {} anyway",
        READY_TIMEOUT.toSeconds(), planned);
    return planned;
  }

  /**
   * Until every partition the zombie held has a newer epoch with another owner, and the pause has
   * lasted past both the session timeout and Kafka Streams' transaction timeout (10 s with
   * exactly-once), so the zombie's open transaction was aborted under it too.
   */
  private boolean awaitTakeover(Map<Integer, Long> held, String mark, Instant pausedAt) throws InterruptedException {
    Duration session = options.sessionTimeout();
    long atLeast = pausedAt.toEpochMilli() + Math.max(session.toMillis(), STREAMS_TRANSACTION_TIMEOUT.toMillis())
        + 5_000;
    long deadline = pausedAt.toEpochMilli() + session.multipliedBy(3).toMillis() + 60_000;
    while (clock.millis() < deadline) {
      if (clock.millis() < atLeast) {
        Thread.sleep(SUPERVISE_EVERY.toMillis());
        continue;
      }
      if (held.isEmpty()) {
        return true;
      } else {
        List<SoakLedger.Owner> owners = ledger.owners();
        boolean all = held.entrySet().stream().allMatch(h -> owners.stream().anyMatch(o ->
            o.partition() == h.getKey() && o.epoch() > h.getValue() && !o.owner().contains(mark)));
        if (all) {
          return true;
        }
      }
      Thread.sleep(SUPERVISE_EVERY.toMillis());
    }
    return false;
  }

  /** The zombie's log lines since the resume, once it took a partition again (or after a minute). */
  private List<String> awaitRejoin(ChildProcess zombie, long offset, String mark) throws InterruptedException {
    long deadline = clock.millis() + ZOMBIE_REJOIN_TIMEOUT.toMillis();
    while (true) {
      List<String> lines = SoakChaos.linesFrom(zombie.spec().logFile(), offset);
      boolean rejoined = lines.stream().anyMatch(l -> l.contains("partition taken") && l.contains(mark));
      if (rejoined || clock.millis() > deadline || !zombie.isAlive()) {
        return lines;
      }
      Thread.sleep(SUPERVISE_EVERY.toMillis());
    }
  }

  private static OptionalDouble fencedMetric(ChildProcess child) {
    try {
      String body = Http.get(child.spec().opsUrl("/metrics")).body();
      return body.lines().filter(l -> l.startsWith("ton_tx_fenced_total"))
          .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).findFirst();
    } catch (IOException | RuntimeException e) {
      return OptionalDouble.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return OptionalDouble.empty();
    }
  }
}
