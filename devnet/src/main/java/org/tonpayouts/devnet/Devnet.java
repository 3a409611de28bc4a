package org.tonpayouts.devnet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.devnet.api.ApiServer;
import org.tonpayouts.devnet.chain.AccountView;
import org.tonpayouts.devnet.chain.BlockInfo;
import org.tonpayouts.devnet.chain.Chain;
import org.tonpayouts.devnet.chain.ChainStats;
import org.tonpayouts.devnet.chain.DevnetTransaction;
import org.tonpayouts.devnet.chain.jetton.JettonAdmin;
import org.tonpayouts.devnet.chain.jetton.JettonContracts;
import org.tonpayouts.devnet.chain.jetton.JettonFlavor;
import org.tonpayouts.devnet.chain.jetton.JettonWalletView;
import org.tonpayouts.ton.address.TonAddress;

/**
 * A local TON chain behind a toncenter-compatible HTTP API: what tests and the local stack of the
 * payout engine talk to instead of mainnet. Validates WalletV4R2 messages as the contract does,
 * runs the TEP-74 jetton contracts (reference and stablecoin: {@link #deployJetton},
 * {@link #mintJettons}), builds a block every {@code blockInterval}, and injects API faults on demand. Besides the default
 * API node ({@link #apiUrl()}, {@link #faults()}) it serves named nodes over the same chain, each
 * with its own faults ({@link #node(String)}). Embeddable:
 *
 * <pre>{@code
 * try (Devnet devnet = Devnet.builder().blockInterval(Duration.ofMillis(50)).start()) {
 *   devnet.fund(wallet, 5_000_000_000L);
 *   URI api = devnet.baseUrl().resolve("/api/v2/");
 *   ...
 * }
 * }</pre>
 */
