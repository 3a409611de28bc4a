package org.tonpayouts.devnet.chain;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.tonpayouts.ton.cell.CellWriter;
import org.tonpayouts.ton.cell.TonCell;

/**
 * A non-empty {@code Hashmap n ^Cell} (block.tlb {@code hm_edge}) with unsigned {@code n}-bit keys
 * and every value a reference: a transaction's out_msgs (15-bit keys), a token's on-chain
 * metadata (256-bit keys, as FunC's {@code udict_set_ref} builds it). Labels are chosen as the
 * node's {@code append_dict_label} does (the shortest form; ties resolved the same way), so the
 * cells are canonical.
 */
public final class HashmapE {
  private record Entry(boolean[] key, TonCell value) {}

  private HashmapE() {}

  /** The root cell of the hashmap of {@code values} under {@code keyBits}-bit unsigned keys. */
  public static TonCell of(int keyBits, Map<BigInteger, TonCell> values) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException("a Hashmap has at least one entry (an empty HashmapE is a 0 bit)");
    }
    List<Entry> entries = new ArrayList<>();
    for (Map.Entry<BigInteger, TonCell> e : new TreeMap<>(values).entrySet()) {
      BigInteger k = e.getKey();
      if (k.signum() < 0 || k.bitLength() > keyBits) {
        throw new IllegalArgumentException("key " + k + " does not fit in " + keyBits + " unsigned bits");
      }
      boolean[] key = new boolean[keyBits];
      for (int b = 0; b < keyBits; b++) {
        key[b] = k.testBit(keyBits - 1 - b);
      }
      entries.add(new Entry(key, e.getValue()));
    }
    return edge(entries, 0, keyBits);
  }

  /** {@code hm_edge}: the label (common prefix of the keys from bit {@code from}), then a leaf or a fork. */
  private static TonCell edge(List<Entry> entries, int from, int n) {
    int common = n;
    boolean[] first = entries.get(0).key;
    for (Entry e : entries) {
      for (int i = 0; i < common; i++) {
        if (e.key[from + i] != first[from + i]) {
          common = i;
          break;
        }
      }
    }
    CellWriter b = TonCell.builder();
    label(b, first, from, common, n);
    int m = n - common;
    if (m == 0) {
      return b.storeRef(entries.get(0).value).endCell(); // hmn_leaf: value ^Cell
    }
    int split = from + common;
    List<Entry> left = new ArrayList<>();
    List<Entry> right = new ArrayList<>();
    for (Entry e : entries) {
      (e.key[split] ? right : left).add(e);
    }
    return b.storeRef(edge(left, split + 1, m - 1)).storeRef(edge(right, split + 1, m - 1)).endCell();
  }

  /** {@code HmLabel ~len maxLen}, as crypto/vm/dict.cpp {@code append_dict_label} picks it. */
  private static void label(CellWriter b, boolean[] key, int from, int len, int maxLen) {
    int k = 32 - Integer.numberOfLeadingZeros(maxLen);
    boolean same = true;
    for (int i = 1; i < len; i++) {
      same &= key[from + i] == key[from];
    }
    if (len > 0 && same && len > 1 && k < 2 * len - 1) {
      b.storeUint(0b11, 2).storeBit(key[from]).storeUint(len, k); // hml_same$11 v:Bit n:(#<= m)
      return;
    }
    if (k < len) {
      b.storeUint(0b10, 2).storeUint(len, k);                      // hml_long$10 n:(#<= m) s:(n * Bit)
    } else {
      b.storeBit(false);                                           // hml_short$0 len:(Unary ~n) s:(n * Bit)
      for (int i = 0; i < len; i++) {
        b.storeBit(true);
      }
      b.storeBit(false);
    }
    for (int i = 0; i < len; i++) {
      b.storeBit(key[from + i]);
    }
  }
}
