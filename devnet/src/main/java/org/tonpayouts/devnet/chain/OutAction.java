package org.tonpayouts.devnet.chain;

import java.util.Objects;

/** One action of a contract's action list: {@code send_raw_message} or {@code raw_reserve}. */
public sealed interface OutAction {
  /** {@code send_raw_message(message, mode)}. */
  record Send(int mode, OutMessage message) implements OutAction {
    public Send {
      Objects.requireNonNull(message, "message");
    }
  }

  /** {@code raw_reserve(amount, mode)}: mode 0 reserves exactly (fails when it cannot), +2 at most what is left. */
  record Reserve(long amount, int mode) implements OutAction {}

  static OutAction send(int mode, OutMessage message) {
    return new Send(mode, message);
  }

  static OutAction reserve(long amount, int mode) {
    return new Reserve(amount, mode);
  }
}