public final class Devnet implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Devnet.class);
  public static final Duration DEFAULT_BLOCK_INTERVAL = Duration.ofMillis(400);

  private final Chain chain;
  private final JettonAdmin jettons;
  private final Faults faults;
  private final ApiServer server;
  private final Duration blockInterval;
  private final ScheduledExecutorService blocks;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final ConcurrentMap<String, DevnetNode> nodes = new ConcurrentHashMap<>();

  private Devnet(Builder b) throws IOException {
    this.chain = new Chain(b.clock, b.seed, JettonContracts.codes());
    this.jettons = new JettonAdmin(chain);
    this.faults = (b.faults != null ? b.faults : new Faults(b.seed)).useClock(b.clock);
    this.blockInterval = b.blockInterval;
    this.server = new ApiServer(chain, jettons, faults, b.seed, blockInterval, b.host, b.port, b.httpThreads);
    server.start();
    if (blockInterval.isZero()) {
      this.blocks = null;
    } else {
      this.blocks = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "devnet-blocks");
        t.setDaemon(true);
        return t;
      });
      long period = blockInterval.toNanos();
      blocks.scheduleAtFixedRate(this::produceBlockSafely, period, period, TimeUnit.NANOSECONDS);
    }
    log.info("devnet started url={} blockMs={} seed={}", baseUrl(), blockInterval.toMillis(), b.seed);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** {@code http://127.0.0.1:<port>}; toncenter's API is under {@code /api/v2/}, devnet's under {@code /admin/}. */
  public URI baseUrl() {
    return server.baseUrl();
  }

  /** {@code <baseUrl>/api/v2/}, the toncenter base URL to configure clients with. */
  public URI apiUrl() {
    return URI.create(baseUrl() + "/api/v2/");
  }

  public int port() {
    return server.port();
  }

  public Duration blockInterval() {
    return blockInterval;
  }

  // ---- jettons ------------------------------------------------------------------------------

  /**
   * Deploys a jetton minter of {@code flavor} (the real reference or stablecoin code) whose content
   * names {@code uri}, with devnet's jetton admin ({@link JettonAdmin#ADMIN}) as admin; returns its
   * address, the same for the same flavor and URI. Applied at once, like {@link #fund}.
   */
  public TonAddress deployJetton(JettonFlavor flavor, String uri) {
    return jettons.deploy(flavor, uri).master();
  }

  /**
   * Mints {@code amount} jetton units of {@code master} to {@code owner} (deploying its jetton
   * wallet if needed) through the minter, at once; the result has the wallet after it and the
   * transactions it took.
   */
  public JettonAdmin.Result mintJettons(TonAddress master, TonAddress owner, BigInteger amount) {
    return jettons.mint(master, owner, amount);
  }

  /**
   * Sets the status of {@code owner}'s stablecoin jetton wallet through the minter, at once: 0
   * unlocked, 1 sending locked, 2 receiving locked (it bounces incoming transfers), 3 both.
   */
  public JettonAdmin.Result setJettonWalletStatus(TonAddress master, TonAddress owner, int status) {
    return jettons.setStatus(master, owner, status);
  }

  /** {@code owner}'s jetton wallet of {@code master} as of the last block (its address even before it exists). */
  public JettonWalletView jettonWallet(TonAddress master, TonAddress owner) {
    return jettons.wallet(master, owner);
  }

  /** The jetton admin operations, with explicit query ids (golden traces replay them). */
  public JettonAdmin jettonAdmin() {
    return jettons;
  }

  /**
   * Every transaction of every account with a logical time above {@code lt}, in lt order (0: all
   * of them): what the chain did since {@link #lastLt()} returned {@code lt}.
   */
  public List<DevnetTransaction> transactionsSince(long lt) {
    return chain.transactionsSince(lt);
  }

  /** The last logical time the chain handed out. */
  public long lastLt() {
    return chain.lastLt();
  }

  /** Credits an account at once; a nonexistent one becomes uninitialized (a wallet deploys with its first StateInit message). */
  public void fund(TonAddress address, long nano) {
    fund(address, nano, false);
  }

  /**
   * Credits an account at once; with {@code active} a nonexistent or uninitialized one becomes a
   * plain deployed account that accepts internal messages (a user's wallet).
   */
  public void fund(TonAddress address, long nano, boolean active) {
    chain.fund(address, nano, active);
  }

  /** Balance in nanotons as of the last block (0 for an unknown account). */
  public long balance(TonAddress address) {
    return chain.account(address).balance();
  }

  /** The wallet's seqno as of the last block: 0 for a wallet not deployed yet (its first message has seqno 0). */
  public long seqno(TonAddress address) {
    AccountView view = chain.account(address);
    return view.isWallet() ? view.wallet().seqno() : 0;
  }

  /** The account as of the last block. */
  public AccountView account(TonAddress address) {
    return chain.account(address);
  }

  /** The account's transactions, oldest first. */
  public List<DevnetTransaction> transactions(TonAddress address) {
    return chain.transactions(address);
  }

  /** The live fault settings of the default node (changes apply to its next request). */
  public Faults faults() {
    return faults;
  }

  /**
   * The API node called {@code name}, created without faults on first call (the same instance
   * after): it serves this chain under {@code <baseUrl>/node/<name>/api/v2/} with its own
   * {@link Faults}. {@code "default"} is the node of {@link #apiUrl()} and {@link #faults()}.
   * Names are 1 to 64 letters, digits, '.', '_' or '-'.
   */
  public DevnetNode node(String name) {
    Objects.requireNonNull(name, "name");
    return nodes.computeIfAbsent(name, n -> new DevnetNode(n, URI.create(baseUrl() + ApiServer.apiPath(n)),
        server.node(n)));
  }

  /**
   * Queues a transfer from {@code wallet} that our service did not sign: the next block applies
   * it with a synthetic external message that uses the wallet's current seqno.
   */
  public void foreignTransfer(TonAddress wallet, TonAddress destination, long amount, String comment) {
    chain.foreignTransfer(wallet, destination, amount, comment, false);
  }

  /**
   * A chain fault: every bounce is delivered {@code blocks} blocks after the block that made it
   * instead of in the same block (0 restores that), as on mainnet, where a bounce crosses shards.
   */
  public void delayBounces(int blocks) {
    chain.delayBounces(blocks);
  }

  public long masterchainSeqno() {
    return chain.lastBlock().seqno();
  }

  public BlockInfo lastBlock() {
    return chain.lastBlock();
  }

  public ChainStats stats() {
    return chain.stats();
  }

  /** Builds a block now (besides the scheduled ones; the only ones with a zero block interval). */
  public BlockInfo produceBlock() {
    return chain.produceBlock();
  }

  /**
   * Returns once {@code n} more blocks are applied; with a zero block interval it builds them
   * itself. Throws {@link IllegalStateException} when they do not come in time.
   */
  public void awaitBlocks(int n) {
    if (n <= 0) {
      return;
    }
    if (blocks == null) {
      for (int i = 0; i < n; i++) {
        chain.produceBlock();
      }
      return;
    }
    long target = chain.lastBlock().seqno() + n;
    Duration timeout = blockInterval.multipliedBy(n).multipliedBy(10).plusSeconds(5);
    try {
      if (!chain.awaitBlock(target, timeout)) {
        throw new IllegalStateException("block " + target + " not produced within " + timeout);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for block " + target, e);
    }
  }

  private void produceBlockSafely() {
    try {
      chain.produceBlock();
    } catch (RuntimeException e) {
      // a failing block must not stop the schedule (a thrown exception would cancel it)
      log.error("block production failed seqno={}", chain.lastBlock().seqno() + 1, e);
    }
  }

  /** Stops serving and producing blocks; idempotent. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    if (blocks != null) {
      blocks.shutdownNow();
    }
    server.close();
    log.info("devnet stopped url={} lastBlock={}", baseUrl(), chain.lastBlock().seqno());
  }

  /** Settings of a {@link Devnet}; {@link #start()} binds the port and starts producing blocks. */
  public static final class Builder {
    private String host = "127.0.0.1";
    private int port = 0;
    private Duration blockInterval = DEFAULT_BLOCK_INTERVAL;
    private Clock clock = Clock.systemUTC();
    private Faults faults;
    private long seed = 0;
    private int httpThreads = 16;

    private Builder() {}

    public Builder host(String host) {
      this.host = Objects.requireNonNull(host, "host");
      return this;
    }

    /** 0 (the default) picks a free ephemeral port. */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port must be within 0..65535, got " + port);
      }
      this.port = port;
      return this;
    }

    /** Time between blocks (default 400 ms, like mainnet); zero: blocks only on {@link Devnet#produceBlock()}. */
    public Builder blockInterval(Duration interval) {
      Objects.requireNonNull(interval, "interval");
      if (interval.isNegative()) {
        throw new IllegalArgumentException("block interval must not be negative, got " + interval);
      }
      this.blockInterval = interval;
      return this;
    }

    /** The clock of block times and of {@code valid_until} checks. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Fault settings to start with (default: none, seeded with {@link #seed}). */
    public Builder faults(Faults faults) {
      this.faults = Objects.requireNonNull(faults, "faults");
      return this;
    }

    /** Seeds block hashes and the fault decisions, so a run can be repeated. */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** Threads serving HTTP requests (default 16; injected latency holds one per request). */
    public Builder httpThreads(int threads) {
      if (threads < 1) {
        throw new IllegalArgumentException("threads must be >= 1, got " + threads);
      }
      this.httpThreads = threads;
      return this;
    }

    /** Same as {@link #start()}: the returned devnet is already serving. */
    public Devnet build() {
      return start();
    }

    public Devnet start() {
      try {
        return new Devnet(this);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot bind devnet to " + host + ":" + port, e);
      }
    }
  }
}
