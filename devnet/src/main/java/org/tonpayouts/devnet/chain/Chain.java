package org.tonpayouts.devnet.chain;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.TonCell;

/**
 * The devnet chain: what every devnet endpoint reads and writes. One lock guards all state: the
 * accounts ({@link AccountStore}), the mempool ({@link Mempool}), the recent blocks
 * ({@link Blocks}) and the block builder ({@link BlockProducer}); the Ed25519 check of
 * {@link #check} runs outside it.
 *
 * <p>Like a liteserver, {@link #check} judges a message against the last applied state; like a
 * validator, {@link #produceBlock} judges it again in arrival order against the state the block
 * has reached. So of two messages with one seqno both are accepted, one applies, the other
 * vanishes without a trace. The mempool keeps one copy per message hash.
 */
public final class Chain {
  private static final Logger log = LoggerFactory.getLogger(Chain.class);

  /** Source of the internal messages {@link #fund} credits accounts with. */
  public static final TonAddress FAUCET = TonAddress.of(TonAddress.MASTERCHAIN, Sha256.of("devnet faucet"));
  /** Blocks kept for {@code seqno}-pinned, stale and lagging reads, and for block reads. */
  static final int BLOCK_HISTORY = Blocks.HISTORY;
  /** The workchain of devnet's basechain shard (accounts of workchain -1 live in the masterchain blocks). */
  public static final int BASECHAIN = 0;
  /**
   * The basechain block that masterchain block N references has seqno N + this offset, as on
   * mainnet shard seqnos run ahead of (and apart from) masterchain seqnos: a client that takes one
   * for the other asks for a block that does not exist.
   */
  public static final long SHARD_SEQNO_OFFSET = 1_000_000L;

  private final Object lock = new Object();
  private final Clock clock;
  private final AccountStore accounts = new AccountStore();
  private final Mempool mempool = new Mempool();
  private final ChainCounters counters = new ChainCounters();
  private final TransactionRecorder recorder = new TransactionRecorder(counters);
  private final Blocks blocks;
  private final BlockIndex index;
  private final BlockProducer producer;
  private final IndependentReading secondReading = new IndependentReading(4096);

  /** A chain that runs no contracts besides WalletV4R2. */
  public Chain(Clock clock, long seed) {
    this(clock, seed, ContractCodes.none());
  }

