package org.tonpayouts.ton.wallet;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.tonpayouts.ton.cell.CellReader;
import org.tonpayouts.ton.cell.CellWriter;
import org.tonpayouts.ton.cell.TonCell;

/**
 * The TON text comment: op {@code 0x00000000} then UTF-8 text, each cell filled to its last whole
 * byte and continued in its only reference ("snake" layout, {@code storeStringTail} in the JS SDK).
 * The one codec for comments: what the signer writes, what the API client and devnet read.
 */
public final class TextComment {
  public static final int OP = 0;
  /** Longest reference chain followed; a real comment is far shorter, a corrupt BOC may loop. */
  private static final int MAX_CELLS = 1024;

  private TextComment() {}

  /** The body cell carrying {@code text}. */
  public static TonCell encode(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    return snake(TonCell.builder().storeUint(OP, 32), bytes, 0);
  }

  private static TonCell snake(CellWriter b, byte[] bytes, int from) {
    int n = Math.min(b.freeBits() / 8, bytes.length - from);
    b.storeBits(bytes, from * 8, n * 8);
    if (from + n < bytes.length) {
      b.storeRef(snake(TonCell.builder(), bytes, from + n));
    }
    return b.endCell();
  }

  /** The text of a comment body, or null when the body is absent or not a well-formed text comment. */
  public static String decode(TonCell body) {
    if (body == null) {
      return null;
    }
    CellReader slice = body.parse();
    if (slice.remainingBits() < 32 || slice.loadUint(32) != OP) {
      return null;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int cells = 1; ; cells++) {
      int rest = slice.remainingBits();
      if (rest % 8 != 0 || slice.remainingRefs() > 1) {
        return null;
      }
      if (rest > 0) {
        bytes.writeBytes(slice.loadBits(rest));
      }
      if (slice.remainingRefs() == 0) {
        break;
      }
      if (cells >= MAX_CELLS) {
        return null;
      }
      slice = slice.loadRef().parse();
    }
    return strictUtf8(bytes.toByteArray());
  }

  /** The comment in a body BOC, or null when there is none or the BOC cannot be read. */
  public static String decodeBoc(byte[] boc) {
    try {
      return decode(TonCell.fromBoc(boc));
    } catch (IllegalArgumentException e) {
      return null; // a body we cannot read has no comment
    }
  }

  /** Strict UTF-8; null when the bytes are not text. */
  public static String strictUtf8(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }
}
