package org.tonpayouts.ton.api;

import org.tonpayouts.ton.address.TonAddress;

/**
 * A message of an on-chain transaction as {@code getTransactions} reports it: the in-message
 * (our external message, or an incoming transfer) or one of the out-messages (the payouts).
 *
 * @param hash        message hash, lowercase hex; null on servers that do not report it
 * @param source      null for an external-in message
 * @param destination null for an external-out message
 * @param value       nanotons carried
 * @param bodyHash    hash of the body cell, lowercase hex
 * @param comment     the text comment, decoded from {@code msg.dataText} or from a
 *                    {@code msg.dataRaw} body that starts with op 0; null when there is none
 * @param bodyBase64  the body BOC ({@code msg.dataRaw}), null when the server sent text
 * @param initState   the StateInit BOC attached to the message, null when none
 */
public record ChainMessage(
    String hash,
    TonAddress source,
    TonAddress destination,
    long value,
    long fwdFee,
    long ihrFee,
    long createdLt,
    String bodyHash,
    String comment,
    String bodyBase64,
    String initState) {

  /** True for an inbound external message (no source), the kind our wallets are sent. */
  public boolean isExternalIn() {
    return source == null;
  }
}
