package org.tonpayouts.ton.cell;

import java.math.BigInteger;
import java.util.Objects;
import org.tonpayouts.ton.address.TonAddress;

/**
 * Builds one {@link TonCell}, bit by bit and reference by reference, as the JS SDK's {@code Builder}
 * does: integers big-endian, {@code Grams} as {@code VarUInteger 16}, standard addresses as
 * {@code addr_std$10}. Every store checks that it fits (1023 bits, 4 references). Not thread-safe.
 */
public final class CellWriter {
  private final byte[] data = new byte[(TonCell.MAX_BITS + 7) / 8];
  private int bits;
  private final TonCell[] refs = new TonCell[TonCell.MAX_REFS];
  private int refCount;

  CellWriter() {}

  public int bitLength() {
    return bits;
  }

  public int freeBits() {
    return TonCell.MAX_BITS - bits;
  }

  public int refCount() {
    return refCount;
  }

  public int freeRefs() {
    return TonCell.MAX_REFS - refCount;
  }

  public CellWriter storeBit(boolean bit) {
    ensureBits(1);
    if (bit) {
      data[bits >>> 3] |= (byte) (0x80 >>> (bits & 7));
    }
    bits++;
    return this;
  }

  /** The low {@code width} bits of {@code value} (0 to 64), which must fit them as an unsigned number. */
  public CellWriter storeUint(long value, int width) {
    checkWidth(width);
    if (width < 64 && (value >>> width) != 0) {
      throw new IllegalArgumentException("value " + Long.toUnsignedString(value) + " does not fit in " + width + " unsigned bits");
    }
    return writeBits(value, width);
  }

  /** {@code value} in {@code width} bits (1 to 64), two's complement; it must fit them as a signed number. */
  public CellWriter storeInt(long value, int width) {
    checkWidth(width);
    if (width == 0 || (width < 64 && (value < -(1L << (width - 1)) || value >= (1L << (width - 1))))) {
      throw new IllegalArgumentException("value " + value + " does not fit in " + width + " signed bits");
    }
    return writeBits(width == 64 ? value : value & ((1L << width) - 1), width);
  }

  /** Whole bytes. */
  public CellWriter storeBytes(byte[] bytes) {
    return storeBits(bytes, 0, bytes.length * 8);
  }

  /** {@code count} bits of {@code source} starting at bit {@code fromBit} (bit 0 is the top bit of byte 0). */
  public CellWriter storeBits(byte[] source, int fromBit, int count) {
    Objects.checkFromIndexSize(fromBit, count, source.length * 8);
    ensureBits(count);
    if ((fromBit & 7) == 0 && (bits & 7) == 0) {
      int whole = count >>> 3;
      System.arraycopy(source, fromBit >>> 3, data, bits >>> 3, whole);
      bits += whole * 8;
      fromBit += whole * 8;
      count -= whole * 8;
    }
    // a byte at a time at any alignment (addresses and hashes sit at odd bit offsets), then the tail
    while (count >= 8) {
      int at = fromBit >>> 3;
      int shift = fromBit & 7;
      int b = shift == 0 ? source[at] & 0xFF : ((source[at] & 0xFF) << shift | (source[at + 1] & 0xFF) >>> (8 - shift)) & 0xFF;
      writeBits(b, 8);
      fromBit += 8;
      count -= 8;
    }
    for (int i = 0; i < count; i++) {
      int at = fromBit + i;
      if ((source[at >>> 3] & (0x80 >>> (at & 7))) != 0) {
        data[bits >>> 3] |= (byte) (0x80 >>> (bits & 7));
      }
      bits++;
    }
    return this;
  }

  /** {@code Grams} ({@code VarUInteger 16}): 4 bits of byte length, then the amount in that many bytes. */
  public CellWriter storeCoins(long nanotons) {
    if (nanotons < 0) {
      throw new IllegalArgumentException("an amount of nanotons cannot be negative: " + nanotons);
    }
    return storeVarUint(nanotons, 16);
  }

