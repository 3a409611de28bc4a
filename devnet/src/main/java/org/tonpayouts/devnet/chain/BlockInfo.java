package org.tonpayouts.devnet.chain;

/**
 * One devnet masterchain block. devnet has a single chain of blocks: every account lives in it,
 * whatever its workchain. Hashes are lowercase hex, derived from the seed, the seqno and the
 * block's transactions (not real TL-B hashes).
 */
public record BlockInfo(long seqno, long utime, String rootHash, String fileHash, long startLt, long endLt,
                        int transactionCount) {
  public static final int WORKCHAIN = -1;
  /** The masterchain shard, 0x8000000000000000, as toncenter prints it (a signed long). */
  public static final String SHARD = Long.toString(Long.MIN_VALUE);
}
