package org.tonpayouts.devnet.chain;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.ton.cell.MalformedCellException;
import org.tonpayouts.ton.cell.MessageCells;
import org.tonpayouts.ton.cell.TonCell;

/**
 * Builds blocks, as a validator does: foreign transfers first, then the mempool in arrival order,
 * each message judged again against the state the block has reached, then the internal messages
 * those transactions sent (bounces included), all in the same block. Guarded by the
 * {@link Chain}'s lock.
 *
 * <p>Internal messages are processed first in, first out, each as a transaction of its
 * destination in the block that made it: a plain account or a wallet is credited, a contract
 * devnet runs (a jetton wallet, a minter: {@link ContractTransactions}) runs and may send more
 * messages, which join the end of the same queue. So a jetton transfer's whole chain (wallet,
 * sender jetton wallet, receiver jetton wallet, notification, excess, bounces) lands in one
 * block, every transaction's lt above the lt of the message that caused it, and the order is the
 * one @ton/sandbox's queue gives (the golden jetton traces compare it). On mainnet these hops
 * may spread over several blocks when they cross shards; {@link #delayBounces} models that for
 * bounces. A block delivers at most {@value #MAX_INTERNAL_PER_BLOCK} internal messages; the rest
 * wait for the next block (contracts that message each other forever cannot stall devnet).
 *
 * <p>A message whose transaction aborts (a send without +2 that the wallet cannot pay) leaves an
 * aborted transaction (compute fee charged, seqno unchanged) and stays in the mempool: it is
 * retried in every later block until it applies, its seqno is used, or {@code valid_until}
 * passes, as the message itself stays valid on chain and SDKs re-send it. Only the first abort is
 * recorded; the retries that abort again leave no further transaction and charge nothing (a real
 * chain would charge each re-sent copy).
 */
final class BlockProducer {
  private static final Logger log = LoggerFactory.getLogger(Chain.class);

  private final AccountStore accounts;
  private final Mempool mempool;
  private final Blocks blocks;
  private final BlockIndex index;
  private final TransactionRecorder recorder;
  private final ChainCounters counters;
  private final ContractCodes codes;
  private final ContractTransactions contracts;
  /** Internal messages past a block's limit, delivered first in the next block. */
  private final Deque<DevnetMessage> carried = new ArrayDeque<>();
  /** Bounces held back for a later block ({@link #delayBounces}), in the order they were made. */
  private final Deque<Delayed> delayedBounces = new ArrayDeque<>();
  private int bounceDelayBlocks;

  /** A bounced message and the block that delivers it. */
  private record Delayed(DevnetMessage message, long dueBlock) {}

  static final int MAX_INTERNAL_PER_BLOCK = 50_000;

  BlockProducer(AccountStore accounts, Mempool mempool, Blocks blocks, BlockIndex index, TransactionRecorder recorder,
                ChainCounters counters, ContractCodes codes) {
    this.accounts = accounts;
    this.mempool = mempool;
    this.blocks = blocks;
    this.index = index;
    this.recorder = recorder;
    this.counters = counters;
    this.codes = codes;
    this.contracts = new ContractTransactions(recorder, counters);
  }

  /** Builds and appends the next block, at unix time {@code now} (never before the last block's). */
  BlockInfo produce(long now) {
    long started = System.nanoTime();
    BlockInfo last = blocks.last();
    BlockBuild build = new BlockBuild(last.seqno() + 1, Math.max(last.utime(), now));
    long startLt = recorder.startBlock(build.seqno);

    for (ForeignTransfer transfer : mempool.takeForeign()) {
      applyForeign(build, transfer);
    }
    build.internal.addAll(carried);
    carried.clear();
    while (!delayedBounces.isEmpty() && delayedBounces.peekFirst().dueBlock() <= build.seqno) {
      build.internal.addLast(delayedBounces.pollFirst().message());
    }
    mempool.process(pending -> {
      Outcome outcome = applyExternal(build, pending);
      return outcome == Outcome.APPLIED || outcome == Outcome.VANISHED;
    });
    deliverAll(build);
    for (Account account : build.touched) {
      account.remember(build.seqno);
    }

    BlockInfo block = blocks.append(build.utime, startLt, recorder.lt(), build.txHashes);
    index.append(block, build.transactions);
    if (build.txHashes.isEmpty()) {
      log.debug("block seqno={} empty pending={}", block.seqno(), mempool.size());
    } else {
      log.info("block seqno={} txs={} applied={} aborted={} vanished={} internal={} pending={} buildMs={}",
          block.seqno(), build.txHashes.size(), build.applied, build.aborted, build.vanished, build.delivered,
          mempool.size(), (System.nanoTime() - started) / 1_000_000);
    }
    return block;
  }

