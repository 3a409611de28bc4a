package org.tonpayouts.ton.cell;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The bag-of-cells codec (TL-B {@code serialized_boc#b5ee9c72}) for one root of ordinary cells.
 *
 * <p>Serialization writes what the JS SDK's {@code serializeBoc(root, {idx: false, crc32: true})}
 * writes, byte for byte: identical cells once, in its order (reverse post-order of a depth-first
 * walk taking references last to first, which for a tree is pre-order), no index, a CRC32C.
 * Parsing accepts what the node accepts of such BOCs (with or without index and CRC) and refuses,
 * with a reason, anything else: other magics, several roots, absent cells, exotic cells, cached
 * hashes, references backwards, a bad CRC, bytes left over.
 */
public final class Boc {
  private static final int MAGIC = 0xb5ee9c72;
  private static final int HAS_INDEX = 0x80;
  private static final int HAS_CRC32C = 0x40;
  private static final int HAS_CACHE_BITS = 0x20;

  private Boc() {}

  public static byte[] serialize(TonCell root) {
    List<TonCell> cells = ordered(root);
    Map<TonCell, Integer> index = new HashMap<>(cells.size() * 2);
    for (int i = 0; i < cells.size(); i++) {
      index.put(cells.get(i), i);
    }
    int sizeBytes = Math.max(1, bytesFor(cells.size()));
    long total = 0;
    for (TonCell cell : cells) {
      total += 2 + ((cell.bitLength() + 7) >>> 3) + (long) cell.refCount() * sizeBytes;
    }
    int offsetBytes = Math.max(1, bytesFor(total));
    int headerBytes = 4 + 1 + 1 + 3 * sizeBytes + offsetBytes + sizeBytes;
    byte[] out = new byte[headerBytes + (int) total + 4];
    int at = putInt(out, 0, MAGIC, 4);
    out[at++] = (byte) (HAS_CRC32C | sizeBytes);
    out[at++] = (byte) offsetBytes;
    at = putInt(out, at, cells.size(), sizeBytes);
    at = putInt(out, at, 1, sizeBytes);          // roots
    at = putInt(out, at, 0, sizeBytes);          // absent
    at = putInt(out, at, total, offsetBytes);
    at = putInt(out, at, 0, sizeBytes);          // the root is cell 0
    for (TonCell cell : cells) {
      out[at++] = (byte) cell.descriptor1();
      out[at++] = (byte) cell.descriptor2();
      at = cell.writePaddedData(out, at);
      for (TonCell ref : cell.refArray()) {
        at = putInt(out, at, index.get(ref), sizeBytes);
      }
    }
    CRC32C crc = new CRC32C();
    crc.update(out, 0, at);
    long value = crc.getValue();
    for (int i = 0; i < 4; i++) {
      out[at++] = (byte) (value >>> (8 * i)); // little-endian
    }
    return out;
  }

  /** The JS SDK's {@code topologicalSort}: distinct cells, the root first, every reference after its parent. */
  private static List<TonCell> ordered(TonCell root) {
    List<TonCell> postOrder = new ArrayList<>();
    visit(root, new HashMap<>(), postOrder);
    List<TonCell> ordered = new ArrayList<>(postOrder.size());
    for (int i = postOrder.size() - 1; i >= 0; i--) {
      ordered.add(postOrder.get(i));
    }
    return ordered;
  }

  private static void visit(TonCell cell, Map<TonCell, Boolean> seen, List<TonCell> postOrder) {
    if (seen.putIfAbsent(cell, Boolean.TRUE) != null) {
      return;
    }
    TonCell[] refs = cell.refArray();
    for (int i = refs.length - 1; i >= 0; i--) {
      visit(refs[i], seen, postOrder);
    }
    postOrder.add(cell);
  }

  public static TonCell parse(byte[] boc) {
    if (boc == null || boc.length == 0) {
      throw new MalformedCellException("empty BOC");
    }
    Input in = new Input(boc);
    int magic = (int) in.uint(4);
    if (magic != MAGIC) {
      throw new MalformedCellException("not a BOC: magic " + Integer.toHexString(magic) + ", expected b5ee9c72");
    }
    int flags = (int) in.uint(1);
    boolean hasIndex = (flags & HAS_INDEX) != 0;
    boolean hasCrc = (flags & HAS_CRC32C) != 0;
    if ((flags & HAS_CACHE_BITS) != 0 && !hasIndex) {
      throw new MalformedCellException("BOC has cache bits without an index");
    }
    int sizeBytes = flags & 0x07;
    if (sizeBytes < 1 || sizeBytes > 4) {
      throw new MalformedCellException("BOC reference size " + sizeBytes + " is outside 1..4 bytes");
    }
    int offsetBytes = (int) in.uint(1);
    if (offsetBytes < 1 || offsetBytes > 8) {
      throw new MalformedCellException("BOC offset size " + offsetBytes + " is outside 1..8 bytes");
    }
    long cellCount = in.uint(sizeBytes);
    long roots = in.uint(sizeBytes);
    long absent = in.uint(sizeBytes);
    long totalSize = in.uint(offsetBytes);
    if (roots != 1) {
      throw new MalformedCellException("BOC has " + roots + " roots, one was expected");
    }
    if (absent != 0) {
      throw new MalformedCellException("BOC has " + absent + " absent cells");
    }
    if (cellCount < 1 || cellCount * 2 > totalSize) {
      throw new MalformedCellException("BOC claims " + cellCount + " cells in " + totalSize + " bytes");
    }
    long rootIndex = in.uint(sizeBytes);
    if (rootIndex >= cellCount) {
      throw new MalformedCellException("BOC root index " + rootIndex + " is past its " + cellCount + " cells");
    }
    if (hasIndex) {
      in.skip(cellCount * offsetBytes);
    }
    int cellsStart = in.position();
    if (totalSize > in.remaining() - (hasCrc ? 4 : 0)) {
      throw new MalformedCellException("BOC claims " + totalSize + " bytes of cells, " + in.remaining() + " bytes follow");
    }
    int n = (int) cellCount;
    byte[][] data = new byte[n][];
    int[] bitLengths = new int[n];
    int[][] refs = new int[n][];
    for (int i = 0; i < n; i++) {
      int d1 = (int) in.uint(1);
      int d2 = (int) in.uint(1);
      int refCount = d1 & 0x07;
      if ((d1 & 0x08) != 0) {
        throw new MalformedCellException("cell " + i + " is exotic; only ordinary cells are accepted");
      }
      if ((d1 & 0x10) != 0 || (d1 >>> 5) != 0) {
        throw new MalformedCellException("cell " + i + " has stored hashes or a non-zero level");
      }
      if (refCount > TonCell.MAX_REFS) {
        throw new MalformedCellException("cell " + i + " claims " + refCount + " references");
      }
      int bytes = (d2 + 1) >>> 1;
      byte[] cellData = in.bytes(bytes);
      int bits = bytes * 8;
      if ((d2 & 1) != 0) {
        int last = cellData[bytes - 1] & 0xFF;
        if (last == 0) {
          throw new MalformedCellException("cell " + i + " has a padded last byte without its completion tag");
        }
        int tag = Integer.numberOfTrailingZeros(last);
        bits -= tag + 1;
        cellData[bytes - 1] = (byte) (last & ~(1 << tag));
      }
      if (bits > TonCell.MAX_BITS) {
        throw new MalformedCellException("cell " + i + " has " + bits + " bits");
      }
      int[] cellRefs = new int[refCount];
      for (int r = 0; r < refCount; r++) {
        long ref = in.uint(sizeBytes);
        if (ref <= i || ref >= n) {
          throw new MalformedCellException("cell " + i + " references cell " + ref + " (must be after it and below " + n + ")");
        }
        cellRefs[r] = (int) ref;
      }
      data[i] = cellData;
      bitLengths[i] = bits;
      refs[i] = cellRefs;
    }
    if (in.position() - cellsStart != totalSize) {
      throw new MalformedCellException("BOC cells take " + (in.position() - cellsStart) + " bytes, it claims " + totalSize);
    }
    if (hasCrc) {
      CRC32C crc = new CRC32C();
      crc.update(boc, 0, in.position());
      long expected = in.uint(1) | in.uint(1) << 8 | in.uint(1) << 16 | in.uint(1) << 24;
      if (crc.getValue() != expected) {
        throw new MalformedCellException("BOC CRC32C mismatch");
      }
    }
    if (in.remaining() != 0) {
      throw new MalformedCellException("BOC has " + in.remaining() + " bytes after its end");
    }
    TonCell[] cells = new TonCell[n];
    for (int i = n - 1; i >= 0; i--) {
      TonCell[] children = new TonCell[refs[i].length];
      for (int r = 0; r < children.length; r++) {
        children[r] = cells[refs[i][r]];
      }
      cells[i] = new TonCell(data[i], bitLengths[i], children);
    }
    return cells[(int) rootIndex];
  }

  private static int bytesFor(long value) {
    return (64 - Long.numberOfLeadingZeros(value) + 7) >>> 3;
  }

  private static int putInt(byte[] out, int at, long value, int bytes) {
    for (int i = bytes - 1; i >= 0; i--) {
      out[at++] = (byte) (value >>> (8 * i));
    }
    return at;
  }

  /** Bounds-checked big-endian reads over the BOC. */
  private static final class Input {
    private final byte[] bytes;
    private int at;

    Input(byte[] bytes) {
      this.bytes = bytes;
    }

    long uint(int width) {
      need(width);
      long value = 0;
      for (int i = 0; i < width; i++) {
        value = (value << 8) | (bytes[at++] & 0xFF);
      }
      return value;
    }

    byte[] bytes(int count) {
      need(count);
      byte[] out = Arrays.copyOfRange(bytes, at, at + count);
      at += count;
      return out;
    }

    void skip(long count) {
      need(count);
      at += (int) count;
    }

    int position() {
      return at;
    }

    int remaining() {
      return bytes.length - at;
    }

    private void need(long count) {
      if (count > remaining()) {
        throw new MalformedCellException("BOC ends early: " + count + " more bytes wanted at offset " + at
            + " of " + bytes.length);
      }
    }
  }
}
