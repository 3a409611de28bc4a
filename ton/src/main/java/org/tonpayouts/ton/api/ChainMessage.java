package org.tonpayouts.ton.api;

import java.util.OptionalLong;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.CellReader;
import org.tonpayouts.ton.cell.TonCell;

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

  /** The first 32 bits of a bounced message's body (TON's bounce prefix). */
  private static final long BOUNCE_PREFIX = 0xFFFF_FFFFL;
  /** Bits before a WalletV4R2 external body's seqno: signature, subwallet_id, valid_until. */
  private static final int WALLET_SEQNO_OFFSET = 512 + 32 + 32;

  /**
   * True for a bounced internal message: its body starts with {@code 0xFFFFFFFF} followed by the
   * start of the original body, which is how the TON VM builds every bounce. toncenter's v2 JSON
   * has no "bounced" flag, so the body is the evidence.
   */
  public boolean isBounce() {
    if (source == null || bodyBase64 == null || bodyBase64.isBlank()) {
      return false;
    }
    try {
      CellReader body = TonCell.fromBase64(bodyBase64).parse();
      return body.remainingBits() >= 32 && body.loadUint(32) == BOUNCE_PREFIX;
    } catch (IllegalArgumentException e) {
      return false; // not a cell we can read: not a bounce we can attribute
    }
  }

  /**
   * The seqno a WalletV4R2 external message carries: its body is {@code signature(512)
   * subwallet_id(32) valid_until(32) seqno(32) ...}, and the wallet applies it only at that seqno.
   * Empty when this is not an inbound external message, or its body is not at hand or too short.
   */
  public OptionalLong walletSeqno() {
    if (!isExternalIn() || bodyBase64 == null || bodyBase64.isBlank()) {
      return OptionalLong.empty();
    }
    try {
      CellReader body = TonCell.fromBase64(bodyBase64).parse();
      if (body.remainingBits() < WALLET_SEQNO_OFFSET + 32) {
        return OptionalLong.empty();
      }
      return OptionalLong.of(body.skipBits(WALLET_SEQNO_OFFSET).loadUint(32));
    } catch (IllegalArgumentException e) {
      return OptionalLong.empty();
    }
  }

  /** This message without its body and init state ({@link ChainTransaction#forMatching}). */
  public ChainMessage withoutPayload() {
    if (initState == null && bodyBase64 == null) {
      return this;
    }
    return new ChainMessage(hash, source, destination, value, fwdFee, ihrFee, createdLt, bodyHash, comment, null, null);
  }

  /** True for an inbound external message (no source), the kind our wallets are sent. */
  public boolean isExternalIn() {
    return source == null;
  }
}
