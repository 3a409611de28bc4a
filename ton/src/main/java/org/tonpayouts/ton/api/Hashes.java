package org.tonpayouts.ton.api;

import java.util.Base64;
import java.util.HexFormat;

/** Converts the API's base64 hashes (standard or url-safe, padded or not) to our lowercase hex. */
final class Hashes {
  private static final HexFormat HEX = HexFormat.of();

  private Hashes() {}

  /**
   * Lowercase hex of a 32-byte hash given in base64; 64 hex digits are accepted as they are.
   * Null or empty gives null.
   *
   * @throws IllegalArgumentException when the text is neither form of a 32-byte hash
   */
  static String toHex(String text) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    String s = text.trim();
    if (s.length() == 64 && isHex(s)) {
      return s.toLowerCase(java.util.Locale.ROOT);
    }
    byte[] bytes = decodeBase64(s);
    if (bytes.length != 32) {
      throw new IllegalArgumentException("hash must be 32 bytes, got " + bytes.length + " from '" + s + "'");
    }
    return HEX.formatHex(bytes);
  }

  /** Decodes standard or url-safe base64 with or without padding. */
  static byte[] decodeBase64(String s) {
    String standard = s.trim().replace('-', '+').replace('_', '/');
    int pad = (4 - standard.length() % 4) % 4;
    if (pad == 3) {
      throw new IllegalArgumentException("not base64: '" + s + "'");
    }
    return Base64.getDecoder().decode(standard + "=".repeat(pad));
  }

  private static boolean isHex(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (Character.digit(s.charAt(i), 16) < 0) {
        return false;
      }
    }
    return true;
  }
}