  /** A chain that also runs {@code codes} (the jetton contracts: {@code JettonContracts.codes()}). */
  public Chain(Clock clock, long seed, ContractCodes codes) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.blocks = new Blocks(seed, clock.instant().getEpochSecond());
    this.index = new BlockIndex(seed, blocks.genesis());
    this.producer = new BlockProducer(accounts, mempool, blocks, index, recorder, counters,
        Objects.requireNonNull(codes, "codes"));
  }

  public Clock clock() {
    return clock;
  }

  // ---- external messages --------------------------------------------------------------------

  /**
   * Decodes {@code boc} and runs the wallet's checks against the last applied state, as a
   * liteserver does before it forwards a message. Does not queue it: see {@link #enqueue}.
   */
  public CheckedMessage check(byte[] boc) throws MalformedMessageException, MessageRejectedException {
    ExternalMessage message = ExternalMessage.parse(boc);
    return check(boc, message, account(message.destination()), clock.instant().getEpochSecond());
  }

  /**
   * Like {@link #check}, but as a liteserver that has only reached {@code block} judges it: against
   * the account as of that block and with that block's time as "now" (a lagging node's view).
   */
  public CheckedMessage checkAsOf(byte[] boc, BlockInfo block) throws MalformedMessageException, MessageRejectedException {
    Objects.requireNonNull(block, "block");
    ExternalMessage message = ExternalMessage.parse(boc);
    return check(boc, message, accountAt(message.destination(), block.seqno()), block.utime());
  }

  private CheckedMessage check(byte[] boc, ExternalMessage message, AccountView account, long now)
      throws MalformedMessageException, MessageRejectedException {
    try {
      WalletV4R2.Accepted ok = WalletV4R2.check(message, account, now, null);
      confirmIndependently(boc, ok);
      return new CheckedMessage(message, ok.body().seqno(), ok.wallet().subwalletId(), ok.wallet().publicKey());
    } catch (MessageRejectedException e) {
      synchronized (lock) {
        counters.rejected++;
      }
      log.info("message rejected wallet={} exitcode={} hash={} asOfBlock={} reason={}",
          message.destination(), e.exitCode(), message.hash(), account.blockSeqno(), e.reason());
      throw e;
    }
  }

  /** A message only one of devnet's two readings accepts is refused, and said loudly: it is a codec bug. */
  private void confirmIndependently(byte[] boc, WalletV4R2.Accepted ok) throws MalformedMessageException {
    try {
      secondReading.confirm(boc, ok);
    } catch (MalformedMessageException e) {
      log.error("message refused wallet={} hash={}: {}", ok.message().destination(), ok.message().hash(), e.getMessage());
      throw e;
    }
  }

  /** How many distinct messages devnet's second reading agreed on (the last 4,096 are remembered). */
  int messagesReadTwice() {
    return secondReading.remembered();
  }

  /**
   * Puts a checked message into the mempool; the next block judges it again and applies it or
   * drops it. A copy of a message already pending (same hash: SDKs re-send the same BOC every
   * block) is not added twice, as a validator's mempool keeps one copy per hash.
   */
  public void enqueue(CheckedMessage message) {
    Objects.requireNonNull(message, "message");
    boolean added;
    synchronized (lock) {
      counters.accepted++;
      added = mempool.add(message);
    }
    log.debug("message queued wallet={} seqno={} hash={} alreadyPending={}", message.message().destination(),
        message.seqno(), message.message().hash(), !added);
  }

  /** {@link #check} then {@link #enqueue}. */
  public CheckedMessage submit(byte[] boc) throws MalformedMessageException, MessageRejectedException {
    CheckedMessage checked = check(boc);
    enqueue(checked);
    return checked;
  }

  // ---- admin operations ---------------------------------------------------------------------

  /**
   * Credits {@code nano} to {@code address} at once, as an internal message from {@link #FAUCET}
   * recorded as a transaction of the last block. A nonexistent account becomes uninitialized (a
   * wallet then deploys with its first StateInit message) or, with {@code active}, a plain active
   * account that receives messages like a user's wallet.
   */
  public DevnetTransaction fund(TonAddress address, long nano, boolean active) {
    Objects.requireNonNull(address, "address");
    if (nano <= 0) {
      throw new IllegalArgumentException("amount must be positive nanotons, got " + nano);
    }
    synchronized (lock) {
      BlockInfo last = blocks.last();
      BlockBuild build = new BlockBuild(last.seqno(), Math.max(last.utime(), clock.instant().getEpochSecond()));
      Account account = accounts.getOrCreate(address);
      AccountState orig = account.state;
      DevnetMessage in = ChainMessages.internal(FAUCET, address, nano, false, false, 0, recorder.nextLt(),
          build.utime, TonCell.EMPTY, null);
      account.balance += nano;
      String description = "funded by devnet";
      if (active && account.state != AccountState.ACTIVE) {
        account.state = AccountState.ACTIVE;
        account.wallet = null;
        description = "funded by devnet as a plain active account";
      } else if (account.state == AccountState.NONEXISTENT) {
        account.state = AccountState.UNINITIALIZED;
      }
      TransactionPhases phases = account.state == AccountState.ACTIVE
          ? TransactionPhases.received(in, 0) : TransactionPhases.keptWithoutCode(in);
      DevnetTransaction tx = recorder.record(build, account, orig, recorder.nextLt(), in, List.of(), 0, phases,
          description);
      account.remember(last.seqno());
      index.addLate(last.seqno(), tx);
      log.info("funded account={} amount={} state={} balance={}", address, nano, account.state, account.balance);
      return tx;
    }
  }

  /**
   * Delivers an internal message from {@code source}, an address devnet speaks for (its jetton
   * admin, for one), at once, with every message it causes, as transactions of the last block, as
   * {@link #fund} does: admin operations (deploying a jetton, minting) need no signed message and
   * their effect is readable when this returns. Bounces it causes follow {@link #delayBounces}.
   *
   * @param init the StateInit the message carries, or {@code null}
   * @return the transactions, in the order they ran
   */
  public List<DevnetTransaction> sendInternal(TonAddress source, TonAddress destination, long value, boolean bounce,
                                              TonCell body, TonCell init) {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(destination, "destination");
    Objects.requireNonNull(body, "body");
    if (value < 0) {
      throw new IllegalArgumentException("value must not be negative, got " + value);
    }
    synchronized (lock) {
      BlockInfo last = blocks.last();
      BlockBuild build = new BlockBuild(last.seqno(), Math.max(last.utime(), clock.instant().getEpochSecond()));
      build.internal.add(ChainMessages.internal(source, destination, value, bounce, false, 0, recorder.nextLt(),
          build.utime, body, init));
      producer.deliverAll(build);
      for (Account account : build.touched) {
        account.remember(last.seqno());
      }
      for (DevnetTransaction tx : build.transactions) {
        index.addLate(last.seqno(), tx);
      }
      log.info("internal message delivered at once source={} destination={} value={} transactions={}", source,
          destination, value, build.transactions.size());
      return List.copyOf(build.transactions);
    }
  }

  /**
   * Queues an outgoing transfer from an active WalletV4R2 that our service did not sign; the next
   * block applies it as a transaction with a synthetic external message (zero signature) that
   * consumes the wallet's current seqno, sending with mode 3.
   */
  public void foreignTransfer(TonAddress wallet, TonAddress destination, long amount, String comment, boolean bounce) {
    Objects.requireNonNull(wallet, "wallet");
    Objects.requireNonNull(destination, "destination");
    if (amount <= 0) {
      throw new IllegalArgumentException("amount must be positive nanotons, got " + amount);
    }
    synchronized (lock) {
      Account account = accounts.find(wallet);
      if (account == null || account.state != AccountState.ACTIVE || account.wallet == null) {
        throw new IllegalStateException("account " + wallet + " is not a deployed WalletV4R2");
      }
      mempool.addForeign(new ForeignTransfer(wallet, destination, amount, comment, bounce));
    }
    log.info("foreign transfer queued wallet={} destination={} amount={}", wallet, destination, amount);
  }

  // ---- blocks -------------------------------------------------------------------------------

  /** Bounces are delivered {@code blocks} blocks after the block that made them (0, the default: in the same block). */
  public void delayBounces(int blocks) {
    synchronized (lock) {
      producer.delayBounces(blocks);
    }
    log.info("bounces delayed by {} blocks", blocks);
  }

  /** Builds the next block: foreign transfers, then the mempool in arrival order, then internal messages. */
  public BlockInfo produceBlock() {
    synchronized (lock) {
      BlockInfo block = producer.produce(clock.instant().getEpochSecond());
      lock.notifyAll();
      return block;
    }
  }

  /** Waits until block {@code seqno} is applied; false on timeout. */
  public boolean awaitBlock(long seqno, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (lock) {
      while (blocks.last().seqno() < seqno) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        lock.wait(Math.max(1, left / 1_000_000));
      }
      return true;
    }
  }

  // ---- reads --------------------------------------------------------------------------------

  public BlockInfo lastBlock() {
    synchronized (lock) {
      return blocks.last();
    }
  }

  public BlockInfo genesis() {
    return blocks.genesis();
  }

  /** Block {@code seqno} if it is among the last {@value #BLOCK_HISTORY}, else {@code null}. */
  public BlockInfo block(long seqno) {
    synchronized (lock) {
      return blocks.find(seqno);
    }
  }

  /**
   * The block {@code k} blocks before the last one, as a node lagging {@code k} blocks sees the
   * chain: never before the chain start, nor before the oldest block devnet remembers
   * ({@value #BLOCK_HISTORY} blocks).
   */
  public BlockInfo blockBehind(int k) {
    if (k < 0) {
      throw new IllegalArgumentException("k must be >= 0, got " + k);
    }
    synchronized (lock) {
      return blocks.clamped(blocks.last().seqno() - k);
    }
  }

  /**
   * Block {@code seqno}, or the oldest block devnet remembers when it is older (the chain start
   * at first), or the last block when it is newer.
   */
  public BlockInfo recentBlock(long seqno) {
    synchronized (lock) {
      return blocks.clamped(seqno);
    }
  }

  /**
   * The basechain block that masterchain block {@code masterchainSeqno} references (its newest
   * basechain block), or {@code null} when devnet does not keep that masterchain block (never
   * made, or older than the last {@value #BLOCK_HISTORY}).
   */
  public ShardBlock basechainBlock(long masterchainSeqno) {
    synchronized (lock) {
      BlockIndex.Entry entry = index.entry(masterchainSeqno);
      return entry == null ? null : entry.basechain();
    }
  }

  /**
   * Block {@code seqno} of {@code workchain} (-1: a masterchain seqno; 0: a basechain seqno,
   * {@link #SHARD_SEQNO_OFFSET} ahead of its masterchain block's) with its transactions in the
   * node's order, or {@code null} when devnet does not keep it (not made yet, or too old).
   */
  public BlockContents blockContents(int workchain, long seqno) {
    long masterchainSeqno = workchain == BlockInfo.WORKCHAIN ? seqno : seqno - SHARD_SEQNO_OFFSET;
    synchronized (lock) {
      BlockIndex.Entry entry = index.entry(masterchainSeqno);
      return entry == null ? null : new BlockContents(entry.block(workchain), entry.transactions(workchain));
    }
  }

  /** The masterchain seqno of the oldest block whose transactions devnet still serves. */
  public long oldestIndexedMasterchainSeqno() {
    synchronized (lock) {
      return index.oldestMasterchainSeqno();
    }
  }

  /** The account as of the last applied block (including funding done since). */
  public AccountView account(TonAddress address) {
    synchronized (lock) {
      return accounts.current(address, blocks.last().seqno());
    }
  }

  /**
   * The account as it was at the end of block {@code seqno} (for stale reads and seqno-pinned
   * queries); views older than the last {@value Account#HISTORY} changes are forgotten.
   */
  public AccountView accountAt(TonAddress address, long seqno) {
    synchronized (lock) {
      long last = blocks.last().seqno();
      return seqno >= last ? accounts.current(address, last) : accounts.at(address, Math.max(seqno, 0));
    }
  }

  /** The account's transactions, oldest first. */
  public List<DevnetTransaction> transactions(TonAddress address) {
    return transactions(address, Long.MAX_VALUE);
  }

  /** The account's transactions of blocks up to {@code blockSeqno}, oldest first: what a node at that block knows. */
  public List<DevnetTransaction> transactions(TonAddress address, long blockSeqno) {
    synchronized (lock) {
      return accounts.transactions(address, blockSeqno);
    }
  }

  /**
   * Every transaction with a logical time above {@code lt}, of every account, in lt order: what
   * the chain did since then (tests compare it with a trace; devnet keeps every account's recent
   * transactions, so this walks them all).
   */
  public List<DevnetTransaction> transactionsSince(long lt) {
    synchronized (lock) {
      return accounts.transactionsAfter(lt);
    }
  }

  /** The last logical time handed out (a transaction's or a message's). */
  public long lastLt() {
    synchronized (lock) {
      return recorder.lt();
    }
  }

  /** Every account devnet knows, as of the last applied block, in no particular order. */
  public List<AccountView> accounts() {
    synchronized (lock) {
      return accounts.views(blocks.last().seqno());
    }
  }

  public int mempoolSize() {
    synchronized (lock) {
      return mempool.size();
    }
  }

  public ChainStats stats() {
    synchronized (lock) {
      return counters.snapshot(accounts.size(), mempool.size());
    }
  }
}
