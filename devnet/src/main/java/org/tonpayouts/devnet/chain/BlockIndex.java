package org.tonpayouts.devnet.chain;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * The transactions of the last {@value Blocks#HISTORY} blocks, for block reads: per masterchain
 * block, the basechain block it references and both blocks' transactions, each list in the order
 * a node lists a block's transactions (account id ascending, unsigned; then lt ascending). An
 * account of workchain -1 lives in the masterchain block, any other in the basechain block.
 * Guarded by the {@link Chain}'s lock.
 */
final class BlockIndex {
  /** A node's order of a block's transactions: by account id (unsigned bytes), then by lt. */
  static final Comparator<DevnetTransaction> NODE_ORDER = Comparator
      .<DevnetTransaction, byte[]>comparing(tx -> tx.account().hash(), Arrays::compareUnsigned)
      .thenComparingLong(DevnetTransaction::lt);

  /** One masterchain block, the basechain block it references, and their transactions. */
  record Entry(BlockInfo masterchain, ShardBlock basechain, List<DevnetTransaction> masterchainTxs,
               List<DevnetTransaction> basechainTxs) {
    ShardBlock block(int workchain) {
      return workchain == BlockInfo.WORKCHAIN ? ShardBlock.masterchain(masterchain) : basechain;
    }

    List<DevnetTransaction> transactions(int workchain) {
      return workchain == BlockInfo.WORKCHAIN ? masterchainTxs : basechainTxs;
    }

    Entry with(DevnetTransaction tx) {
      boolean master = tx.account().workchain() == BlockInfo.WORKCHAIN;
      return new Entry(masterchain, basechain, master ? sortedWith(masterchainTxs, tx) : masterchainTxs,
          master ? basechainTxs : sortedWith(basechainTxs, tx));
    }
  }

  private final long seed;
  /** By masterchain seqno, oldest first. */
  private final LinkedHashMap<Long, Entry> entries = new LinkedHashMap<>();

  BlockIndex(long seed, BlockInfo genesis) {
    this.seed = seed;
    append(genesis, List.of());
  }

  /** Indexes masterchain block {@code block}, made of {@code txs}, and the basechain block it references. */
  void append(BlockInfo block, List<DevnetTransaction> txs) {
    List<DevnetTransaction> master = new ArrayList<>();
    List<DevnetTransaction> base = new ArrayList<>();
    for (DevnetTransaction tx : txs) {
      (tx.account().workchain() == BlockInfo.WORKCHAIN ? master : base).add(tx);
    }
    long seqno = block.seqno() + Chain.SHARD_SEQNO_OFFSET;
    ShardBlock basechain = new ShardBlock(Chain.BASECHAIN, ShardBlock.WHOLE_SHARD, seqno, hash("root", seqno, base),
        hash("file", seqno, base), block.seqno(), block.utime());
    entries.put(block.seqno(), new Entry(block, basechain, sorted(master), sorted(base)));
    while (entries.size() > Blocks.HISTORY) {
      entries.remove(entries.keySet().iterator().next());
    }
  }

  /**
   * Adds {@code tx} to the blocks of masterchain block {@code masterchainSeqno}: devnet's funding
   * records its transaction in the last block after that block was made (their hashes stay).
   */
  void addLate(long masterchainSeqno, DevnetTransaction tx) {
    entries.computeIfPresent(masterchainSeqno, (k, entry) -> entry.with(tx));
  }

  /** Masterchain block {@code seqno} and what it references, or null when it is not kept. */
  Entry entry(long masterchainSeqno) {
    return entries.get(masterchainSeqno);
  }

  /** The masterchain seqno of the oldest block kept. */
  long oldestMasterchainSeqno() {
    return entries.keySet().iterator().next();
  }

  private String hash(String kind, long seqno, List<DevnetTransaction> txs) {
    MessageDigest sha = Sha256.digest();
    sha.update(("devnet-shard-block-" + kind).getBytes(StandardCharsets.US_ASCII));
    sha.update(Sha256.longs(seed, seqno));
    for (DevnetTransaction tx : txs) {
      sha.update(HexFormat.of().parseHex(tx.hash()));
    }
    return Cells.hex(sha.digest());
  }

  private static List<DevnetTransaction> sorted(List<DevnetTransaction> txs) {
    List<DevnetTransaction> copy = new ArrayList<>(txs);
    copy.sort(NODE_ORDER);
    return List.copyOf(copy);
  }

  private static List<DevnetTransaction> sortedWith(List<DevnetTransaction> txs, DevnetTransaction tx) {
    List<DevnetTransaction> copy = new ArrayList<>(txs);
    copy.add(tx);
    return sorted(copy);
  }
}
