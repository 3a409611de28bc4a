package org.tonpayouts.ton.api;

import java.util.HexFormat;
import org.tonpayouts.ton.cell.CellReader;
import org.tonpayouts.ton.cell.TonCell;
import org.tonpayouts.ton.wallet.TextComment;

/**
 * What a bounce carries of the message it returns: TON builds every bounced body as
 * {@code 0xFFFFFFFF} followed by the first 256 bits of the original body's root cell. Comparing
 * that part with what a payout sent tells whose bounce it is, where the sender's address alone
 * cannot (two payouts to one address). Both sides are written {@code "<bits>:<hex>"}, the hex
 * padded with zero bits to whole bytes.
 */
public final class Bounces {
  /** Bits of the original body a bounce returns. */
  public static final int RETURNED_BITS = 256;
  private static final long BOUNCE_PREFIX = 0xFFFF_FFFFL;
  private static final String EMPTY_BODY_HASH = TonCell.EMPTY.hashHex();

  private Bounces() {}

  /**
   * The part of {@code sent}'s body a bounce of it returns; null when its body is not at hand (an
   * answer without the body BOC, of a body that is neither empty nor a text comment).
   */
  public static String returnedPart(ChainMessage sent) {
    TonCell body;
    try {
      if (sent.bodyBase64() != null) {
        body = TonCell.fromBase64(sent.bodyBase64());
      } else if (sent.comment() != null) {
        body = TextComment.encode(sent.comment());
      } else if (EMPTY_BODY_HASH.equals(sent.bodyHash())) {
        body = TonCell.EMPTY;
      } else {
        return null;
      }
    } catch (IllegalArgumentException e) {
      return null;
    }
    CellReader slice = body.parse();
    return bits(slice, Math.min(RETURNED_BITS, slice.remainingBits()));
  }

  /** The original body's part a bounced message returns; null when {@code bounce} is not a readable bounce. */
  public static String returnedPartOf(ChainMessage bounce) {
    if (bounce.bodyBase64() == null) {
      return null;
    }
    try {
      CellReader slice = TonCell.fromBase64(bounce.bodyBase64()).parse();
      if (slice.remainingBits() < 32 || slice.loadUint(32) != BOUNCE_PREFIX) {
        return null;
      }
      return bits(slice, Math.min(RETURNED_BITS, slice.remainingBits()));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static String bits(CellReader slice, int count) {
    return count + ":" + HexFormat.of().formatHex(slice.loadBits(count));
  }
}
