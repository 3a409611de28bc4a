package org.tonpayouts.devnet.chain;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import org.ton.ton4j.cell.Cell;
import org.ton.ton4j.cell.CellBuilder;
import org.ton.ton4j.cell.CellSlice;

/**
 * Cell helpers for devnet's own parsing: hashes that are right even for cells ton4j cut out of a
 * parent (BUILD-NOTES: those report a zero hash until rebuilt), BOC and comment decoding.
 */
public final class Cells {
  /** The empty cell: what a message without a body carries, as toncenter shows it. */
  public static final Cell EMPTY = CellBuilder.beginCell().endCell();

  private static final int TEXT_COMMENT_OP = 0;

  private Cells() {}

  /**
   * The same cell rebuilt with {@link CellBuilder}, so its hash is computed. Children keep theirs:
   * ton4j only loses the hash of a cell made from an inline slice, never of a referenced cell.
   */
  public static Cell rebuilt(Cell cell) {
    return cell == null ? null : CellBuilder.beginCell().storeCell(cell).endCell();
  }

  /** The rest of {@code slice} (bits and references) as a cell with a correct hash. */
  public static Cell rest(CellSlice slice) {
    return CellBuilder.beginCell().storeSlice(slice).endCell();
  }

  public static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }

  public static String base64(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
  }

  /** Standard base64 BOC (no index, with CRC32C), as toncenter returns bodies and states. */
  public static String bocBase64(Cell cell) {
    return base64(cell.toBoc(true));
  }

  /**
   * The text of a TON text comment ({@code 0x00000000} then UTF-8, continued in the first
   * reference of each cell), or {@code null} when the body is not a valid text comment.
   */
  public static String textComment(Cell body) {
    if (body == null || body.getBits().getUsedBits() < 32) {
      return null;
    }
    CellSlice slice = CellSlice.beginParse(body);
    if (slice.loadUint(32).intValue() != TEXT_COMMENT_OP) {
      return null;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Cell current = body;
    while (true) {
      int rest = slice.getRestBits();
      if (rest % 8 != 0 || slice.getRefsCount() > 1) {
        return null;
      }
      if (rest > 0) {
        bytes.writeBytes(slice.loadBytes(rest)); // counts bits (BUILD-NOTES)
      }
      if (slice.getRefsCount() == 0) {
        break;
      }
      current = slice.loadRef();
      slice = CellSlice.beginParse(current);
    }
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes.toByteArray()))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /** A text comment body: 32 zero bits then UTF-8, snaked into references when it does not fit. */
  public static Cell commentBody(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    return snake(CellBuilder.beginCell().storeUint(TEXT_COMMENT_OP, 32), bytes, 0);
  }

  private static Cell snake(CellBuilder builder, byte[] bytes, int from) {
    int n = Math.min(builder.getFreeBits() / 8, bytes.length - from);
    byte[] part = new byte[n];
    System.arraycopy(bytes, from, part, 0, n);
    builder.storeBytes(part);
    if (from + n < bytes.length) {
      builder.storeRef(snake(CellBuilder.beginCell(), bytes, from + n));
    }
    return builder.endCell();
  }
}
