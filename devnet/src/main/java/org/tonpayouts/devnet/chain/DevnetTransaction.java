package org.tonpayouts.devnet.chain;

import java.util.List;
import java.util.Objects;
import org.tonpayouts.ton.address.TonAddress;

/**
 * A transaction devnet applied to one account. Hashes are lowercase hex.
 *
 * <p>{@code hash} is SHA-256 over a deterministic encoding of the transaction's fields (account,
 * lt, utime, previous transaction, message hashes, fee, aborted flag), not the hash of a real TL-B
 * Transaction cell: unique and stable, but not what a real node would compute.
 *
 * @param inMsg the message that caused it (every devnet transaction has one)
 * @param totalFee nanotons the account paid (compute plus forwarding fees)
 * @param aborted true when the action phase failed (send mode without +2 could not pay): the
 *     compute fee was charged, nothing was sent and the wallet's seqno did not move
 * @param description a short human-readable summary (deployed, skipped sends, bounce, ...)
 */
public record DevnetTransaction(TonAddress account, long lt, String hash, long utime, long blockSeqno,
                                DevnetMessage inMsg, List<DevnetMessage> outMsgs, long totalFee, boolean aborted,
                                long prevLt, String prevHash, String description) {
  public DevnetTransaction {
    Objects.requireNonNull(account, "account");
    Objects.requireNonNull(hash, "hash");
    Objects.requireNonNull(inMsg, "inMsg");
    outMsgs = List.copyOf(outMsgs);
  }
}