  /** {@code VarUInteger n}: the byte length in ceil(log2 n) bits, then the value in that many bytes. */
  public CellWriter storeVarUint(long value, int n) {
    if (value < 0) {
      throw new IllegalArgumentException("VarUInteger holds unsigned values, got " + value);
    }
    int bytes = (64 - Long.numberOfLeadingZeros(value) + 7) >>> 3;
    if (bytes >= n) {
      throw new IllegalArgumentException("value " + value + " does not fit in VarUInteger " + n);
    }
    storeUint(bytes, 32 - Integer.numberOfLeadingZeros(n - 1));
    return writeBits(value, bytes * 8);
  }

  /** A {@code Grams} amount too large for a long (sums); same encoding as {@link #storeCoins(long)}. */
  public CellWriter storeCoins(BigInteger nanotons) {
    if (nanotons.signum() < 0 || nanotons.bitLength() > 120) {
      throw new IllegalArgumentException("amount " + nanotons + " is outside Grams (0 to 2^120-1)");
    }
    if (nanotons.bitLength() < 63) {
      return storeCoins(nanotons.longValueExact());
    }
    byte[] raw = nanotons.toByteArray();
    int skip = raw[0] == 0 ? 1 : 0;
    storeUint(raw.length - skip, 4);
    return storeBits(raw, skip * 8, (raw.length - skip) * 8);
  }

  /** {@code addr_std$10 anycast:nothing workchain:int8 address:bits256}; {@code addr_none$00} for null. */
  public CellWriter storeAddress(TonAddress address) {
    if (address == null) {
      return writeBits(0b00, 2);
    }
    writeBits(0b100, 3);
    storeInt(address.workchain(), 8);
    return storeBytes(address.hash());
  }

  public CellWriter storeRef(TonCell cell) {
    Objects.requireNonNull(cell, "cell");
    if (refCount == TonCell.MAX_REFS) {
      throw new IllegalArgumentException("a cell holds at most 4 references");
    }
    refs[refCount++] = cell;
    return this;
  }

  /** The bits and references of {@code cell}, appended (the JS SDK's {@code storeSlice(cell.beginParse())}). */
  public CellWriter storeCell(TonCell cell) {
    if (refCount + cell.refCount() > TonCell.MAX_REFS) {
      throw new IllegalArgumentException("the cell's " + cell.refCount() + " references do not fit beside " + refCount);
    }
    storeBits(cell.data(), 0, cell.bitLength());
    for (TonCell ref : cell.refArray()) {
      refs[refCount++] = ref;
    }
    return this;
  }

  /** What {@code reader} has not read yet: its bits and references. */
  public CellWriter storeRest(CellReader reader) {
    TonCell source = reader.cell();
    int refsLeft = reader.remainingRefs();
    if (refCount + refsLeft > TonCell.MAX_REFS) {
      throw new IllegalArgumentException("the slice's " + refsLeft + " references do not fit beside " + refCount);
    }
    storeBits(source.data(), reader.bitPosition(), reader.remainingBits());
    for (int i = source.refCount() - refsLeft; i < source.refCount(); i++) {
      refs[refCount++] = source.ref(i);
    }
    return this;
  }

  public TonCell endCell() {
    byte[] bytes = java.util.Arrays.copyOf(data, (bits + 7) >>> 3);
    TonCell[] children = java.util.Arrays.copyOf(refs, refCount);
    return new TonCell(bytes, bits, children);
  }

  private CellWriter writeBits(long value, int width) {
    ensureBits(width);
    for (int i = width - 1; i >= 0; ) {
      int free = 8 - (bits & 7);
      int take = Math.min(free, i + 1);
      int chunk = (int) ((value >>> (i + 1 - take)) & ((1 << take) - 1));
      data[bits >>> 3] |= (byte) (chunk << (free - take));
      bits += take;
      i -= take;
    }
    return this;
  }

  private void ensureBits(int count) {
    if (count > freeBits()) {
      throw new IllegalArgumentException(count + " more bits do not fit in a cell with " + bits + " of 1023 used");
    }
  }

  private static void checkWidth(int width) {
    if (width < 0 || width > 64) {
      throw new IllegalArgumentException("width " + width + " is outside 0..64 bits");
    }
  }
}
