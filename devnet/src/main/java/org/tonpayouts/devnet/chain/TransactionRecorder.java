package org.tonpayouts.devnet.chain;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

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

  /** Records a transaction of {@code account} in {@code build}: the account's last transaction from now on. */
  DevnetTransaction record(BlockBuild build, Account account, long txLt, DevnetMessage in, List<DevnetMessage> outs,
                           long fee, boolean aborted, String description) {
    String hash = hash(account, txLt, build.utime, in, outs, fee, aborted);
    DevnetTransaction tx = new DevnetTransaction(account.address, txLt, hash, build.utime, build.seqno, in, outs, fee,
        aborted, account.lastTxLt, account.lastTxHash, description);
    account.record(tx);
    build.touched.add(account);
    build.txHashes.add(hash);
    counters.transactions++;
    return tx;
  }

  /** SHA-256 over a deterministic encoding of the transaction (not a TL-B Transaction hash). */
  private static String hash(Account account, long txLt, long utime, DevnetMessage in, List<DevnetMessage> outs,
                             long fee, boolean aborted) {
    MessageDigest sha = Sha256.digest();
    sha.update("devnet-tx-v1".getBytes(StandardCharsets.US_ASCII));
    sha.update((byte) account.address.workchain());
    sha.update(account.address.hash());
    sha.update(Sha256.longs(txLt, utime, account.lastTxLt, fee, aborted ? 1 : 0));
    sha.update(HexFormat.of().parseHex(account.lastTxHash));
    sha.update(HexFormat.of().parseHex(in.hash()));
    for (DevnetMessage out : outs) {
      sha.update(HexFormat.of().parseHex(out.hash()));
    }
    return Cells.hex(sha.digest());
  }
}