  /**
   * Delivers every bounce {@code blocks} blocks after the block that made it (0: in the same
   * block), as on mainnet, where a bounce crosses shards and can take several blocks: a payout's
   * bounce may then come after the wallet's next payouts. Bounces already held keep their block.
   */
  void delayBounces(int blocks) {
    if (blocks < 0) {
      throw new IllegalArgumentException("bounce delay must be >= 0 blocks, got " + blocks);
    }
    bounceDelayBlocks = blocks;
  }

  // ---- external messages --------------------------------------------------------------------

  private enum Outcome { APPLIED, ABORTED, KEEP, VANISHED }

  private Outcome applyExternal(BlockBuild build, Mempool.Pending pending) {
    ExternalMessage message = pending.message.message();
    Account account = accounts.getOrCreate(message.destination());
    WalletV4R2.Accepted ok;
    try {
      ok = WalletV4R2.check(message, account.view(build.seqno), build.utime, pending.message.verifiedKey);
    } catch (MessageRejectedException e) {
      Integer exit = e.exitCode();
      if (pending.abortRecorded && exit != null && exit == MessageRejectedException.OUT_OF_GAS) {
        return Outcome.KEEP; // still valid: it may apply once the wallet is topped up
      }
      counters.vanished++;
      build.vanished++;
      log.info("message vanished wallet={} seqno={} hash={} reason={}", message.destination(),
          pending.message.seqno(), message.hash(), e.reason());
      return Outcome.VANISHED;
    }
    ActionPhase.Plan plan = ActionPhase.plan(ok.actions(), account.balance - Fees.COMPUTE_FEE);
    DevnetMessage in = ChainMessages.externalIn(message);
    if (plan.failure != null) {
      if (pending.abortRecorded) {
        return Outcome.KEEP;
      }
      pending.abortRecorded = true;
      AccountState orig = account.state;
      account.balance -= Fees.COMPUTE_FEE;
      recorder.record(build, account, orig, recorder.nextLt(), in, List.of(), Fees.COMPUTE_FEE,
          TransactionPhases.walletAborted(ok, plan),
          "aborted: " + plan.failure + "; seqno stays " + ok.body().seqno() + ", message kept pending until valid_until");
      counters.aborted++;
      build.aborted++;
      log.info("transaction aborted wallet={} seqno={} hash={} reason={}", message.destination(),
          ok.body().seqno(), message.hash(), plan.failure);
      return Outcome.ABORTED;
    }
    commit(build, account, ok, plan, in);
    counters.applied++;
    build.applied++;
    log.debug("message applied wallet={} seqno={} hash={} sends={}", message.destination(), ok.body().seqno(),
        message.hash(), plan.sends.size());
    return Outcome.APPLIED;
  }

  private void applyForeign(BlockBuild build, ForeignTransfer transfer) {
    Account account = accounts.getOrCreate(transfer.wallet());
    if (account.state != AccountState.ACTIVE || account.wallet == null) {
      log.info("foreign transfer dropped wallet={} reason=not an active WalletV4R2 any more", transfer.wallet());
      return;
    }
    WalletData wallet = account.wallet;
    ExternalMessage message;
    WalletV4R2.Accepted ok;
    try {
      message = ExternalMessage.read(transfer.externalMessage(wallet, build.utime));
      WalletV4R2.Body parsed = WalletV4R2.parseBody(message.body(), transfer.wallet());
      ok = new WalletV4R2.Accepted(message, wallet, false, parsed, WalletV4R2.parseActions(parsed, transfer.wallet()));
    } catch (MalformedMessageException | MessageRejectedException e) {
      throw new IllegalStateException("devnet built an unreadable foreign transfer: " + e.getMessage(), e);
    }
    if (account.balance < Fees.COMPUTE_FEE) {
      log.info("foreign transfer dropped wallet={} reason=balance {} cannot pay the compute fee",
          transfer.wallet(), account.balance);
      return;
    }
    ActionPhase.Plan plan = ActionPhase.plan(ok.actions(), account.balance - Fees.COMPUTE_FEE);
    commit(build, account, ok, plan, ChainMessages.externalIn(message));
    counters.foreignApplied++;
    log.info("foreign transfer applied wallet={} seqno={} destination={} amount={} hash={}", transfer.wallet(),
        wallet.seqno(), transfer.destination(), transfer.amount(), message.hash());
  }

