package org.tonpayouts.devnet.chain;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** SHA-256 for devnet's synthetic identifiers (block hashes, the faucet and jetton admin addresses) and TEP-64 keys. */
public final class Sha256 {
  private Sha256() {}

  static MessageDigest digest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is a mandatory JDK algorithm", e);
    }
  }

  public static byte[] of(String text) {
    return digest().digest(text.getBytes(StandardCharsets.UTF_8));
  }

  /** Big-endian bytes of {@code values}, to feed a digest. */
  static byte[] longs(long... values) {
    ByteBuffer buffer = ByteBuffer.allocate(8 * values.length);
    for (long v : values) {
      buffer.putLong(v);
    }
    return buffer.array();
  }
}
