package org.tonpayouts.ton.cell;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * An ordinary TON cell (up to 1023 bits and 4 references, level 0): what every message we sign and
 * every transaction devnet records is made of. Immutable; its representation hash and depth are
 * computed once, when it is built.
 *
 * <p>Why not ton4j's {@code Cell}: it keeps bits in a {@code BitSet}, writes integers through
 * {@code BigInteger.toString(2)} and hashes through bit strings, which made cell work a quarter to a
 * third of each process's CPU under load. This one keeps bytes, and its hashes and BOCs are checked
 * against ton4j's and the JS SDK's in the tests. Exotic cells (pruned branches, library cells,
 * Merkle proofs) never occur on the payout path and are refused by {@link Boc#parse}.
 */
public final class TonCell {
  public static final int MAX_BITS = 1023;
  public static final int MAX_REFS = 4;
  public static final int HASH_BYTES = 32;
  /** The chain refuses deeper trees (the node's max cell depth); it also bounds every walk of a tree here. */
  public static final int MAX_DEPTH = 1024;

  private static final TonCell[] NO_REFS = new TonCell[0];
  // before EMPTY: building a cell hashes it
  private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is a mandatory JDK algorithm", e);
    }
  });

  /** Bit {@code i} is bit {@code 7 - i % 8} of byte {@code i / 8}; bits past {@link #bitLength} are zero. */
  private final byte[] data;
  private final int bitLength;
  private final TonCell[] refs;
  private final int depth;
  private final byte[] hash;

  /** Takes ownership of {@code data} (its bits past {@code bitLength} must be zero) and {@code refs}. */
  TonCell(byte[] data, int bitLength, TonCell[] refs) {
    if (bitLength < 0 || bitLength > MAX_BITS) {
      throw new IllegalArgumentException("a cell holds 0 to 1023 bits, got " + bitLength);
    }
    if (refs.length > MAX_REFS) {
      throw new IllegalArgumentException("a cell holds 0 to 4 references, got " + refs.length);
    }
    this.data = data;
    this.bitLength = bitLength;
    this.refs = refs.length == 0 ? NO_REFS : refs;
    int d = 0;
    for (TonCell ref : this.refs) {
      d = Math.max(d, Objects.requireNonNull(ref, "ref").depth + 1);
    }
    if (d > MAX_DEPTH) {
      throw new MalformedCellException("a cell tree deeper than " + MAX_DEPTH + " levels");
    }
    this.depth = d;
    this.hash = representationHash();
  }

  /** The empty cell (no bits, no references): a message without a body carries it. */
  public static final TonCell EMPTY = new TonCell(new byte[0], 0, NO_REFS);

  /** A new builder (the JS SDK's {@code beginCell()}). */
  public static CellWriter builder() {
    return new CellWriter();
  }

  /** A reader positioned at the first bit and the first reference. */
  public CellReader parse() {
    return new CellReader(this);
  }

  public int bitLength() {
    return bitLength;
  }

  public int refCount() {
    return refs.length;
  }

  public TonCell ref(int index) {
    return refs[index];
  }

  public List<TonCell> refs() {
    return List.of(refs);
  }

  /** Depth of the tree below this cell: 0 without references. */
  public int depth() {
    return depth;
  }

  /** The representation hash (a copy): the cell's identity on chain. */
  public byte[] hash() {
    return hash.clone();
  }

  public String hashHex() {
    return HexFormat.of().formatHex(hash);
  }

  /** Bit {@code index} (0 is the first). */
  public boolean bit(int index) {
    Objects.checkIndex(index, bitLength);
    return (data[index >>> 3] & (0x80 >>> (index & 7))) != 0;
  }

  /** The data bits as bytes, the last one padded with zeros (a copy). */
  public byte[] dataBytes() {
    return data.clone();
  }

  /** Standard BOC: one root, no index, with CRC32C, cells in the JS SDK's order ({@link Boc#serialize}). */
  public byte[] toBoc() {
    return Boc.serialize(this);
  }

  public String toBase64() {
    return Base64.getEncoder().encodeToString(toBoc());
  }

  /** The one root of a BOC; {@link MalformedCellException} when it is not a well-formed BOC of ordinary cells. */
  public static TonCell fromBoc(byte[] boc) {
    return Boc.parse(boc);
  }

  public static TonCell fromBase64(String base64) {
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(Objects.requireNonNull(base64, "base64").strip());
    } catch (IllegalArgumentException e) {
      throw new MalformedCellException("not base64: " + e.getMessage(), e);
    }
    return Boc.parse(bytes);
  }

  // ---- package access for the builder, the slice and the BOC codec --------------------------

  byte[] data() {
    return data;
  }

  TonCell[] refArray() {
    return refs;
  }


  /** {@code d1}: reference count (+ 8 exotic + 32 level: always 0 here). */
  int descriptor1() {
    return refs.length;
  }

  /** {@code d2}: floor(bits / 8) + ceil(bits / 8), so an odd value means a padded last byte. */
  int descriptor2() {
    return (bitLength >>> 3) + ((bitLength + 7) >>> 3);
  }

  /** Writes the data with its completion tag (a 1 after the last bit when it is not whole bytes). */
  int writePaddedData(byte[] out, int offset) {
    int bytes = (bitLength + 7) >>> 3;
    System.arraycopy(data, 0, out, offset, bytes);
    if ((bitLength & 7) != 0) {
      out[offset + bytes - 1] |= (byte) (0x80 >>> (bitLength & 7));
    }
    return offset + bytes;
  }

  /** sha256(d1 d2 data+tag depth(ref)... hash(ref)...), the standard representation hash of a level-0 cell. */
  private byte[] representationHash() {
    int dataBytes = (bitLength + 7) >>> 3;
    byte[] repr = new byte[2 + dataBytes + refs.length * (2 + HASH_BYTES)];
    repr[0] = (byte) descriptor1();
    repr[1] = (byte) descriptor2();
    int at = writePaddedData(repr, 2);
    for (TonCell ref : refs) {
      repr[at++] = (byte) (ref.depth >>> 8);
      repr[at++] = (byte) ref.depth;
    }
    for (TonCell ref : refs) {
      System.arraycopy(ref.hash, 0, repr, at, HASH_BYTES);
      at += HASH_BYTES;
    }
    return sha256().digest(repr);
  }

  private static MessageDigest sha256() {
    MessageDigest digest = SHA256.get();
    digest.reset();
    return digest;
  }

  /** Same hash, same cell (a hash collision of SHA-256 is not a case to handle). */
  @Override
  public boolean equals(Object o) {
    return o instanceof TonCell other && Arrays.equals(hash, other.hash);
  }

  @Override
  public int hashCode() {
    return (hash[0] & 0xFF) << 24 | (hash[1] & 0xFF) << 16 | (hash[2] & 0xFF) << 8 | (hash[3] & 0xFF);
  }

  @Override
  public String toString() {
    return "TonCell[bits=" + bitLength + ", refs=" + refs.length + ", hash=" + hashHex() + "]";
  }
}
