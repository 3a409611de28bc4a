package org.tonpayouts.devnet.chain;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayDeque;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;

/**
 * The chain's recent blocks: the genesis, the last applied block, and the last
 * {@value #HISTORY} blocks for reads "as of block N" (seqno-pinned reads, stale reads, lagging
 * nodes). Also names blocks: their hashes derive from the seed, the seqno and their transactions.
 * Guarded by the {@link Chain}'s lock.
 */
final class Blocks {
  /** Blocks kept; every account keeps as many views ({@link Account#HISTORY}), so one covers the other. */
  static final int HISTORY = Account.HISTORY;

  private final long seed;
  private final ArrayDeque<BlockInfo> recent = new ArrayDeque<>();
  private final BlockInfo genesis;
  private BlockInfo last;

  Blocks(long seed, long genesisUtime) {
    this.seed = seed;
    this.genesis = new BlockInfo(0, genesisUtime, hash("root", 0, List.of()), hash("file", 0, List.of()), 0, 0, 0);
    this.last = genesis;
    recent.addLast(genesis);
  }

  BlockInfo genesis() {
    return genesis;
  }

  BlockInfo last() {
    return last;
  }

  /** Appends the next block built from transactions {@code txHashes} (lowercase hex). */
  BlockInfo append(long utime, long startLt, long endLt, List<String> txHashes) {
    long seqno = last.seqno() + 1;
    BlockInfo block = new BlockInfo(seqno, utime, hash("root", seqno, txHashes), hash("file", seqno, txHashes),
        startLt, endLt, txHashes.size());
    recent.addLast(block);
    while (recent.size() > HISTORY) {
      recent.pollFirst();
    }
    last = block;
    return block;
  }

  /** Block {@code seqno} if it is among the last {@value #HISTORY}, else {@code null}. */
  BlockInfo find(long seqno) {
    for (BlockInfo b : recent) {
      if (b.seqno() == seqno) {
        return b;
      }
    }
    return null;
  }

  /** Block {@code seqno}, clamped to the oldest block kept and to the last one. */
  BlockInfo clamped(long seqno) {
    if (seqno >= last.seqno()) {
      return last;
    }
    BlockInfo oldest = recent.peekFirst();
    if (seqno <= oldest.seqno()) {
      return oldest;
    }
    Iterator<BlockInfo> newestFirst = recent.descendingIterator(); // consecutive seqnos
    BlockInfo block = newestFirst.next();
    while (block.seqno() > seqno) {
      block = newestFirst.next();
    }
    return block;
  }

  private String hash(String kind, long seqno, List<String> txHashes) {
    MessageDigest sha = Sha256.digest();
    sha.update(("devnet-block-" + kind).getBytes(StandardCharsets.US_ASCII));
    sha.update(Sha256.longs(seed, seqno));
    for (String h : txHashes) {
      sha.update(HexFormat.of().parseHex(h));
    }
    return Cells.hex(sha.digest());
  }
}
