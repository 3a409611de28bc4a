package org.tonpayouts.ton.jetton;

import java.math.BigInteger;
import java.util.Objects;
import java.util.Optional;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.CellReader;
import org.tonpayouts.ton.cell.CellWriter;
import org.tonpayouts.ton.cell.MalformedCellException;
import org.tonpayouts.ton.cell.TonCell;
import org.tonpayouts.ton.wallet.TextComment;

/**
 * TEP-74 {@code transfer#0f8a7ea5}: the body our wallet sends to its own jetton wallet to pay
 * {@code amount} base units of the jetton to {@code destination}.
 *
 * <pre>
 * transfer#0f8a7ea5 query_id:uint64 amount:(VarUInteger 16) destination:MsgAddress
 *   response_destination:MsgAddress custom_payload:(Maybe ^Cell) forward_ton_amount:(VarUInteger 16)
 *   forward_payload:(Either Cell ^Cell)
 * </pre>
 *
 * The comment, when there is one, is the forward payload as a text comment ({@code 0x00000000} +
 * UTF-8) in a reference: any length fits, and it reaches the recipient in the
 * {@code transfer_notification} when {@code forwardTonAmount} is above zero. No custom payload.
 *
 * @param queryId unique per transfer and the same in every attempt: what finds the transfer's
 *     messages on the three accounts (and a bounce carries it back)
 * @param amount jetton base units, above zero
 * @param responseDestination where the jetton wallets send the unused TON ({@code excesses}); null: nowhere
 * @param forwardTonAmount nanotons the receiver's jetton wallet forwards to the recipient with the
 *     notification; 0: no notification
 * @param comment the forward payload's text; null: an empty forward payload
 */
public record JettonTransfer(long queryId, BigInteger amount, TonAddress destination, TonAddress responseDestination,
                             long forwardTonAmount, String comment) {
  public static final long OP = 0x0f8a7ea5L;

  public JettonTransfer {
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(destination, "destination");
    if (amount.signum() <= 0 || amount.bitLength() > 120) {
      throw new IllegalArgumentException("a jetton amount is 1 to 2^120-1 base units, got " + amount);
    }
    if (forwardTonAmount < 0) {
      throw new IllegalArgumentException("forwardTonAmount cannot be negative: " + forwardTonAmount);
    }
  }

  public TonCell toCell() {
    CellWriter body = TonCell.builder()
        .storeUint(OP, 32)
        .storeUint(queryId, 64)
        .storeCoins(amount)
        .storeAddress(destination)
        .storeAddress(responseDestination)
        .storeBit(false) // no custom payload
        .storeCoins(forwardTonAmount)
        .storeBit(comment != null); // forward payload: in a reference when there is one, else empty inline
    if (comment != null) {
      body.storeRef(TextComment.encode(comment));
    }
    return body.endCell();
  }

  /**
   * Reads a transfer body (the forward payload inline or in a reference; a text comment in it is
   * read, anything else leaves {@code comment} null).
   *
   * @throws MalformedCellException when the body is not a well-formed transfer
   */
  public static JettonTransfer parse(TonCell body) {
    CellReader r = body.parse();
    JettonOps.expect(r, OP, "transfer");
    long queryId = r.loadUint(64);
    BigInteger amount = r.loadBigCoins();
    TonAddress destination = r.loadAddress();
    TonAddress response = r.loadAddress();
    if (r.loadBit()) {
      r.loadRef(); // custom payload: not ours to read
    }
    long forward = r.loadCoins();
    TonCell payload = r.loadBit() ? r.loadRef() : r.rest();
    if (destination == null || amount.signum() <= 0) {
      throw new MalformedCellException("a transfer needs a destination and an amount above zero");
    }
    return new JettonTransfer(queryId, amount, destination, response, forward, TextComment.decode(payload));
  }

  /**
   * The transfer {@code body} is, or empty when it is none: no body, another op, or a transfer that
   * does not follow the layout (what a chain read meets: anyone can send anything).
   */
  public static Optional<JettonTransfer> read(TonCell body) {
    try {
      if (body == null || body.bitLength() < 32 || body.parse().loadUint(32) != OP) {
        return Optional.empty();
      }
      return Optional.of(parse(body));
    } catch (IllegalArgumentException e) { // MalformedCellException included
      return Optional.empty();
    }
  }

  /** The transfer a message's body (base64 BOC, as the API reports it) is, or empty. */
  public static Optional<JettonTransfer> read(String bodyBase64) {
    if (bodyBase64 == null || bodyBase64.isBlank()) {
      return Optional.empty();
    }
    try {
      return read(TonCell.fromBase64(bodyBase64));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
