package org.tonpayouts.devnet.chain;

/**
 * One devnet masterchain block: what {@code getMasterchainInfo} reports and what every state read
 * is "as of". It is made together with the one basechain block it references (see
 * {@link ShardBlock}); block reads split its transactions between the two by workchain. Hashes are
 * lowercase hex, derived from the seed, the seqno and the block's transactions (not real TL-B
 * hashes).
 */
public record BlockInfo(long seqno, long utime, String rootHash, String fileHash, long startLt, long endLt,
                        int transactionCount) {
  public static final int WORKCHAIN = -1;
  /** The masterchain shard, 0x8000000000000000, as toncenter prints it (a signed long). */
  public static final String SHARD = Long.toString(Long.MIN_VALUE);
}
