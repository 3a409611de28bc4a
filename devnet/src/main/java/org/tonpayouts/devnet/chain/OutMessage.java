package org.tonpayouts.devnet.chain;

import java.util.Objects;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.MessageCells;
import org.tonpayouts.ton.cell.TonCell;

/**
 * An internal message a contract asks to send ({@code MessageRelaxed}): the chain fills in the
 * source, fees and times. Where the contract put its StateInit and body (inline or in a reference)
 * is kept, as the node keeps the sender's layout while it fits: that layout is part of the
 * message's hash and of its forwarding fee.
 *
 * @param init the StateInit cell, or {@code null}
 */
public record OutMessage(boolean bounce, TonAddress destination, long value, TonCell init, boolean initInRef,
                         TonCell body, boolean bodyInRef) {
  public OutMessage {
    Objects.requireNonNull(destination, "destination");
    Objects.requireNonNull(body, "body");
    if (value < 0) {
      throw new IllegalArgumentException("value must not be negative, got " + value);
    }
  }

  /** A message whose body sits in a reference, without a StateInit. */
  public static OutMessage bodyInRef(boolean bounce, TonAddress destination, long value, TonCell body) {
    return new OutMessage(bounce, destination, value, null, false, body, true);
  }

  /** A message whose body sits inline, without a StateInit. */
  public static OutMessage bodyInline(boolean bounce, TonAddress destination, long value, TonCell body) {
    return new OutMessage(bounce, destination, value, null, false, body, false);
  }

  /** A message carrying StateInit and body, both in references. */
  public static OutMessage withInit(boolean bounce, TonAddress destination, long value, TonCell init, TonCell body) {
    return new OutMessage(bounce, destination, value, init, true, body, true);
  }

  /** The relaxed message cell as the contract's {@code send_raw_message} passes it (source addr_none, no fees). */
  TonCell relaxedCell() {
    return ChainMessages.withLayout(
        MessageCells.internalInfo(bounce, false, null, destination, value, 0, 0, 0, 0), this).endCell();
  }
}
