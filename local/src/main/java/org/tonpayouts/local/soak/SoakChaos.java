package org.tonpayouts.local.soak;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.devnet.DevnetNode;
import org.tonpayouts.devnet.Faults;
import org.tonpayouts.local.stack.ChildConfig;
import org.tonpayouts.local.stack.ChildProcess;
import org.tonpayouts.local.stack.Http;
import org.tonpayouts.local.stack.StackRun;

/**
 * Carries out a {@link ChaosPlan} against a running stack on its own thread: kill -9 and restart
 * (state directory kept or wiped), SIGSTOP past the session timeout and SIGCONT (a zombie, by a
 * {@link ZombieAct}; the infrastructure faults by an {@link InfrastructureChaos}), foreign
 * payments (front-runs of transfers to repeated payees by a {@link PayeeFrontRunner}), dust floods
 * (by a {@link DustFlooder}), and each process's devnet API node's faults (per-request rates from
 * the start, lag and latency episodes, transport-error kinds). Between acts it supervises: a child
 * that exits by itself is reported and restarted, as a process supervisor would.
 */
final class SoakChaos implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SoakChaos.class);
  private static final Duration SUPERVISE_EVERY = Duration.ofMillis(250);
  private static final int STALE_BLOCKS = 2;
  private static final int EPISODE_STRETCH = 4;
  /** chain-poller's log line for a wallet scan cut short by its page budget, going on next round. */
  private static final String SCAN_CUT_SHORT = "scan stopped at page limit";
  private static final Pattern LOGGED_WALLET = Pattern.compile("wallet=(\\S+)");

  /** A child that exited without being killed. */
  record UnexpectedExit(String child, long pid, int exitCode, List<String> lastLines) {}

  /** What the chaos did, for the report. */
  record Summary(Map<String, Integer> killsByChild, int restartsWiped, int restartsKept, List<ZombieEvidence> zombies,
                 int lagEpisodes, int latencyEpisodes, int transportModeChanges, int foreignEvents,
                 List<PayeeFrontRunner.FrontRun> payeeFrontRuns, List<DustFlooder.Flood> dustFloods,
                 List<UnexpectedExit> unexpectedExits, int eventsLate,
                 List<InfrastructureChaos.Episode> infrastructure) {
    int kills(String kind) {
      return killsByChild.entrySet().stream().filter(e -> e.getKey().startsWith(kind))
          .mapToInt(Map.Entry::getValue).sum();
    }
  }

  private final ChaosPlan plan;
  private final SoakOptions options;
  private final StackRun run;
  private final Devnet devnet;
  private final ForeignSigner foreign;
  private final SoakLedger ledger;
  private final InfrastructureChaos infrastructure;
  private final ZombieAct zombieAct;
  private final SoakProducer producer;
  private final PayeeFrontRunner payees;
  private final DustFlooder dust;
  private final Clock clock;
  private final PrintWriter out;
  private final Thread thread;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "soak-chaos-timer");
    t.setDaemon(true);
    return t;
  });
  private final Map<String, Integer> killsByChild = new java.util.concurrent.ConcurrentHashMap<>();
  private final List<ZombieEvidence> zombies = new CopyOnWriteArrayList<>();
  private final List<UnexpectedExit> unexpected = new CopyOnWriteArrayList<>();
  private final AtomicInteger restartsWiped = new AtomicInteger();
  private final AtomicInteger restartsKept = new AtomicInteger();
  private final AtomicInteger lagEpisodes = new AtomicInteger();
  private final AtomicInteger latencyEpisodes = new AtomicInteger();
  private final AtomicInteger transportModes = new AtomicInteger();
  private final AtomicInteger foreignEvents = new AtomicInteger();
  private final AtomicInteger eventsLate = new AtomicInteger();
  private volatile long windowStart;
  private volatile boolean stopping;
  private volatile boolean planDone;
  private volatile Throwable failure;

  /** @param producer the load's producer: the zombie's wallets get their next requests early */
  SoakChaos(ChaosPlan plan, SoakOptions options, StackRun run, ForeignSigner foreign, SoakLedger ledger,
      SoakProducer producer, Clock clock, PrintWriter out) {
    this.plan = plan;
    this.options = options;
    this.run = run;
    this.devnet = run.stack().devnet().orElseThrow(() -> new IllegalStateException("the soak runs on devnet"));
    this.foreign = foreign;
    this.ledger = ledger;
    PartitionOwnership ownership = new PartitionOwnership(run, ledger);
    this.infrastructure = new InfrastructureChaos(plan, options, run, ownership, clock, out);
    this.producer = producer;
    this.zombieAct = new ZombieAct(options, run, devnet, ledger, ownership, producer, clock, this::restartUnexpectedExits,
        this::say);
    // the requests with a leg over the balance are there to fail that leg: aimed at, they would end otherwise
    java.util.Set<String> overBalance = producer.load().requestIds(SoakLoad.Kind.OVER_BALANCE);
    java.util.function.Predicate<String> aimable = requestId -> !overBalance.contains(requestId);
    this.payees = new PayeeFrontRunner(foreign, ledger, devnet, run.wallets(), aimable, clock);
    this.dust = new DustFlooder(devnet, ledger, foreign, run.wallets(), this::down, aimable, clock);
    this.clock = clock;
    this.out = out;
    this.thread = new Thread(this::runPlan, "soak-chaos");
    thread.setDaemon(true);
  }

  /** Whether child {@code name} is down: not running, or not ready yet (restarted, still starting). */
  private boolean down(String name) {
    ChildProcess child = run.processes().child(name);
    return !child.isAlive() || !Http.isOk(child.spec().opsUrl("/health/ready"));
  }

  /** Sets every process's API node's per-request faults and starts the plan's clock at {@code windowStart}. */
  void start(long windowStartMillis) {
    SoakOptions.FaultRates rates = options.faults();
    Faults.TransportError[] kinds = Faults.TransportError.values();
    int i = 0;
    for (String name : nodeNames()) {
      Faults faults = devnet.node(name).faults();
      faults.reseed(options.seed() * 31 + name.hashCode())
          .rateLimit(rates.rateLimit())
          .transportErrors(rates.transportError(), kinds[i++ % kinds.length])
          .drop(rates.drop())
          .staleReads(STALE_BLOCKS, rates.stale());
      log.info("soak node faults node={} faults={}", name, faults);
    }
    this.windowStart = windowStartMillis;
    thread.start();
    infrastructure.start(windowStartMillis);
  }

  /** Every process's API nodes: its own, and its backup when it has one. */
  private List<String> nodeNames() {
    List<String> names = new ArrayList<>(run.instances().streamsAppNames());
    names.addAll(run.instances().chainPollerNames());
    if (run.instances().backupApiNodes()) {
      names.addAll(names.stream().map(StackRun.Instances::backupNode).toList());
    }
    return names;
  }

  private void runPlan() {
    try {
      for (ChaosPlan.Event event : plan.events()) {
        if (event instanceof ChaosPlan.InfrastructureFault) {
          continue; // carried out by InfrastructureChaos, on its own thread
        }
        long due = windowStart + (long) (event.at() * options.window().toMillis());
        if (!superviseUntil(due)) {
          return;
        }
        if (clock.millis() - due > 1_000) {
          eventsLate.incrementAndGet(); // an earlier act (a pause) ran past this one's moment
        }
        act(event);
      }
      planDone = true;
      say("every act of the plan is done");
      // keep supervising until the soak is over
      superviseUntil(Long.MAX_VALUE);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      failure = e;
      log.error("soak chaos stopped", e);
    }
  }

  /** Restarts any child that exited by itself until {@code untilMillis}; false once stopping. */
  private boolean superviseUntil(long untilMillis) throws InterruptedException {
    while (!stopping) {
      restartUnexpectedExits();
      long left = untilMillis - clock.millis();
      if (left <= 0) {
        return true;
      }
      Thread.sleep(Math.min(left, SUPERVISE_EVERY.toMillis()));
    }
    return false;
  }

  private void restartUnexpectedExits() {
    for (ChildProcess child : run.processes().children()) {
      if (!child.isAlive()) {
        UnexpectedExit exit = new UnexpectedExit(child.name(), child.pid(), child.exitCode().orElse(-1),
            child.tail(15));
        unexpected.add(exit);
        log.error("child exited by itself name={} pid={} exit={}; restarting it", exit.child(), exit.pid(),
            exit.exitCode());
        say("%s (pid %d) exited by itself with code %d; restarting it", exit.child(), exit.pid(), exit.exitCode());
        run.processes().relaunch(child.name());
      }
    }
  }

  private void act(ChaosPlan.Event event) throws InterruptedException {
    log.info("soak chaos event={}", event);
    if (event instanceof ChaosPlan.Kill k) {
      kill(k);
    } else if (event instanceof ChaosPlan.Pause p) {
      zombies.add(zombieAct.pauseAndResume(p));
    } else if (event instanceof ChaosPlan.Foreign f) {
      long subwallet = run.wallets().subwalletId(f.walletIndex());
      if (f.frontRun()) {
        foreign.frontRun(subwallet, f.amountNano());
      } else {
        foreign.sign(subwallet, f.amountNano());
      }
      foreignEvents.incrementAndGet();
    } else if (event instanceof ChaosPlan.PayeeFrontRun p) {
      payees.start(p);
      foreignEvents.incrementAndGet();
    } else if (event instanceof ChaosPlan.DustFlood d) {
      dust.start(d);
    } else if (event instanceof ChaosPlan.Lag l) {
      Faults faults = devnet.node(l.node()).faults();
      faults.lag(l.blocks());
      endEpisode(l.duration(), () -> faults.counts().laggedReads(), () -> faults.lag(0));
      lagEpisodes.incrementAndGet();
    } else if (event instanceof ChaosPlan.Latency l) {
      Faults faults = devnet.node(l.node()).faults();
      faults.latency(l.latency());
      long set = l.latency().toMillis();
      endEpisode(l.duration(), () -> faults.counts().delayed(), () -> {
        if (faults.settings().latencyMs() == set) {
          faults.latency(Duration.ZERO);
        }
      });
      latencyEpisodes.incrementAndGet();
    } else if (event instanceof ChaosPlan.TransportMode t) {
      Faults faults = devnet.node(t.node()).faults();
      faults.transportErrors(faults.settings().transportErrorProbability(), t.how());
      transportModes.incrementAndGet();
    }
  }

  /**
   * Ends a fault episode after {@code duration}, or later if it has not yet touched a request (its
   * process may have been restarting, or idle), at most {@value #EPISODE_STRETCH} times as long.
   */
  private void endEpisode(Duration duration, LongSupplier fired, Runnable end) {
    long before = fired.getAsLong();
    long latest = clock.millis() + duration.toMillis() * EPISODE_STRETCH;
    Runnable check = new Runnable() {
      @Override
      public void run() {
        if (fired.getAsLong() > before || clock.millis() >= latest || stopping) {
          end.run();
        } else {
          timer.schedule(this, 500, TimeUnit.MILLISECONDS);
        }
      }
    };
    timer.schedule(check, duration.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void kill(ChaosPlan.Kill k) throws InterruptedException {
    ChildProcess child = run.processes().child(k.child());
    if (!child.isAlive()) {
      return; // it exited by itself a moment ago: the supervisor restarts it
    }
    child.kill();
    killsByChild.merge(k.child(), 1, Integer::sum);
    say("kill -9 %s (pid %d); back in %.1f s%s", k.child(), child.pid(), k.downFor().toMillis() / 1000.0,
        k.wipeState() ? " with its state directory wiped" : " on the same state directory");
    Thread.sleep(k.downFor().toMillis());
    if (k.wipeState()) {
      wipe(run.directory().file(k.child() + "-state"));
      restartsWiped.incrementAndGet();
    } else {
      restartsKept.incrementAndGet();
    }
    run.processes().relaunch(k.child());
  }

  static long size(Path file) {
    try {
      return Files.exists(file) ? Files.size(file) : 0;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the size of " + file, e);
    }
  }

  static List<String> linesFrom(Path file, long offset) {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
      long length = f.length();
      if (length <= offset) {
        return List.of();
      }
      byte[] bytes = new byte[(int) (length - offset)];
      f.seek(offset);
      f.readFully(bytes);
      return new String(bytes, StandardCharsets.UTF_8).lines().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /** Deletes everything in a child's state directory, as a restart on a fresh disk would find it. */
  private static void wipe(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        if (!p.equals(dir)) {
          Files.delete(p);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot wipe " + dir, e);
    }
  }

  /**
   * Waits until the plan's last act is done (a pause may run past the window), front-runs and
   * dust floods included; the chaos thread goes on supervising the children until {@link
   * #close()}, and the per-request faults stay on until {@link #clearFaults()}.
   *
   * @return false when the acts were not done within {@code timeout}
   */
  boolean awaitPlanDone(Duration timeout) throws InterruptedException {
    long deadline = clock.millis() + timeout.toMillis();
    while (!planDone && thread.isAlive() && clock.millis() < deadline) {
      Thread.sleep(SUPERVISE_EVERY.toMillis());
    }
    return planDone && payees.awaitDone(Duration.ofMillis(Math.max(0, deadline - clock.millis())))
        && dust.awaitDone(Duration.ofMillis(Math.max(0, deadline - clock.millis())))
        && infrastructure.awaitDone(Duration.ofMillis(Math.max(0, deadline - clock.millis())));
  }

  /** Turns every fault off on every process's API node (before the audit reads the chain). */
  void clearFaults() {
    nodeNames().forEach(n -> devnet.node(n).faults().clear());
  }

  /**
   * The wallet scans the chain-poller processes cut short at their page budget to go on next
   * round, by wallet (raw address), from their logs: a dust flood made a poller page on.
   */
  Map<String, Integer> scansCutShort() {
    Map<String, Integer> byWallet = new java.util.TreeMap<>();
    for (ChildProcess child : run.processes().children()) {
      if (!child.name().startsWith(ChildConfig.CHAIN_POLLER) || !Files.exists(child.spec().logFile())) {
        continue;
      }
      for (String line : linesFrom(child.spec().logFile(), 0)) {
        Matcher wallet = LOGGED_WALLET.matcher(line);
        if (line.contains(SCAN_CUT_SHORT) && wallet.find()) {
          byWallet.merge(wallet.group(1), 1, Integer::sum);
        }
      }
    }
    return byWallet;
  }

  /** Faults fired by type, summed over the processes' API nodes. */
  Map<String, Long> faultCounts() {
    long delayed = 0;
    long rateLimited = 0;
    long transport = 0;
    long dropped = 0;
    long stale = 0;
    long lagged = 0;
    long outage = 0;
    for (String n : nodeNames()) {
      DevnetNode node = devnet.node(n);
      outage += node.faults().outageAnswers();
      Faults.Counts c = node.faults().counts();
      delayed += c.delayed();
      rateLimited += c.rateLimited();
      transport += c.transportErrors();
      dropped += c.dropped();
      stale += c.staleReads();
      lagged += c.laggedReads();
    }
    Map<String, Long> counts = new LinkedHashMap<>();
    counts.put("rate limited (429)", rateLimited);
    counts.put("transport error after acceptance", transport);
    counts.put("dropped message", dropped);
    counts.put("stale read", stale);
    counts.put("lagging read", lagged);
    counts.put("delayed request", delayed);
    counts.put("refused in a provider outage (503)", outage);
    return counts;
  }

  Summary summary() {
    return new Summary(new java.util.TreeMap<>(killsByChild), restartsWiped.get(), restartsKept.get(),
        List.copyOf(zombies), lagEpisodes.get(), latencyEpisodes.get(), transportModes.get(), foreignEvents.get(),
        payees.frontRuns(), dust.floods(), List.copyOf(unexpected), eventsLate.get(), infrastructure.episodes());
  }

  Throwable failure() {
    return failure != null ? failure : infrastructure.failure();
  }



  private void say(String format, Object... args) {
    synchronized (out) {
      out.printf("chaos: " + format + "%n", args);
      out.flush();
    }
  }

  @Override
  public void close() {
    stopping = true;
    try {
      thread.join(Duration.ofSeconds(30).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    timer.shutdownNow();
    infrastructure.close();
    payees.close();
    dust.close();
  }
}
