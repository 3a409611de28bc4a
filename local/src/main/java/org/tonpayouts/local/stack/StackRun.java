package org.tonpayouts.local.stack;

import java.io.PrintWriter;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.math.BigInteger;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.devnet.chain.jetton.JettonFlavor;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.embedded.FreePorts;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.ton.network.TonNetwork;
import org.tonpayouts.ton.wallet.Subwallets;

/**
 * One run of the local stack from start to stop: run directory and log, the in-process servers,
 * the child processes, funding; a command drives the rest (a load, chaos, an audit) through what
 * it exposes. Closing it stops everything; a JVM shutdown hook does the same on Ctrl-C.
 */
public final class StackRun implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(StackRun.class);
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
  /** What devnet credits each paying wallet: enough for thousands of demo transfers and their fees. */
  public static final long FUNDING_NANO = 100_000_000_000L;
  /** What devnet mints to each paying wallet of the run's jetton: 1,000,000 of a 6-decimal jetton. */
  public static final BigInteger FUNDING_JETTON_UNITS = BigInteger.valueOf(1_000_000_000_000L);
  /** The run's jetton on devnet: the USDT-style stablecoin contract, under this symbol. */
  public static final String JETTON_SYMBOL = "USDT";
  /** Its per-transfer limit in the children's {@code jettons}: 10,000 USDT. */
  public static final BigInteger JETTON_MAX_TRANSFER = BigInteger.valueOf(10_000_000_000L);

  /**
   * How many streams-app and chain-poller processes the run starts. With one of each they are
   * called {@code streams-app} and {@code chain-poller} and use devnet's default API node; with
   * more, {@code streams-app-1}, {@code streams-app-2}, ... on shared topics (same application
   * ids, a state directory each), and on devnet each process talks to its own API node, named
   * after it, so faults can hit one process's view of the chain and not another's.
   *
   * @param backupApiNodes each process also gets a second API node, {@link #backupNode}, as its
   *     second provider in {@code ton.api.urls}: its own node can then go down while it carries on
   */
  public record Instances(int streamsApps, int chainPollers, boolean backupApiNodes) {
    public static final Instances ONE_EACH = new Instances(1, 1);

    public Instances {
      if (streamsApps < 1 || chainPollers < 1) {
        throw new IllegalArgumentException("at least one streams-app and one chain-poller, got " + streamsApps
            + " and " + chainPollers);
      }
      if (backupApiNodes && streamsApps == 1 && chainPollers == 1) {
        throw new IllegalArgumentException("backup API nodes come with several instances (each its own node)");
      }
    }

    public Instances(int streamsApps, int chainPollers) {
      this(streamsApps, chainPollers, false);
    }

    /** The name of the devnet API node that is {@code child}'s second provider. */
    public static String backupNode(String child) {
      return child + "-backup";
    }

    public List<String> streamsAppNames() {
      return names(ChildConfig.STREAMS_APP, streamsApps);
    }

    public List<String> chainPollerNames() {
      return names(ChildConfig.CHAIN_POLLER, chainPollers);
    }

    /** One instance keeps the plain name (its files are {@code streams-app.log}, ...); several are numbered. */
    private static List<String> names(String base, int n) {
      if (n == 1) {
        return List.of(base);
      }
      List<String> names = new ArrayList<>();
      for (int i = 1; i <= n; i++) {
        names.add(base + "-" + i);
      }
      return names;
    }

    boolean ownApiNodes() {
      return streamsApps > 1 || chainPollers > 1;
    }
  }

  private final RunOptions options;
  private final Instances instances;
  private final PrintWriter out;
  private final RunDirectory run;
  private final RunKey key;
  private final WalletSet wallets;
  private final List<AutoCloseable> toClose = new ArrayList<>();
  private final Thread shutdownHook;
  /** Whether the children log one line per TON API request (not in a benchmark). */
  private final boolean apiCallLog;
  private LocalStack stack;
  private StackProcesses processes;
  private ChildConfig.AdminAccess admin;
  /** The run's jetton on devnet, deployed before the children start; null with an external API. */
  private volatile TonAddress jettonMaster;
  private volatile boolean closed;

  private StackRun(RunOptions options, Instances instances, PrintWriter out, Clock clock, boolean apiCallLog) {
    this.options = options;
    this.instances = instances;
    this.apiCallLog = apiCallLog;
    this.out = out;
    this.run = RunDirectory.create(options.dataDir(), clock);
    LauncherLogging.toFile(run.file("launcher.log"));
    this.key = options.walletSecretFile().map(RunKey::fromFile).orElseGet(RunKey::random);
    this.wallets = new WalletSet(new Subwallets(key.key(), 0), Subwallets.DEFAULT_SUBWALLET_ID, options.wallets(),
        Math.min(100, Math.max(10, options.wallets())));
    this.shutdownHook = new Thread(this::closeOnSignal, "local-stack-shutdown");
  }

  /** Starts the servers and both children and waits until the children have joined their groups. */
  public static StackRun start(RunOptions options, PrintWriter out, Clock clock) throws InterruptedException {
    return start(options, Instances.ONE_EACH, out, clock, true);
  }

  /**
   * Starts the servers and {@code instances} children and waits until they have joined their groups;
   * {@code apiCallLog} false keeps the children from logging a line per TON API request (the benchmark
   * reads their meters instead).
   */
  public static StackRun start(RunOptions options, Instances instances, PrintWriter out, Clock clock,
      boolean apiCallLog) throws InterruptedException {
    options.home().requireJars();
    StackRun run = new StackRun(options, instances, out, clock, apiCallLog);
    Runtime.getRuntime().addShutdownHook(run.shutdownHook);
    try {
      run.startAll();
      return run;
    } catch (RuntimeException | InterruptedException e) {
      run.close();
      throw e;
    }
  }

  private void startAll() throws InterruptedException {
    say("run directory %s", run.dir());
    String kafka = options.brokers() == LocalStack.Brokers.ONE ? "Kafka (KRaft)"
        : "a Kafka cluster of three KRaft nodes (child JVMs)";
    say("starting %s in this process ...", options.onDevnet() ? kafka + ", PostgreSQL and devnet" : kafka
        + " and PostgreSQL");
    stack = LocalStack.start(options.partitions(),
        options.onDevnet() ? Optional.of(options.blockInterval()) : Optional.empty(), options.brokers());
    toClose.add(stack);
    if (options.onDevnet()) {
      Devnet devnet = stack.devnet().orElseThrow();
      say("devnet %s (block %d ms), Kafka %s, PostgreSQL %s", devnet.baseUrl(), options.blockInterval().toMillis(),
          stack.kafka().bootstrapServers(), stack.ledgerJdbcUrl());
      jettonMaster = devnet.deployJetton(JettonFlavor.STABLECOIN, "https://tonpayouts.local/usdt.json");
      say("jetton %s on devnet: master %s (the stablecoin contract; streams-app pays it)", JETTON_SYMBOL,
          jettonMaster.toFriendly(true, true));
    } else {
      say("TON API %s (external: the %d wallets must be funded; list them with ./payouts wallets --from %d"
          + " --count %d%s --wallet-secret-file <file>)", options.externalApi().orElseThrow(), wallets.count(),
          wallets.firstSubwallet(), wallets.count(), options.testnet() ? " --testnet" : "");
      log.warn("external TON API: wallets are not funded by the launcher subwallets={}..{}", wallets.firstSubwallet(),
          wallets.lastSubwallet());
    }
    ChildConfig config = new ChildConfig(childSettings(), childSecrets(), run, options.childSettings(), apiCallLog);
    admin = AdminTokens.create(run.file("admin-token"), FreePorts.pick());
    String streamsGroup = PayoutsConfig.CONFIG.defaultValues().get(PayoutsConfig.STREAMS_APPLICATION_ID_CONFIG)
        .toString();
    String pollerGroup = PayoutsConfig.CONFIG.defaultValues().get(PayoutsConfig.POLLER_APPLICATION_ID_CONFIG)
        .toString();
    List<ChildSpec> specs = new ArrayList<>();
    Map<String, String> groups = new LinkedHashMap<>();
    for (String name : instances.streamsAppNames()) {
      // one deployment, one admin token; each instance serves the admin API on its own port
      ChildConfig.AdminAccess access = specs.isEmpty() ? admin
          : new ChildConfig.AdminAccess(FreePorts.pick(), admin.token(), admin.tokenFile());
      Map<String, String> settings = new LinkedHashMap<>(apiNodeOf(name));
      jettonMaster().ifPresent(m -> settings.put(PayoutsConfig.JETTONS_CONFIG, JETTON_SYMBOL + " master=" + m.toRaw()
          + " decimals=6 max.transfer=" + JETTON_MAX_TRANSFER));
      specs.add(config.streamsApp(name, options.home().streamsAppJar(), FreePorts.pick(), Optional.of(access),
          settings));
      groups.put(name, streamsGroup);
    }
    for (String name : instances.chainPollerNames()) {
      specs.add(config.chainPoller(name, options.home().chainPollerJar(), FreePorts.pick(), apiNodeOf(name)));
      groups.put(name, pollerGroup);
    }
    processes = StackProcesses.start(specs, groups);
    toClose.add(0, processes);
    for (ChildProcess child : processes.children()) {
      say("%s pid %d (java %s), log %s", child.name(), child.pid(), ChildSpec.MAX_HEAP, child.spec().logFile());
    }
    say("waiting for streams-app and chain-poller to join their consumer groups and report ready ...");
    processes.awaitReady(stack.kafka().admin(), READY_TIMEOUT);
  }

  /**
   * With several instances on devnet, each child's {@code ton.api.url} is its own API node; with
   * backup nodes, its {@code ton.api.urls} lists its own node first and its backup second.
   */
  private Map<String, String> apiNodeOf(String child) {
    if (!instances.ownApiNodes() || stack.devnet().isEmpty()) {
      return Map.of();
    }
    Devnet devnet = stack.devnet().get();
    if (!instances.backupApiNodes()) {
      return Map.of(PayoutsConfig.TON_API_URL_CONFIG, devnet.node(child).apiUrl().toString());
    }
    String backup = Instances.backupNode(child);
    return Map.of(PayoutsConfig.TON_API_URLS_CONFIG, devnet.node(child).apiUrl() + "|name=" + child + ","
        + devnet.node(backup).apiUrl() + "|name=" + backup);
  }

  private ChildConfig.Settings childSettings() {
    URI api = options.externalApi().orElseGet(() -> stack.devnet().orElseThrow().baseUrl());
    return new ChildConfig.Settings(stack.kafka().bootstrapServers(), stack.ledgerJdbcUrl(), stack.postgres().user(),
        api, options.onDevnet() ? RunOptions.DEVNET_REQUESTS_PER_SECOND : options.apiRequestsPerSecond(),
        options.testnet(), options.onDevnet() ? TonNetwork.DEVNET : TonNetwork.TESTNET, wallets.firstSubwallet(),
        Math.max(wallets.lastSubwallet(),
            Subwallets.DEFAULT_SUBWALLET_ID + 9_999L), key.secretFile());
  }

  private ChildConfig.Secrets childSecrets() {
    return new ChildConfig.Secrets(key.seedHex(), options.apiKeyFile().map(RunKey::readApiKey),
        stack.postgres().password());
  }

  public RunDirectory directory() {
    return run;
  }

  public WalletSet wallets() {
    return wallets;
  }

  public LocalStack stack() {
    return stack;
  }

  public StackProcesses processes() {
    return processes;
  }

  /** streams-app's admin API: URL, and the file holding its token (for {@code payouts admin --token-file}). */
  public ChildConfig.AdminAccess admin() {
    return admin;
  }

  public RunOptions options() {
    return options;
  }

  public Instances instances() {
    return instances;
  }

  /**
   * The run's wallet key. Only a launcher-side chaos driver needs it (a foreign signer using the
   * wallets, as someone holding the key would); the children get it through their environment.
   */
  public RunKey key() {
    return key;
  }

  /** The run's jetton master on devnet (streams-app's {@code jettons}); empty with an external API. */
  public Optional<TonAddress> jettonMaster() {
    return Optional.ofNullable(jettonMaster);
  }

  /**
   * On devnet, credits every paying wallet with TON and the run's jetton; with an external API the
   * operator has funded them.
   */
  public void fund() {
    stack.devnet().ifPresent(devnet -> {
      for (long id : wallets.subwalletIds()) {
        devnet.fund(wallets.address(id), FUNDING_NANO);
        devnet.mintJettons(jettonMaster, wallets.address(id), FUNDING_JETTON_UNITS);
      }
      say("funded %d wallets with %d TON and %s %s each on devnet", wallets.count(), FUNDING_NANO / 1_000_000_000L,
          FUNDING_JETTON_UNITS.divide(BigInteger.valueOf(1_000_000)), JETTON_SYMBOL);
    });
  }

  /** Stops the two children (their GC logs are complete afterwards); the servers keep running. */
  public void stopChildren() {
    if (processes != null) {
      processes.close();
    }
  }

  /** Blocks until the JVM is asked to stop (Ctrl-C); the shutdown hook then stops everything. */
  public void awaitInterrupt() throws InterruptedException {
    say("the stack keeps running: Kafka %s, PostgreSQL %s%s. Ctrl-C stops it.", stack.kafka().bootstrapServers(),
        stack.ledgerJdbcUrl(), stack.devnet().map(d -> ", devnet " + d.baseUrl()).orElse(""));
    while (true) {
      // a child that dies is reported, and the stack stops: nothing would settle any more
      Optional<ChildProcess> dead = processes.firstDead();
      if (closed) {
        return;
      }
      if (dead.isPresent()) {
        say("%s exited with code %d; last lines of %s:%n  %s", dead.get().name(), dead.get().exitCode().orElse(-1),
            dead.get().spec().logFile(), String.join("\n  ", dead.get().tail(10)));
        return;
      }
      Thread.sleep(1_000);
    }
  }

  private void say(String format, Object... args) {
    out.printf(format + "%n", args);
    out.flush();
  }

  private void closeOnSignal() {
    out.println();
    out.println("stopping the local stack ...");
    out.flush();
    closeAll();
  }

  @Override
  public void close() {
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // the JVM is already shutting down: the hook is doing the same work
    }
    closeAll();
  }

  private synchronized void closeAll() {
    if (closed) {
      return;
    }
    closed = true;
    for (AutoCloseable c : toClose) {
      try {
        c.close();
      } catch (Exception e) {
        log.warn("could not stop {} error={}", c, e.toString());
      }
    }
    log.info("local stack stopped run={}", run.dir());
  }
}
