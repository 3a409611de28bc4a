package org.tonpayouts.devnet.chain;

import java.util.ArrayList;
import java.util.List;
import org.tonpayouts.ton.cell.TonCell;

/**
 * Writes transactions into accounts and hands out logical times: block N starts at
 * {@code N * LT_PER_BLOCK}, and every transaction and created message takes the next lt. Guarded
 * by the {@link Chain}'s lock.
 */
final class TransactionRecorder {
  /** Each block's logical times start at {@code seqno * LT_PER_BLOCK}, so lt tells the block. */
  static final long LT_PER_BLOCK = 1_000_000L;

  private final ChainCounters counters;
  private long lt = LT_PER_BLOCK;

  TransactionRecorder(ChainCounters counters) {
    this.counters = counters;
  }

  /** Moves the logical time to block {@code seqno}'s start (if not past it) and returns it. */
  long startBlock(long seqno) {
    lt = Math.max(lt, seqno * LT_PER_BLOCK);
    return lt;
  }

  /** The last logical time handed out. */
  long lt() {
    return lt;
  }

  long nextLt() {
    return ++lt;
  }

  /**
   * Records a transaction of {@code account} in {@code build}, whose state the caller already
   * changed (from {@code origStatus}): builds its TL-B cell, which names it, and makes it the
   * account's last transaction.
   */
  DevnetTransaction record(BlockBuild build, Account account, AccountState origStatus, long txLt, DevnetMessage in,
                           List<DevnetMessage> outs, long fee, TransactionPhases phases, String description) {
    List<TonCell> outCells = new ArrayList<>(outs.size());
    for (DevnetMessage out : outs) {
      outCells.add(out.cell());
    }
    byte[] newStateHash = account.stateHashWith(txLt);
    TonCell cell = TransactionCell.build(account.address.hash(), txLt, account.lastTxHash, account.lastTxLt, build.utime,
        origStatus, account.state, in.cell(), outCells, fee, account.stateHash, newStateHash, phases);
    String hash = cell.hashHex();
    DevnetTransaction tx = new DevnetTransaction(account.address, txLt, hash, build.utime, build.seqno, in, outs, fee,
        phases.aborted(), account.lastTxLt, account.lastTxHash, description, cell.toBase64());
    account.record(tx, newStateHash);
    build.touched.add(account);
    build.txHashes.add(hash);
    build.transactions.add(tx);
    counters.transactions++;
    return tx;
  }
}
