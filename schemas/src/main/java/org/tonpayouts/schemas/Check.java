package org.tonpayouts.schemas;

import java.util.Objects;

/** Argument checks shared by the event records, so a malformed event cannot be built or read. */
final class Check {

  static final long MAX_SUBWALLET_ID = 0xFFFF_FFFFL;

  private Check() {
  }

  static <T> T present(T value, String name) {
    return Objects.requireNonNull(value, () -> name + " is required");
  }

  static String nonBlank(String value, String name) {
    present(value, name);
    if (value.isBlank()) {
      throw new IllegalArgumentException(name + " must not be blank");
    }
    return value;
  }

  static void schemaVersion(int version) {
    if (version < 1) {
      throw new IllegalArgumentException("schemaVersion must be >= 1, got " + version);
    }
  }

  static void subwalletId(long subwalletId) {
    if (subwalletId < 0 || subwalletId > MAX_SUBWALLET_ID) {
      throw new IllegalArgumentException(
          "subwalletId must be an unsigned 32-bit value, got " + subwalletId);
    }
  }

  static void transferIndex(int index) {
    if (index < 0 || index >= PayoutRequest.MAX_TRANSFERS) {
      throw new IllegalArgumentException(
          "transferIndex must be 0 to " + (PayoutRequest.MAX_TRANSFERS - 1) + ", got " + index);
    }
  }

  static void positive(long value, String name) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be positive, got " + value);
    }
  }

  static void nonNegative(long value, String name) {
    if (value < 0) {
      throw new IllegalArgumentException(name + " must not be negative, got " + value);
    }
  }

  static void nonNegative(Long value, String name) {
    if (value != null) {
      nonNegative(value.longValue(), name);
    }
  }

  /** Hashes are 32 bytes as 64 lowercase hex digits in our APIs; base64 from toncenter is converted first. */
  static void hash(String value, String name) {
    if (value == null) {
      return;
    }
    if (value.length() != 64) {
      throw new IllegalArgumentException(name + " must be 64 lowercase hex digits, got " + value.length() + " characters");
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
        throw new IllegalArgumentException(name + " must be 64 lowercase hex digits: '" + value + "'");
      }
    }
  }
}