  /** Applies an accepted message whose action phase succeeds: deploy, seqno + 1, fees, sends. */
  private void commit(BlockBuild build, Account account, WalletV4R2.Accepted ok, ActionPhase.Plan plan,
                      DevnetMessage in) {
    List<String> notes = new ArrayList<>();
    AccountState orig = account.state;
    if (ok.deploys()) {
      account.state = AccountState.ACTIVE;
      notes.add("deployed WalletV4R2");
    }
    account.wallet = ok.wallet().withSeqno((ok.body().seqno() + 1) & 0xFFFF_FFFFL);
    account.balance = plan.remaining;
    long txLt = recorder.nextLt();
    List<DevnetMessage> outs = new ArrayList<>();
    List<TonCell> outCells = new ArrayList<>();
    for (ActionPhase.Send send : plan.sends) {
      DevnetMessage out = ChainMessages.internal(account.address, send.destination(), send.value(), send.bounce(),
          false, send.fwdFee(), recorder.nextLt(), build.utime, send.body(), send.init());
      outs.add(out);
      outCells.add(out.cell());
    }
    notes.add("seqno " + ok.body().seqno() + " -> " + account.wallet.seqno());
    notes.add("sent " + outs.size());
    if (plan.skipped > 0) {
      notes.add("skipped " + plan.skipped + " send(s) that failed with +2 (ignore errors): " + plan.skipNotes);
    }
    boolean destroyed = plan.destroy && account.balance == 0;
    if (destroyed) {
      account.state = AccountState.NONEXISTENT;
      account.wallet = null;
      notes.add("destroyed (mode +32, balance 0): seqno reset");
    }
    recorder.record(build, account, orig, txLt, in, outs, Fees.COMPUTE_FEE + plan.fwdFees,
        TransactionPhases.walletApplied(ok, plan, outCells, destroyed), String.join("; ", notes));
    build.internal.addAll(outs);
  }

  // ---- internal messages --------------------------------------------------------------------

  /**
   * Delivers {@code build}'s internal messages, and those they cause, first in, first out, up to
   * the block's limit; what is left waits for the next block.
   */
  void deliverAll(BlockBuild build) {
    while (!build.internal.isEmpty()) {
      if (build.delivered >= MAX_INTERNAL_PER_BLOCK) {
        log.warn("block seqno={} reached {} internal messages: {} wait for the next block", build.seqno,
            MAX_INTERNAL_PER_BLOCK, build.internal.size());
        carried.addAll(build.internal);
        build.internal.clear();
        return;
      }
      deliver(build, build.internal.pollFirst());
    }
  }

  private void deliver(BlockBuild build, DevnetMessage msg) {
    build.delivered++;
    Account account = accounts.getOrCreate(msg.destination());
    ContractState deploying = account.state == AccountState.ACTIVE ? null : deployable(account, msg);
    if (deploying != null || (account.state == AccountState.ACTIVE && account.contract != null)) {
      for (DevnetMessage out : contracts.deliver(build, account, msg, deploying)) {
        if (out.bounced() && bounceDelayBlocks > 0) {
          delayedBounces.addLast(new Delayed(out, build.seqno + bounceDelayBlocks));
        } else {
          build.internal.addLast(out);
        }
      }
      return;
    }
    AccountState orig = account.state;
    long txLt = recorder.nextLt();
    if (account.state == AccountState.ACTIVE) {
      long fee = Math.min(Fees.RECEIVE_FEE, account.balance + msg.value());
      account.balance += msg.value() - fee;
      recorder.record(build, account, orig, txLt, msg, List.of(), fee, TransactionPhases.received(msg, fee),
          msg.bounced() ? "bounced message received" : "received");
    } else if (msg.bounce() && !msg.bounced() && msg.value() > Fees.BOUNCE_FEE) {
      DevnetMessage bounced = ChainMessages.internal(account.address, msg.source(), msg.value() - Fees.BOUNCE_FEE,
          false, true, Fees.BOUNCE_FEE, recorder.nextLt(), build.utime, ChainMessages.bouncedBody(msg.body()), null);
      recorder.record(build, account, orig, txLt, msg, List.of(bounced), Fees.BOUNCE_FEE,
          TransactionPhases.bounced(msg, bounced), "bounced: account is " + account.state.name().toLowerCase() + " and the message is bounceable");
      if (bounceDelayBlocks > 0) {
        delayedBounces.addLast(new Delayed(bounced, build.seqno + bounceDelayBlocks));
      } else {
        build.internal.addLast(bounced);
      }
    } else {
      account.balance += msg.value();
      if (account.state == AccountState.NONEXISTENT) {
        account.state = AccountState.UNINITIALIZED;
      }
      recorder.record(build, account, orig, txLt, msg, List.of(), 0, TransactionPhases.keptWithoutCode(msg),
          "received by an account without code");
    }
  }

  /**
   * The contract {@code msg}'s StateInit deploys on {@code account}: one whose hash is the
   * account's address and whose code devnet runs; {@code null} otherwise (a StateInit of other
   * code, a WalletV4R2's included, deploys nothing from an internal message on devnet).
   */
  private ContractState deployable(Account account, DevnetMessage msg) {
    if (msg.init() == null || !Arrays.equals(msg.init().hash(), account.address.hash())) {
      return null;
    }
    try {
      return codes.deploy(MessageCells.readStateInit(msg.init()));
    } catch (MalformedCellException e) {
      return null;
    }
  }
}
