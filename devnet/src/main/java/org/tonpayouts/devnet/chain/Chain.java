package org.tonpayouts.devnet.chain;

import org.tonpayouts.ton.wallet.TextComment;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.ton.ton4j.cell.Cell;
import org.ton.ton4j.cell.CellBuilder;
import org.ton.ton4j.cell.CellSlice;
import org.ton.ton4j.tlb.CurrencyCollection;
import org.ton.ton4j.tlb.ExternalMessageInInfo;
import org.ton.ton4j.tlb.InternalMessageInfo;
import org.ton.ton4j.tlb.InternalMessageInfoRelaxed;
import org.ton.ton4j.tlb.Message;
import org.ton.ton4j.tlb.MessageRelaxed;
import org.ton.ton4j.tlb.MsgAddressExtNone;
import org.ton.ton4j.tlb.MsgAddressIntStd;
import org.ton.ton4j.tlb.StateInit;
import org.tonpayouts.ton.address.TonAddress;

/**
 * The devnet chain: accounts, the mempool of accepted external messages, and the block builder
 * that applies them. What every devnet endpoint reads and writes.
 *
 * <p>Like a liteserver, {@link #check} judges a message against the last applied state; like a
 * validator, {@link #produceBlock} judges it again in arrival order against the state the block
 * has reached. So of two messages with one seqno both are accepted, one applies, the other
 * vanishes without a trace.
 *
 * <p>A message whose transaction aborts (a send without +2 that the wallet cannot pay) leaves an
 * aborted transaction (compute fee charged, seqno unchanged) and stays in the mempool: devnet
 * retries it in every later block until it applies, its seqno is used, or {@code valid_until}
 * passes, as the message itself stays valid on chain and SDKs re-send it. Only the first abort is
 * recorded; the retries that abort again leave no further transaction and charge nothing (a real
 * chain would charge each re-sent copy). The mempool keeps one copy per message hash.
 *
 * <p>Internal messages are delivered in the block that created them, after the external
 * messages, including bounces. Thread-safe: one lock guards all state; the Ed25519 check of
 * {@link #check} runs outside it.
 */
public final class Chain {
  private static final Logger log = LoggerFactory.getLogger(Chain.class);

  /** Source of the internal messages {@link #fund} credits accounts with. */
  public static final TonAddress FAUCET = TonAddress.of(TonAddress.MASTERCHAIN, sha256("devnet faucet"));
  /** Blocks kept for {@code seqno}-pinned reads. */
  static final int BLOCK_HISTORY = Account.HISTORY;
  /** Each block's logical times start at {@code seqno * LT_PER_BLOCK}, so lt tells the block. */
  static final long LT_PER_BLOCK = 1_000_000L;
  private static final int MODE_PAY_FEES_SEPARATELY = 1;
  private static final int MODE_IGNORE_ERRORS = 2;
  private static final int MODE_BOUNCE_ON_ACTION_FAIL = 16;
  private static final int MODE_DESTROY_IF_ZERO = 32;
  private static final int MODE_CARRY_INBOUND_VALUE = 64;
  private static final int MODE_CARRY_ALL_BALANCE = 128;
  private static final int FOREIGN_SEND_MODE = 3;
  private static final long FOREIGN_TTL_SECONDS = 60;
  /** Action phase result codes of the real VM, used in transaction descriptions. */
  private static final int RESULT_INVALID_MESSAGE = 34;
  private static final int RESULT_NOT_ENOUGH_BALANCE = 37;

  private final Object lock = new Object();
  private final Clock clock;
  private final long seed;
  private final Map<TonAddress, Account> accounts = new HashMap<>();
  private final List<Pending> mempool = new ArrayList<>();
  private final Set<String> pendingHashes = new HashSet<>();
  private final List<ForeignTransfer> foreignTransfers = new ArrayList<>();
  private final ArrayDeque<BlockInfo> blocks = new ArrayDeque<>();
  private final BlockInfo genesis;
  private BlockInfo last;
  private long lt;
  private long accepted;
  private long rejected;
  private long applied;
  private long aborted;
  private long vanished;
  private long foreignApplied;
  private long transactionCount;

