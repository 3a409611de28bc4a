package org.tonpayouts.devnet.chain;

import java.util.Base64;
import java.util.HexFormat;
import org.ton.ton4j.cell.Cell;
import org.ton.ton4j.cell.CellBuilder;
import org.ton.ton4j.cell.CellSlice;

/**
 * Cell helpers for devnet's own parsing: hashes that are right even for cells ton4j cut out of a
 * parent (BUILD-NOTES: those report a zero hash until rebuilt), BOC encodings (comments: {@code TextComment} in the ton module).
 */
public final class Cells {
  /** The empty cell: what a message without a body carries, as toncenter shows it. */
  public static final Cell EMPTY = CellBuilder.beginCell().endCell();

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

  /** Bridge while devnet still builds ton4j cells: the same cell as a {@link org.tonpayouts.ton.cell.TonCell}. */
  public static org.tonpayouts.ton.cell.TonCell fast(Cell cell) {
    return cell == null ? null : org.tonpayouts.ton.cell.TonCell.fromBoc(cell.toBoc(true));
  }

  /** Bridge while devnet still builds ton4j cells: the same cell as ton4j's. */
  public static Cell ton4j(org.tonpayouts.ton.cell.TonCell cell) {
    return cell == null ? null : Cell.fromBoc(cell.toBoc());
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
}
