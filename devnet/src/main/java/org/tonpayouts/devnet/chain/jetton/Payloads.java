package org.tonpayouts.devnet.chain.jetton;

import java.math.BigInteger;
import org.tonpayouts.ton.cell.MalformedCellException;
import org.tonpayouts.ton.cell.TonCell;

/** Reading helpers the jetton contracts share, with the TVM's failures. */
final class Payloads {
  /** A forward TON amount no balance reaches; a send of more fails its action phase as it would on chain. */
  private static final BigInteger MAX_SENDABLE = BigInteger.valueOf(Long.MAX_VALUE / 4);

  private Payloads() {}

  /** True when the either_forward_payload {@code payload} sits in a reference (its first bit is 1). */
  static boolean inRef(TonCell payload) {
    return payload.bitLength() > 0 && payload.bit(0);
  }

  /**
   * The stablecoin's {@code check_either_forward_payload}: reading the Either bit of an empty
   * payload is a cell underflow (9); a payload in a reference must be that bit and that reference
   * only, else 49. Returns false for the latter.
   */
  static boolean eitherWellFormed(TonCell payload) {
    if (payload.bitLength() == 0) {
      throw new MalformedCellException("cell underflow: no forward_payload Either bit");
    }
    return !payload.bit(0) || (payload.bitLength() == 1 && payload.refCount() == 1);
  }

  /** {@code amount} as the value of a message: amounts beyond any balance are capped (the send then fails for lack of TON). */
  static long sendable(BigInteger amount) {
    return amount.min(MAX_SENDABLE).longValueExact();
  }
}