  public Chain(Clock clock, long seed) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.seed = seed;
    long now = clock.instant().getEpochSecond();
    this.genesis = new BlockInfo(0, now, blockHash("root", 0, List.of()), blockHash("file", 0, List.of()), 0, 0, 0);
    this.last = genesis;
    this.lt = LT_PER_BLOCK;
    blocks.addLast(genesis);
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
    AccountView account = account(message.destination());
    try {
      WalletV4R2.Accepted ok = WalletV4R2.check(message, account, clock.instant().getEpochSecond(), null);
      return new CheckedMessage(message, ok.body().seqno(), ok.wallet().subwalletId(), ok.wallet().publicKey());
    } catch (MessageRejectedException e) {
      synchronized (lock) {
        rejected++;
      }
      log.info("message rejected wallet={} exitcode={} hash={} reason={}",
          message.destination(), e.exitCode(), message.hash(), e.reason());
      throw e;
    }
  }

  /**
   * Like {@link #check}, but as a liteserver that has only reached {@code block} judges it: against
   * the account as of that block and with that block's time as "now" (a lagging node's view).
   */
  public CheckedMessage checkAsOf(byte[] boc, BlockInfo block) throws MalformedMessageException, MessageRejectedException {
    Objects.requireNonNull(block, "block");
    ExternalMessage message = ExternalMessage.parse(boc);
    AccountView account = accountAt(message.destination(), block.seqno());
    try {
      WalletV4R2.Accepted ok = WalletV4R2.check(message, account, block.utime(), null);
      return new CheckedMessage(message, ok.body().seqno(), ok.wallet().subwalletId(), ok.wallet().publicKey());
    } catch (MessageRejectedException e) {
      synchronized (lock) {
        rejected++;
      }
      log.info("message rejected wallet={} exitcode={} hash={} asOfBlock={} reason={}",
          message.destination(), e.exitCode(), message.hash(), block.seqno(), e.reason());
      throw e;
    }
  }

  /**
   * Puts a checked message into the mempool; the next block judges it again and applies it or
   * drops it. A copy of a message already pending (same hash: SDKs re-send the same BOC every
   * block) is not added twice, as a validator's mempool keeps one copy per hash.
   */
  public void enqueue(CheckedMessage message) {
    Objects.requireNonNull(message, "message");
    boolean duplicate;
    synchronized (lock) {
      accepted++;
      duplicate = pendingHashes.contains(message.message().hash());
      if (!duplicate) {
        mempool.add(new Pending(message));
        pendingHashes.add(message.message().hash());
      }
    }
    log.debug("message queued wallet={} seqno={} hash={} alreadyPending={}", message.message().destination(),
        message.seqno(), message.message().hash(), duplicate);
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
      BlockBuild build = new BlockBuild(last.seqno(), Math.max(last.utime(), clock.instant().getEpochSecond()));
      Account account = account(address, true);
      DevnetMessage in = internalMessage(FAUCET, address, nano, false, false, 0, nextLt(), build.utime,
          Cells.EMPTY, null, null);
      account.balance += nano;
      String description = "funded by devnet";
      if (active && account.state != AccountState.ACTIVE) {
        account.state = AccountState.ACTIVE;
        account.wallet = null;
        description = "funded by devnet as a plain active account";
      } else if (account.state == AccountState.NONEXISTENT) {
        account.state = AccountState.UNINITIALIZED;
      }
      DevnetTransaction tx = record(build, account, nextLt(), in, List.of(), 0, false, description);
      account.remember(last.seqno());
      log.info("funded account={} amount={} state={} balance={}", address, nano, account.state, account.balance);
      return tx;
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
      Account account = accounts.get(wallet);
      if (account == null || account.state != AccountState.ACTIVE || account.wallet == null) {
        throw new IllegalStateException("account " + wallet + " is not a deployed WalletV4R2");
      }
      foreignTransfers.add(new ForeignTransfer(wallet, destination, amount, comment, bounce));
    }
    log.info("foreign transfer queued wallet={} destination={} amount={}", wallet, destination, amount);
  }

  // ---- blocks -------------------------------------------------------------------------------

  /** Builds the next block: foreign transfers, then the mempool in arrival order, then internal messages. */
  public BlockInfo produceBlock() {
    synchronized (lock) {
      long started = System.nanoTime();
      long seqno = last.seqno() + 1;
      BlockBuild build = new BlockBuild(seqno, Math.max(last.utime(), clock.instant().getEpochSecond()));
      lt = Math.max(lt, seqno * LT_PER_BLOCK);
      long startLt = lt;

      for (ForeignTransfer transfer : foreignTransfers) {
        applyForeign(build, transfer);
      }
      foreignTransfers.clear();

      Iterator<Pending> it = mempool.iterator();
      while (it.hasNext()) {
        Pending pending = it.next();
        Outcome outcome = applyExternal(build, pending);
        if (outcome == Outcome.APPLIED || outcome == Outcome.VANISHED) {
          it.remove();
          pendingHashes.remove(pending.message.message().hash());
        }
      }

      while (!build.internal.isEmpty()) {
        deliver(build, build.internal.pollFirst());
      }

      for (Account account : build.touched) {
        account.remember(seqno);
      }
      BlockInfo block = new BlockInfo(seqno, build.utime, blockHash("root", seqno, build.txHashes),
          blockHash("file", seqno, build.txHashes), startLt, lt, build.txHashes.size());
      blocks.addLast(block);
      while (blocks.size() > BLOCK_HISTORY) {
        blocks.pollFirst();
      }
      last = block;
      lock.notifyAll();
      if (build.txHashes.isEmpty()) {
        log.debug("block seqno={} empty pending={}", seqno, mempool.size());
      } else {
        log.info("block seqno={} txs={} applied={} aborted={} vanished={} internal={} pending={} buildMs={}", seqno,
            build.txHashes.size(), build.applied, build.aborted, build.vanished, build.delivered, mempool.size(),
            (System.nanoTime() - started) / 1_000_000);
      }
      return block;
    }
  }

  /** Waits until block {@code seqno} is applied; false on timeout. */
  public boolean awaitBlock(long seqno, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (lock) {
      while (last.seqno() < seqno) {
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
      return last;
    }
  }

  public BlockInfo genesis() {
    return genesis;
  }

  /** Block {@code seqno} if it is among the last {@value #BLOCK_HISTORY}, else {@code null}. */
  public BlockInfo block(long seqno) {
    synchronized (lock) {
      for (BlockInfo b : blocks) {
        if (b.seqno() == seqno) {
          return b;
        }
      }
      return null;
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
      return recentBlock(last.seqno() - k);
    }
  }

  /**
   * Block {@code seqno}, or the oldest block devnet remembers when it is older (the chain start
   * at first), or the last block when it is newer.
   */
  public BlockInfo recentBlock(long seqno) {
    synchronized (lock) {
      if (seqno >= last.seqno()) {
        return last;
      }
      BlockInfo oldest = blocks.peekFirst();
      if (seqno <= oldest.seqno()) {
        return oldest;
      }
      // blocks holds consecutive seqnos, oldest first
      Iterator<BlockInfo> newestFirst = blocks.descendingIterator();
      BlockInfo block = newestFirst.next();
      while (block.seqno() > seqno) {
        block = newestFirst.next();
      }
      return block;
    }
  }

  /** The account as of the last applied block (including funding done since). */
  public AccountView account(TonAddress address) {
    synchronized (lock) {
      Account account = accounts.get(address);
      return account == null ? AccountView.nonexistent(address, last.seqno()) : account.view(last.seqno());
    }
  }

  /**
   * The account as it was at the end of block {@code seqno} (for stale reads and seqno-pinned
   * queries); views older than the last {@value Account#HISTORY} changes are forgotten.
   */
  public AccountView accountAt(TonAddress address, long seqno) {
    synchronized (lock) {
      if (seqno >= last.seqno()) {
        return account(address);
      }
      Account account = accounts.get(address);
      return account == null ? AccountView.nonexistent(address, Math.max(seqno, 0))
          : account.viewAt(Math.max(seqno, 0));
    }
  }

  /** The account's transactions, oldest first. */
  public List<DevnetTransaction> transactions(TonAddress address) {
    synchronized (lock) {
      Account account = accounts.get(address);
      return account == null ? List.of() : List.copyOf(account.transactions);
    }
  }

  /** The account's transactions of blocks up to {@code blockSeqno}, oldest first: what a node at that block knows. */
  public List<DevnetTransaction> transactions(TonAddress address, long blockSeqno) {
    synchronized (lock) {
      Account account = accounts.get(address);
      if (account == null) {
        return List.of();
      }
      List<DevnetTransaction> all = account.transactions; // in block order
      int end = all.size();
      while (end > 0 && all.get(end - 1).blockSeqno() > blockSeqno) {
        end--;
      }
      return List.copyOf(all.subList(0, end));
    }
  }

  /** Every account devnet knows, as of the last applied block, in no particular order. */
  public List<AccountView> accounts() {
    synchronized (lock) {
      List<AccountView> views = new ArrayList<>(accounts.size());
      for (Account account : accounts.values()) {
        views.add(account.view(last.seqno()));
      }
      return views;
    }
  }

  public int mempoolSize() {
    synchronized (lock) {
      return mempool.size();
    }
  }

  public ChainStats stats() {
    synchronized (lock) {
      return new ChainStats(accepted, rejected, applied, aborted, vanished, foreignApplied, transactionCount,
          accounts.size(), mempool.size());
    }
  }

  // ---- applying external messages -----------------------------------------------------------

  private enum Outcome { APPLIED, ABORTED, KEEP, VANISHED }

  private Outcome applyExternal(BlockBuild build, Pending pending) {
    ExternalMessage message = pending.message.message();
    Account account = account(message.destination(), true);
    WalletV4R2.Accepted ok;
    try {
      ok = WalletV4R2.check(message, account.view(build.seqno), build.utime, pending.message.verifiedKey);
    } catch (MessageRejectedException e) {
      Integer exit = e.exitCode();
      if (pending.abortRecorded && exit != null && exit == MessageRejectedException.OUT_OF_GAS) {
        return Outcome.KEEP; // still valid: it may apply once the wallet is topped up
      }
      vanished++;
      build.vanished++;
      log.info("message vanished wallet={} seqno={} hash={} reason={}", message.destination(),
          pending.message.seqno(), message.hash(), e.reason());
      return Outcome.VANISHED;
    }
    Plan plan = plan(ok.actions(), account.balance - Fees.COMPUTE_FEE);
    DevnetMessage in = externalIn(message);
    if (plan.failure != null) {
      if (pending.abortRecorded) {
        return Outcome.KEEP;
      }
      pending.abortRecorded = true;
      account.balance -= Fees.COMPUTE_FEE;
      record(build, account, nextLt(), in, List.of(), Fees.COMPUTE_FEE, true,
          "aborted: " + plan.failure + "; seqno stays " + ok.body().seqno() + ", message kept pending until valid_until");
      aborted++;
      build.aborted++;
      log.info("transaction aborted wallet={} seqno={} hash={} reason={}", message.destination(),
          ok.body().seqno(), message.hash(), plan.failure);
      return Outcome.ABORTED;
    }
    commit(build, account, ok, plan, in);
    applied++;
    build.applied++;
    log.debug("message applied wallet={} seqno={} hash={} sends={}", message.destination(), ok.body().seqno(),
        message.hash(), plan.sends.size());
    return Outcome.APPLIED;
  }

  private void applyForeign(BlockBuild build, ForeignTransfer transfer) {
    Account account = account(transfer.wallet, true);
    if (account.state != AccountState.ACTIVE || account.wallet == null) {
      log.info("foreign transfer dropped wallet={} reason=not an active WalletV4R2 any more", transfer.wallet);
      return;
    }
    WalletData wallet = account.wallet;
    Cell order = relaxedInternal(transfer.destination, transfer.amount, transfer.bounce,
        transfer.comment == null ? null : TextComment.encode(transfer.comment));
    Cell body = CellBuilder.beginCell()
        .storeBytes(new byte[64]) // nobody's signature: the point is that we did not sign it
        .storeUint(wallet.subwalletId(), 32)
        .storeUint(build.utime + FOREIGN_TTL_SECONDS, 32)
        .storeUint(wallet.seqno(), 32)
        .storeUint(WalletV4R2.OP_SIMPLE_SEND, 8)
        .storeUint(FOREIGN_SEND_MODE, 8)
        .storeRef(order)
        .endCell();
    Cell external = Message.builder()
        .info(ExternalMessageInInfo.builder()
            .srcAddr(MsgAddressExtNone.builder().build())
            .dstAddr(std(transfer.wallet))
            .importFee(BigInteger.ZERO)
            .build())
        .body(body)
        .build()
        .toCell();
    ExternalMessage message;
    WalletV4R2.Accepted ok;
    try {
      message = ExternalMessage.parse(external.toBoc());
      WalletV4R2.Body parsed = WalletV4R2.parseBody(message.body(), transfer.wallet);
      ok = new WalletV4R2.Accepted(message, wallet, false, parsed, WalletV4R2.parseActions(parsed, transfer.wallet));
    } catch (MalformedMessageException | MessageRejectedException e) {
      throw new IllegalStateException("devnet built an unreadable foreign transfer: " + e.getMessage(), e);
    }
    if (account.balance < Fees.COMPUTE_FEE) {
      log.info("foreign transfer dropped wallet={} reason=balance {} cannot pay the compute fee",
          transfer.wallet, account.balance);
      return;
    }
    Plan plan = plan(ok.actions(), account.balance - Fees.COMPUTE_FEE);
    commit(build, account, ok, plan, externalIn(message));
    foreignApplied++;
    log.info("foreign transfer applied wallet={} seqno={} destination={} amount={} hash={}", transfer.wallet,
        wallet.seqno(), transfer.destination, transfer.amount, message.hash());
  }

  /** Applies an accepted message whose action phase succeeds: deploy, seqno + 1, fees, sends. */
  private void commit(BlockBuild build, Account account, WalletV4R2.Accepted ok, Plan plan, DevnetMessage in) {
    List<String> notes = new ArrayList<>();
    if (ok.deploys()) {
      account.state = AccountState.ACTIVE;
      notes.add("deployed WalletV4R2");
    }
    account.wallet = ok.wallet().withSeqno((ok.body().seqno() + 1) & 0xFFFF_FFFFL);
    account.balance = plan.remaining;
    long txLt = nextLt();
    List<DevnetMessage> outs = new ArrayList<>();
    for (Send send : plan.sends) {
      outs.add(internalMessage(account.address, send.destination, send.value, send.bounce, false, send.fwdFee,
          nextLt(), build.utime, send.body, send.init, send.initCell));
    }
    notes.add("seqno " + ok.body().seqno() + " -> " + account.wallet.seqno());
    notes.add("sent " + outs.size());
    if (plan.skipped > 0) {
      notes.add("skipped " + plan.skipped + " send(s) that failed with +2 (ignore errors): " + plan.skipNotes);
    }
    if (plan.destroy && account.balance == 0) {
      account.state = AccountState.NONEXISTENT;
      account.wallet = null;
      notes.add("destroyed (mode +32, balance 0): seqno reset");
    }
    record(build, account, txLt, in, outs, Fees.COMPUTE_FEE + plan.fwdFees, false, String.join("; ", notes));
    build.internal.addAll(outs);
  }

  // ---- the action phase ---------------------------------------------------------------------

  /** What the action phase will do with {@code available} nanotons, computed without side effects. */
  private Plan plan(List<WalletV4R2.Action> actions, long available) {
    Plan plan = new Plan();
    long remaining = available;
    for (int i = 0; i < actions.size(); i++) {
      WalletV4R2.Action action = actions.get(i);
      int mode = action.mode();
      boolean ignoreErrors = (mode & MODE_IGNORE_ERRORS) != 0;
      String error = null;
      Send send = null;
      Decoded decoded = decode(action.message());
      int base = mode & ~(MODE_PAY_FEES_SEPARATELY | MODE_IGNORE_ERRORS | MODE_BOUNCE_ON_ACTION_FAIL
          | MODE_DESTROY_IF_ZERO);
      if (decoded.error != null) {
        error = "result_code=" + RESULT_INVALID_MESSAGE + " (" + decoded.error + ")";
      } else if (base != 0 && base != MODE_CARRY_INBOUND_VALUE && base != MODE_CARRY_ALL_BALANCE) {
        error = "result_code=" + RESULT_INVALID_MESSAGE + " (send mode " + mode + " is not supported)";
      } else {
        long fwd = Fees.FORWARD_FEE;
        long value = decoded.value; // mode 64 adds the inbound value, which is 0 for an external message
        if (base == MODE_CARRY_ALL_BALANCE) {
          if (remaining < fwd) {
            error = notEnough(i, remaining, fwd);
          } else {
            send = decoded.send(remaining - fwd, fwd);
            remaining = 0;
          }
        } else if ((mode & MODE_PAY_FEES_SEPARATELY) != 0) {
          if (remaining < value + fwd) {
            error = notEnough(i, remaining, value + fwd);
          } else {
            send = decoded.send(value, fwd);
            remaining -= value + fwd;
          }
        } else if (value < fwd || remaining < value) {
          error = notEnough(i, remaining, Math.max(value, fwd));
        } else {
          send = decoded.send(value - fwd, fwd);
          remaining -= value;
        }
      }
      if (error != null) {
        if (!ignoreErrors) {
          plan.failure = "action phase failed at send #" + i + " (mode " + mode + "): " + error;
          return plan;
        }
        plan.skipped++;
        plan.skipNotes.add("#" + i + " " + error);
        continue;
      }
      plan.sends.add(send);
      plan.fwdFees += send.fwdFee;
      if ((mode & MODE_DESTROY_IF_ZERO) != 0) {
        plan.destroy = true;
      }
    }
    plan.remaining = remaining;
    return plan;
  }

  private static String notEnough(int index, long remaining, long needed) {
    return "result_code=" + RESULT_NOT_ENOUGH_BALANCE + " (not enough TON: " + remaining + " left, " + needed
        + " needed)";
  }

  private Decoded decode(Cell cell) {
    MessageRelaxed relaxed;
    try {
      relaxed = MessageRelaxed.deserialize(CellSlice.beginParse(cell));
    } catch (RuntimeException | AssertionError e) {
      return Decoded.error("cannot parse the outbound message: " + e.getMessage());
    } catch (Error e) {
      if (e instanceof VirtualMachineError) {
        throw e;
      }
      return Decoded.error("cannot parse the outbound message: " + e.getMessage());
    }
    if (!(relaxed.getInfo() instanceof InternalMessageInfoRelaxed info)) {
      return Decoded.error("only internal outbound messages are modelled");
    }
    if (!(info.getDstAddr() instanceof MsgAddressIntStd dst) || dst.getAnycast() != null) {
      return Decoded.error("destination is not a standard address");
    }
    TonAddress destination;
    try {
      destination = TonAddress.of(dst.getWorkchainId(), ExternalMessage.to32Bytes(dst.getAddress()));
    } catch (IllegalArgumentException e) {
      return Decoded.error("bad destination: " + e.getMessage());
    }
    BigInteger coins = info.getValue() == null ? BigInteger.ZERO : info.getValue().getCoins();
    if (coins.bitLength() > 62) {
      return Decoded.error("value " + coins + " exceeds any balance");
    }
    Cell body = relaxed.getBody() == null ? Cells.EMPTY : Cells.rebuilt(relaxed.getBody());
    StateInit init = relaxed.getInit();
    return new Decoded(null, destination, coins.longValue(), Boolean.TRUE.equals(info.getBounce()), body, init);
  }

  // ---- internal messages --------------------------------------------------------------------

  private void deliver(BlockBuild build, DevnetMessage msg) {
    build.delivered++;
    Account account = account(msg.destination(), true);
    long txLt = nextLt();
    if (account.state == AccountState.ACTIVE) {
      long fee = Math.min(Fees.RECEIVE_FEE, account.balance + msg.value());
      account.balance += msg.value() - fee;
      record(build, account, txLt, msg, List.of(), fee, false, msg.bounced() ? "bounced message received" : "received");
    } else if (msg.bounce() && !msg.bounced() && msg.value() > Fees.BOUNCE_FEE) {
      DevnetMessage bounced = internalMessage(account.address, msg.source(), msg.value() - Fees.BOUNCE_FEE, false,
          true, Fees.BOUNCE_FEE, nextLt(), build.utime, bouncedBody(msg.body()), null, null);
      record(build, account, txLt, msg, List.of(bounced), Fees.BOUNCE_FEE, false,
          "bounced: account is " + account.state.name().toLowerCase() + " and the message is bounceable");
      build.internal.addLast(bounced);
    } else {
      account.balance += msg.value();
      if (account.state == AccountState.NONEXISTENT) {
        account.state = AccountState.UNINITIALIZED;
      }
      record(build, account, txLt, msg, List.of(), 0, false, "received by an uninitialized account");
    }
  }

  /** A bounced body: 0xFFFFFFFF then the first 256 bits of the original body. */
  private static Cell bouncedBody(Cell original) {
    CellSlice slice = CellSlice.beginParse(original);
    int bits = Math.min(256, slice.getRestBits());
    CellBuilder b = CellBuilder.beginCell().storeUint(0xFFFF_FFFFL, 32);
    if (bits > 0) {
      b.storeBitString(slice.loadBits(bits));
    }
    return b.endCell();
  }

  private static DevnetMessage externalIn(ExternalMessage message) {
    return new DevnetMessage(message.hash(), null, message.destination(), 0, 0, 0, 0, false, false,
        message.body(), message.initCell(), null);
  }

  /**
   * An internal message as the chain writes it (source, fees and created_lt filled in); its hash
   * is the hash of that cell.
   */
  private static DevnetMessage internalMessage(TonAddress source, TonAddress destination, long value, boolean bounce,
                                               boolean bounced, long fwdFee, long createdLt, long createdAt,
                                               Cell body, StateInit init, Cell initCell) {
    InternalMessageInfo info = InternalMessageInfo.builder()
        .iHRDisabled(true)
        .bounce(bounce)
        .bounced(bounced)
        .srcAddr(std(source))
        .dstAddr(std(destination))
        .value(CurrencyCollection.builder().coins(BigInteger.valueOf(value)).build())
        .extraFlags(BigInteger.ZERO)
        .fwdFee(BigInteger.valueOf(fwdFee))
        .createdLt(BigInteger.valueOf(createdLt))
        .createdAt(createdAt)
        .build();
    Cell cell = Message.builder().info(info).init(init).body(body).build().toCell();
    return new DevnetMessage(Cells.hex(cell.getHash()), source, destination, value, fwdFee, createdLt, createdAt,
        bounce, bounced, body, initCell, TextComment.decode(body));
  }

  private static Cell relaxedInternal(TonAddress destination, long amount, boolean bounce, Cell body) {
    Cell info = InternalMessageInfoRelaxed.builder()
        .iHRDisabled(true)
        .bounce(bounce)
        .bounced(false)
        .srcAddr(MsgAddressExtNone.builder().build())
        .dstAddr(std(destination))
        .value(CurrencyCollection.builder().coins(BigInteger.valueOf(amount)).build())
        .iHRFee(BigInteger.ZERO)
        .fwdFee(BigInteger.ZERO)
        .createdLt(BigInteger.ZERO)
        .createdAt(0)
        .build()
        .toCell();
    CellBuilder b = CellBuilder.beginCell().storeCell(info).storeBit(false);
    if (body == null) {
      b.storeBit(false);
    } else {
      b.storeBit(true).storeRef(body);
    }
    return b.endCell();
  }

  private static MsgAddressIntStd std(TonAddress address) {
    return MsgAddressIntStd.builder()
        .workchainId((byte) address.workchain())
        .address(new BigInteger(1, address.hash()))
        .build();
  }

  // ---- bookkeeping --------------------------------------------------------------------------

  private Account account(TonAddress address, boolean create) {
    Account account = accounts.get(address);
    if (account == null && create) {
      account = new Account(address);
      accounts.put(address, account);
    }
    return account;
  }

  private long nextLt() {
    return ++lt;
  }

  private DevnetTransaction record(BlockBuild build, Account account, long txLt, DevnetMessage in,
                                   List<DevnetMessage> outs, long fee, boolean abortedTx, String description) {
    String hash = transactionHash(account, txLt, build.utime, in, outs, fee, abortedTx);
    DevnetTransaction tx = new DevnetTransaction(account.address, txLt, hash, build.utime, build.seqno, in, outs, fee,
        abortedTx, account.lastTxLt, account.lastTxHash, description);
    account.record(tx);
    build.touched.add(account);
    build.txHashes.add(hash);
    transactionCount++;
    return tx;
  }

  /** SHA-256 over a deterministic encoding of the transaction (not a TL-B Transaction hash). */
  private static String transactionHash(Account account, long txLt, long utime, DevnetMessage in,
                                        List<DevnetMessage> outs, long fee, boolean abortedTx) {
    MessageDigest sha = sha256Digest();
    sha.update("devnet-tx-v1".getBytes(StandardCharsets.US_ASCII));
    sha.update((byte) account.address.workchain());
    sha.update(account.address.hash());
    sha.update(longs(txLt, utime, account.lastTxLt, fee, abortedTx ? 1 : 0));
    sha.update(HexFormat.of().parseHex(account.lastTxHash));
    sha.update(HexFormat.of().parseHex(in.hash()));
    for (DevnetMessage out : outs) {
      sha.update(HexFormat.of().parseHex(out.hash()));
    }
    return Cells.hex(sha.digest());
  }

  private String blockHash(String kind, long seqno, List<String> txHashes) {
    MessageDigest sha = sha256Digest();
    sha.update(("devnet-block-" + kind).getBytes(StandardCharsets.US_ASCII));
    sha.update(longs(seed, seqno));
    for (String h : txHashes) {
      sha.update(HexFormat.of().parseHex(h));
    }
    return Cells.hex(sha.digest());
  }

  private static byte[] longs(long... values) {
    ByteBuffer buffer = ByteBuffer.allocate(8 * values.length);
    for (long v : values) {
      buffer.putLong(v);
    }
    return buffer.array();
  }

  private static byte[] sha256(String text) {
    return sha256Digest().digest(text.getBytes(StandardCharsets.UTF_8));
  }

  private static MessageDigest sha256Digest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is a mandatory JDK algorithm", e);
    }
  }

  // ---- small mutable holders (under the lock) -------------------------------------------------

  private static final class Pending {
    final CheckedMessage message;
    boolean abortRecorded;

    Pending(CheckedMessage message) {
      this.message = message;
    }
  }

  private record ForeignTransfer(TonAddress wallet, TonAddress destination, long amount, String comment,
                                 boolean bounce) {}

  private static final class BlockBuild {
    final long seqno;
    final long utime;
    final ArrayDeque<DevnetMessage> internal = new ArrayDeque<>();
    final Set<Account> touched = new LinkedHashSet<>();
    final List<String> txHashes = new ArrayList<>();
    int applied;
    int aborted;
    int vanished;
    int delivered;

    BlockBuild(long seqno, long utime) {
      this.seqno = seqno;
      this.utime = utime;
    }
  }

  private static final class Plan {
    final List<Send> sends = new ArrayList<>();
    final List<String> skipNotes = new ArrayList<>();
    String failure;
    long remaining;
    long fwdFees;
    int skipped;
    boolean destroy;
  }

  private record Send(TonAddress destination, long value, long fwdFee, boolean bounce, Cell body, StateInit init,
                      Cell initCell) {}

  private record Decoded(String error, TonAddress destination, long value, boolean bounce, Cell body, StateInit init) {
    static Decoded error(String error) {
      return new Decoded(error, null, 0, false, null, null);
    }

    Send send(long sentValue, long fwdFee) {
      return new Send(destination, sentValue, fwdFee, bounce, body, init, init == null ? null : init.toCell());
    }
  }
}
