package org.tonpayouts.runtime.store;

/**
 * Numbers inside state store keys, written so the stores' byte order is their numeric order:
 * a prefix scan or range of {@code <id>/<number>} keys then comes out oldest first.
 */
public final class SortableKeys {
  private static final String ZEROS = "0".repeat(19);

  private SortableKeys() {}

  /** {@code value} in decimal, zero-padded to 19 digits (every non-negative long fits). */
  public static String padded(long value) {
    if (value < 0) {
      throw new IllegalArgumentException("a sortable key part must not be negative, got " + value);
    }
    String digits = Long.toString(value);
    return ZEROS.substring(digits.length()) + digits;
  }
}
