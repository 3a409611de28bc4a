package org.tonpayouts.ton.api;

import java.util.Locale;

/**
 * A block id as toncenter gives it ({@code ton.blockIdExt}): what a block follower names a
 * masterchain or shard block by. The shard is the signed 64-bit value toncenter prints as a
 * decimal string ({@code -9223372036854775808} is {@code 0x8000000000000000}, a whole
 * workchain); hashes are lowercase hex.
 *
 * <p>A block known only by its seqno (a follower walking a shard's seqnos up to the top that
 * {@code shards} reported) has null hashes: the server then looks the block up by seqno.
 *
 * @param rootHash the block's root hash, null when unknown
 * @param fileHash the block's file hash, null when unknown
 */
public record BlockId(int workchain, long shard, long seqno, String rootHash, String fileHash) {
  /** The shard that is the whole workchain (no split): {@code 0x8000000000000000}. */
  public static final long WHOLE_WORKCHAIN = Long.MIN_VALUE;

  public BlockId {
    if (seqno < 0) {
      throw new IllegalArgumentException("seqno must not be negative, got " + seqno);
    }
    if ((rootHash == null) != (fileHash == null)) {
      throw new IllegalArgumentException("give both hashes or neither (block " + workchain + ":" + seqno + ")");
    }
    rootHash = lowerHex("rootHash", rootHash);
    fileHash = lowerHex("fileHash", fileHash);
  }

  /** A block named by workchain, shard and seqno only; the server finds its hashes. */
  public static BlockId bySeqno(int workchain, long shard, long seqno) {
    return new BlockId(workchain, shard, seqno, null, null);
  }

  /** The same block, named by seqno only: hashes dropped. */
  public BlockId withoutHashes() {
    return hasHashes() ? bySeqno(workchain, shard, seqno) : this;
  }

  /** True when the hashes are known, so the server can read exactly this block. */
  public boolean hasHashes() {
    return rootHash != null;
  }

  /** The shard as 16 hex digits, as the node prints it: {@code 8000000000000000}. */
  public String shardHex() {
    return String.format(Locale.ROOT, "%016x", shard);
  }

  /** {@code (workchain,shardhex,seqno)}, the node's short form of a block id. */
  @Override
  public String toString() {
    return "(" + workchain + "," + shardHex() + "," + seqno + ")" + (hasHashes() ? ":" + rootHash + ":" + fileHash : "");
  }

  private static String lowerHex(String name, String hash) {
    if (hash == null) {
      return null;
    }
    if (hash.length() != 64 || !hash.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
      throw new IllegalArgumentException(name + " must be 64 hex digits, got '" + hash + "'");
    }
    return hash.toLowerCase(Locale.ROOT);
  }
}
