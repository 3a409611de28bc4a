package org.tonpayouts.schemas;

import com.fasterxml.jackson.annotation.JsonFormat;
import java.math.BigInteger;

/**
 * The jetton side of a verdict about a jetton transfer, carried by its {@link Confirmation} and
 * {@link Settlement}: every transaction of the chain of messages after the wallet's own (whose
 * hash is the event's {@code txHash}), so an operator or an auditor can follow the payout across
 * the three accounts.
 *
 * <p>Delivered (CONFIRMED, SETTLED): the receiver's jetton wallet accepted {@code internal_transfer}
 * from {@code senderJettonWallet} with {@code queryId} ({@code receiverTxHash}). Failed: a jetton
 * wallet threw ({@code exitCode}, {@code failedAccount}); when the receiver refused, the sender's
 * re-credit ({@code returnTxHash}) is in too, so the jettons are provably back.
 *
 * @param master the jetton master, raw form
 * @param amount jetton base units of the transfer
 * @param queryId the transfer's TEP-74 {@code query_id}; written as a JSON string
 * @param senderJettonWallet the subwallet's jetton wallet, raw form
 * @param senderTxHash the sender jetton wallet's transaction that took the wallet's transfer (64 hex), or null
 * @param senderLt its logical time, or null
 * @param receiverJettonWallet the recipient's jetton wallet, raw form; null when the transfer never left the sender's
 * @param receiverTxHash the receiver jetton wallet's transaction that took {@code internal_transfer}, or null
 * @param receiverLt its logical time, or null
 * @param exitCode for a failure, the compute phase's exit code of the jetton wallet that threw; null when
 *     delivered or not readable
 * @param failedAccount for a failure, the jetton wallet that threw (raw form); null when delivered
 * @param returnTxHash for a failure: the sender jetton wallet's re-credit (the receiver refused),
 *     or our wallet's transaction that took the bounce (the sender refused); null when none
 */
public record JettonDelivery(
    String master,
    @JsonFormat(shape = JsonFormat.Shape.STRING) BigInteger amount,
    @JsonLongAsString long queryId,
    String senderJettonWallet,
    String senderTxHash,
    @JsonLongAsString Long senderLt,
    String receiverJettonWallet,
    String receiverTxHash,
    @JsonLongAsString Long receiverLt,
    Integer exitCode,
    String failedAccount,
    String returnTxHash) {

  public JettonDelivery {
    Check.nonBlank(master, "jetton.master");
    new JettonAmount(master, amount);
    Check.nonNegative(queryId, "jetton.queryId");
    Check.nonBlank(senderJettonWallet, "jetton.senderJettonWallet");
    Check.hash(senderTxHash, "jetton.senderTxHash");
    Check.nonNegative(senderLt, "jetton.senderLt");
    Check.hash(receiverTxHash, "jetton.receiverTxHash");
    Check.nonNegative(receiverLt, "jetton.receiverLt");
    Check.hash(returnTxHash, "jetton.returnTxHash");
  }

  /** True when the receiver's jetton wallet took the transfer: the only proof a jetton payout was delivered. */
  public boolean delivered() {
    return receiverTxHash != null && failedAccount == null;
  }
}
