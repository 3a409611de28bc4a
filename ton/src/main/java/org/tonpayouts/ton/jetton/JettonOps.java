package org.tonpayouts.ton.jetton;

import org.tonpayouts.ton.cell.CellReader;
import org.tonpayouts.ton.cell.MalformedCellException;

/** The TEP-74 op codes a jetton payout meets, and the check of a body's op. */
public final class JettonOps {
  public static final long TRANSFER = JettonTransfer.OP;
  public static final long INTERNAL_TRANSFER = 0x178d4519L;
  public static final long TRANSFER_NOTIFICATION = 0x7362d09cL;
  public static final long EXCESSES = 0xd53276dbL;
  /** What a bounced message's body starts with, before the first 256 bits of the original body. */
  public static final long BOUNCED = 0xffffffffL;

  private JettonOps() {}

  /** Reads the 32-bit op and fails unless it is {@code op}. */
  static void expect(CellReader r, long op, String name) {
    if (r.remainingBits() < 32) {
      throw new MalformedCellException("a " + name + " body starts with its 32-bit op; this one is shorter");
    }
    long got = r.loadUint(32);
    if (got != op) {
      throw new MalformedCellException("not a " + name + " body: op 0x" + Long.toHexString(got) + ", expected 0x"
          + Long.toHexString(op));
    }
  }
}
