package org.tonpayouts.devnet.chain;

import java.util.Objects;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.TonCell;

/**
 * What {@code recv_internal} sees of one inbound internal message: the contract's own address and
 * balance (the message's value already credited, as {@code my_balance} is), the message's value,
 * sender, flags and forwarding fee, its body, and the block time.
 *
 * @param fwdFee the message's {@code fwd_fee} field: what is left of its forwarding fee after the
 *     sender's share (contracts estimate their own sends from it)
 */
public record InternalCall(TonAddress self, long balance, TonAddress source, long value, boolean bounce,
                           boolean bounced, long fwdFee, TonCell body, long now) {
  public InternalCall {
    Objects.requireNonNull(self, "self");
    Objects.requireNonNull(body, "body");
  }

  /** The balance before this message's value was credited ({@code my_balance - msg_value}). */
  public long balanceBefore() {
    return balance - value;
  }
}
