package org.tonpayouts.devnet.chain;

import java.util.ArrayList;
import java.util.List;
import org.tonpayouts.ton.cell.CellWriter;
import org.tonpayouts.ton.cell.TonCell;

/**
 * A transaction's {@code out_msgs:(HashmapE 15 ^(Message Any))}: message {@code i} under the
 * 15-bit key {@code i}. Labels are chosen as the node's {@code append_dict_label} does (the
 * shortest form; ties resolved the same way), so the cells are canonical.
 */
final class Hashmap15 {
  private static final int KEY_BITS = 15;

  private record Entry(boolean[] key, TonCell value) {}

  private Hashmap15() {}

  /** The root cell of the non-empty hashmap of {@code values} (keys 0, 1, ...). */
  static TonCell of(List<TonCell> values) {
    if (values.isEmpty() || values.size() > (1 << KEY_BITS)) {
      throw new IllegalArgumentException("1 to 32768 values, got " + values.size());
    }
    List<Entry> entries = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      boolean[] key = new boolean[KEY_BITS];
      for (int b = 0; b < KEY_BITS; b++) {
        key[b] = ((i >> (KEY_BITS - 1 - b)) & 1) == 1;
      }
      entries.add(new Entry(key, values.get(i)));
    }
    return edge(entries, 0, KEY_BITS);
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
      return b.storeRef(entries.get(0).value).endCell(); // hmn_leaf: value ^(Message Any)
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
