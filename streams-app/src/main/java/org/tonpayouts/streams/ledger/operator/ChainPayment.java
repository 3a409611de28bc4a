package org.tonpayouts.streams.ledger.operator;

import org.tonpayouts.streams.ledger.sql.Checks;

/**
 * What the chain shows about the transaction an operator names to resolve a transfer as settled,
 * as the admin API verified it (the wallet's transaction with that hash exists and pays the
 * transfer's destination and amount).
 *
 * @param txHash the wallet transaction, 64 lowercase hex digits
 * @param lt its logical time
 * @param utime its unix time
 * @param feeNano its total fee
 * @param inMessageHash the hash of its inbound external message (one of ours, or another signer's)
 * @param payingOutMessages how many of its out-messages pay the transfer's destination and amount
 *     (at least 1): that many transfers may be settled by it
 */
public record ChainPayment(String txHash, long lt, long utime, long feeNano, String inMessageHash,
                           int payingOutMessages) {

  public ChainPayment {
    txHash = Checks.hash(txHash, "txHash");
    inMessageHash = Checks.hashOrNull(inMessageHash, "inMessageHash");
    if (payingOutMessages < 1) {
      throw new IllegalArgumentException("a payment has at least one paying out-message, got " + payingOutMessages);
    }
  }
}
