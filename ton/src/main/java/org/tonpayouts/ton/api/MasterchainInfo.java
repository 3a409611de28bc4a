package org.tonpayouts.ton.api;

/**
 * The last masterchain block the server knows ({@code getMasterchainInfo().last}); its seqno
 * advancing shows the chain (or devnet) is producing blocks. Hashes are lowercase hex.
 */
public record MasterchainInfo(int workchain, String shard, long seqno, String rootHash, String fileHash) {}
