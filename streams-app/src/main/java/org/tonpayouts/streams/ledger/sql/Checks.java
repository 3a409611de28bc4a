package org.tonpayouts.streams.ledger.sql;

import java.util.Locale;
import java.util.regex.Pattern;
import org.tonpayouts.ton.address.TonAddress;

/** Argument checks shared by the ledger's records and queries: what the table's checks also say. */
public final class Checks {
  private static final Pattern HEX_256 = Pattern.compile("[0-9a-f]{64}");
  private static final long UINT32_MAX = 0xFFFF_FFFFL;

  private Checks() {}

  /** A 256-bit hash as our APIs spell it: 64 lowercase hex digits (upper case is accepted). */
  public static String hash(String value, String name) {
    if (value == null) {
      throw new IllegalArgumentException(name + " is required");
    }
    String lower = value.toLowerCase(Locale.ROOT);
    if (!HEX_256.matcher(lower).matches()) {
      throw new IllegalArgumentException(name + " must be 64 hex digits, got '" + value + "'");
    }
    return lower;
  }

  public static String hashOrNull(String value, String name) {
    return value == null ? null : hash(value, name);
  }

  /** Any spelling of a wallet address, as the one raw form the ledger stores and compares. */
  public static String rawAddress(String value, String name) {
    if (value == null) {
      throw new IllegalArgumentException(name + " is required");
    }
    return TonAddress.parse(value).toRaw();
  }

  public static String nonBlank(String value, String name) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(name + " is required");
    }
    return value;
  }

  public static long uint32(long value, String name) {
    if (value < 0 || value > UINT32_MAX) {
      throw new IllegalArgumentException(name + " must be a uint32, got " + value);
    }
    return value;
  }
}
