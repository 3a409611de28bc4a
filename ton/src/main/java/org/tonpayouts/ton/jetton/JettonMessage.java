package org.tonpayouts.ton.jetton;

import java.math.BigInteger;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.CellReader;
import org.tonpayouts.ton.cell.MalformedCellException;
import org.tonpayouts.ton.cell.TonCell;


/**
 * What an internal message's body says in a jetton payout's chain of messages, read by its op: the
 * sender jetton wallet's {@code internal_transfer} to the receiver's, the receiver's
 * {@code transfer_notification} to the recipient and {@code excesses} to the response destination,
 * or a bounce of either transfer. Anything else is {@link Other}.
 */
public sealed interface JettonMessage {
  /** {@code internal_transfer#178d4519 query_id amount from response_address forward_ton_amount ...}. */
  record InternalTransfer(long queryId, BigInteger amount, TonAddress from, TonAddress responseAddress,
                          long forwardTonAmount) implements JettonMessage {}

  /** {@code transfer_notification#7362d09c query_id amount sender forward_payload}. */
  record Notification(long queryId, BigInteger amount, TonAddress sender) implements JettonMessage {}

  /** {@code excesses#d53276db query_id}: the unused TON, back to the response destination. */
  record Excesses(long queryId) implements JettonMessage {}

  /**
   * A bounced message: {@code 0xFFFFFFFF}, then the first 256 bits of the original body, so its op
   * ({@code transfer} back at our wallet, {@code internal_transfer} back at the sender jetton wallet)
   * and query id can be read.
   */
  record Bounced(long op, long queryId) implements JettonMessage {}

  /** Not a jetton message this service reads (another op, a comment, an empty body). */
  record Other(long op) implements JettonMessage {}

  /**
   * Reads {@code body} by its op.
   *
   * @throws MalformedCellException when the op is a jetton one and the rest does not follow its layout
   */
  static JettonMessage read(TonCell body) {
    if (body == null) {
      return new Other(-1);
    }
    CellReader r = body.parse();
    if (r.remainingBits() < 32) {
      return new Other(-1);
    }
    long op = r.loadUint(32);
    if (op == JettonOps.INTERNAL_TRANSFER) {
      long queryId = r.loadUint(64);
      BigInteger amount = r.loadBigCoins();
      TonAddress from = r.loadAddress();
      TonAddress response = r.loadAddress();
      return new InternalTransfer(queryId, amount, from, response, r.loadCoins());
    }
    if (op == JettonOps.TRANSFER_NOTIFICATION) {
      long queryId = r.loadUint(64);
      return new Notification(queryId, r.loadBigCoins(), r.loadAddress());
    }
    if (op == JettonOps.EXCESSES) {
      return new Excesses(r.loadUint(64));
    }
    if (op == JettonOps.BOUNCED && r.remainingBits() >= 32 + 64) {
      return new Bounced(r.loadUint(32), r.loadUint(64));
    }
    return new Other(op);
  }
}
