package org.tonpayouts.devnet.chain;

import java.util.Objects;

/**
 * One block of one of devnet's two shardchains, as block reads name it ({@code ton.blockIdExt}):
 * a masterchain block (workchain -1, the {@link BlockInfo} of that seqno) or a block of the
 * basechain's single shard (workchain 0, shard {@code 0x8000000000000000}). Every masterchain
 * block references exactly one new basechain block, whose seqno is the masterchain seqno plus
 * {@link Chain#SHARD_SEQNO_OFFSET}, so a client that confuses the two numbers asks for a block
 * that is not there. Hashes are lowercase hex.
 *
 * @param masterchainSeqno the masterchain block that references (or is) this block
 */
public record ShardBlock(int workchain, long shard, long seqno, String rootHash, String fileHash,
                         long masterchainSeqno, long utime) {
  /** The one shard of each devnet chain: the whole workchain. */
  public static final long WHOLE_SHARD = Long.MIN_VALUE;

  public ShardBlock {
    Objects.requireNonNull(rootHash, "rootHash");
    Objects.requireNonNull(fileHash, "fileHash");
  }

  /** The masterchain block {@code block} as a shardchain block. */
  static ShardBlock masterchain(BlockInfo block) {
    return new ShardBlock(BlockInfo.WORKCHAIN, WHOLE_SHARD, block.seqno(), block.rootHash(), block.fileHash(),
        block.seqno(), block.utime());
  }
}
