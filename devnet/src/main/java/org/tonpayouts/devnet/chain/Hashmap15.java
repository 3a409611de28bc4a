package org.tonpayouts.devnet.chain;

import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tonpayouts.ton.cell.TonCell;

/** A transaction's {@code out_msgs:(HashmapE 15 ^(Message Any))}: message {@code i} under the 15-bit key {@code i}. */
final class Hashmap15 {
  private static final int KEY_BITS = 15;

  private Hashmap15() {}

  /** The root cell of the non-empty hashmap of {@code values} (keys 0, 1, ...). */
  static TonCell of(List<TonCell> values) {
    if (values.isEmpty() || values.size() > (1 << KEY_BITS)) {
      throw new IllegalArgumentException("1 to 32768 values, got " + values.size());
    }
    Map<BigInteger, TonCell> byKey = new LinkedHashMap<>();
    for (int i = 0; i < values.size(); i++) {
      byKey.put(BigInteger.valueOf(i), values.get(i));
    }
    return HashmapE.of(KEY_BITS, byKey);
  }
}
