package org.tonpayouts.ton.cell;

import java.math.BigInteger;
import org.tonpayouts.ton.address.TonAddress;

/**
 * Reads a {@link TonCell} front to back (the JS SDK's {@code Slice}). Reading past the end throws
 * {@link MalformedCellException} ("cell underflow"), never returns garbage. Not thread-safe.
 */
public final class CellReader {
  private final TonCell cell;
  private int bit;
  private int ref;

  CellReader(TonCell cell) {
    this.cell = cell;
  }

  TonCell cell() {
    return cell;
  }

  int bitPosition() {
    return bit;
  }

  public int remainingBits() {
    return cell.bitLength() - bit;
  }

  public int remainingRefs() {
    return cell.refCount() - ref;
  }

  public boolean loadBit() {
    need(1);
    return cell.bit(bit++);
  }

  /** An unsigned integer of {@code width} bits (0 to 64; at 64 the long holds the raw bits). */
  public long loadUint(int width) {
    if (width < 0 || width > 64) {
      throw new IllegalArgumentException("width " + width + " is outside 0..64 bits");
    }
    need(width);
    byte[] data = cell.data();
    long value = 0;
    int left = width;
    while (left > 0) {
      int inByte = bit & 7;
      int take = Math.min(8 - inByte, left);
      int chunk = ((data[bit >>> 3] & 0xFF) >>> (8 - inByte - take)) & ((1 << take) - 1);
      value = (value << take) | chunk;
      bit += take;
      left -= take;
    }
    return value;
  }

  /** A two's complement integer of {@code width} bits (1 to 64). */
  public long loadInt(int width) {
    if (width < 1 || width > 64) {
      throw new IllegalArgumentException("width " + width + " is outside 1..64 bits");
    }
    long raw = loadUint(width);
    return width == 64 ? raw : (raw << (64 - width)) >> (64 - width);
  }

  /** {@code count} whole bytes (counted in bytes, unlike ton4j's {@code loadBytes}). */
  public byte[] loadBytes(int count) {
    return loadBits(count * 8);
  }

  /** {@code count} bits, packed from the top bit of the first byte, the last byte padded with zeros. */
  public byte[] loadBits(int count) {
    if (count < 0) {
      throw new IllegalArgumentException("cannot read " + count + " bits");
    }
    need(count);
    byte[] out = new byte[(count + 7) >>> 3];
    byte[] data = cell.data();
    if ((bit & 7) == 0) {
      System.arraycopy(data, bit >>> 3, out, 0, out.length);
      if ((count & 7) != 0) {
        out[out.length - 1] &= (byte) (0xFF << (8 - (count & 7)));
      }
      bit += count;
    } else {
      // a byte at a time at an odd bit offset (addresses and hashes), the last one cut to size
      int shift = bit & 7;
      for (int i = 0; i < out.length; i++) {
        int at = (bit >>> 3) + i;
        int next = at + 1 < data.length ? data[at + 1] & 0xFF : 0;
        out[i] = (byte) ((data[at] & 0xFF) << shift | next >>> (8 - shift));
      }
      if ((count & 7) != 0) {
        out[out.length - 1] &= (byte) (0xFF << (8 - (count & 7)));
      }
      bit += count;
    }
    return out;
  }

  public CellReader skipBits(int count) {
    if (count < 0) {
      throw new IllegalArgumentException("cannot skip " + count + " bits");
    }
    need(count);
    bit += count;
    return this;
  }

  public TonCell loadRef() {
    if (ref >= cell.refCount()) {
      throw new MalformedCellException("cell underflow: no reference left (the cell has " + cell.refCount() + ")");
    }
    return cell.ref(ref++);
  }

  /** {@code Grams}: an amount in nanotons; one beyond a long's range is refused. */
  public long loadCoins() {
    return loadVarUint(16);
  }

  /** {@code Grams} of any size (up to 2^120 - 1). */
  public BigInteger loadBigCoins() {
    int bytes = (int) loadUint(4);
    return bytes == 0 ? BigInteger.ZERO : new BigInteger(1, loadBytes(bytes));
  }

  /** {@code VarUInteger n}; a value beyond a long's range is refused. */
  public long loadVarUint(int n) {
    int bytes = (int) loadUint(32 - Integer.numberOfLeadingZeros(n - 1));
    if (bytes > 8 || (bytes == 8 && remainingBits() >= 1 && cell.bit(bit))) {
      throw new MalformedCellException("VarUInteger of " + bytes + " bytes is beyond a long's range");
    }
    return loadUint(bytes * 8);
  }

  /**
   * {@code MsgAddressInt} or {@code addr_none}: a standard address, or {@code null} for
   * {@code addr_none$00}. Anycast, variable-length and external addresses are refused.
   */
  public TonAddress loadAddress() {
    int tag = (int) loadUint(2);
    switch (tag) {
      case 0b00:
        return null;
      case 0b10:
        if (loadBit()) {
          throw new MalformedCellException("anycast addresses are not supported");
        }
        int workchain = (int) loadInt(8);
        byte[] hash = loadBytes(32);
        try {
          return TonAddress.of(workchain, hash);
        } catch (RuntimeException e) {
          throw new MalformedCellException("bad address: " + e.getMessage(), e);
        }
      default:
        throw new MalformedCellException("unsupported address tag " + Integer.toBinaryString(tag)
            + " (only addr_none$00 and addr_std$10)");
    }
  }

  /** The bits and references not read yet, as a cell of their own. */
  public TonCell rest() {
    return new CellWriter().storeRest(this).endCell();
  }

  private void need(int count) {
    if (count > remainingBits()) {
      throw new MalformedCellException("cell underflow: " + count + " bits wanted, " + remainingBits() + " left");
    }
  }
}
