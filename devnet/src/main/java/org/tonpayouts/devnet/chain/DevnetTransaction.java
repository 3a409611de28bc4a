package org.tonpayouts.devnet.chain;

import java.util.List;
import java.util.Objects;
import org.tonpayouts.ton.address.TonAddress;

/**
 * A transaction devnet applied to one account. Hashes are lowercase hex.
 *
 * <p>{@code hash} is the hash of the transaction's TL-B {@code Transaction} cell, whose BOC is
 * {@code data}: account, lt, previous transaction, time, statuses, the in and out message cells,
 * total fees, a state update and the phases ({@code TransactionPhases}), as a real node writes
 * them. Devnet's own parts: flat fees, stand-in VM steps and account-state hashes.
 *
 * @param inMsg the message that caused it (every devnet transaction has one)
 * @param totalFee nanotons the account paid (compute plus forwarding fees)
 * @param aborted the transaction's aborted flag, set as the real node sets it: unless both the
 *     compute and the action phase succeeded. An external message whose send (without +2) could
 *     not be paid: compute fee charged, nothing sent, the wallet's seqno unchanged. An internal
 *     message to an account without code (compute phase skipped) is aborted too, though its value
 *     stays (or bounces).
 * @param description a short human-readable summary (deployed, skipped sends, bounce, ...)
 * @param data base64 BOC of the TL-B Transaction cell (toncenter's {@code data})
 */
public record DevnetTransaction(TonAddress account, long lt, String hash, long utime, long blockSeqno,
                                DevnetMessage inMsg, List<DevnetMessage> outMsgs, long totalFee, boolean aborted,
                                long prevLt, String prevHash, String description, String data) {
  public DevnetTransaction {
    Objects.requireNonNull(account, "account");
    Objects.requireNonNull(hash, "hash");
    Objects.requireNonNull(inMsg, "inMsg");
    Objects.requireNonNull(data, "data");
    outMsgs = List.copyOf(outMsgs);
  }
}
