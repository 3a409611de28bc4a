package org.tonpayouts.runtime.admin;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * Operators' admin API tokens and their lines in {@code admin.operators.file}: how a token is made
 * ({@code payouts-cli admin operator-token}) and the one digest streams-app compares a presented token
 * against.
 *
 * <p>A plain SHA-256 is the right digest here, not a password hash (bcrypt, scrypt, Argon2): a token is
 * {@value #TOKEN_BYTES} random bytes made by this class, not something a person chose, so there is no
 * dictionary to guess from and a slow hash would add nothing but a slow admin API. 2<sup>256</sup>
 * candidates stay out of reach of anyone who reads the file.
 */
public final class OperatorTokens {
  /** Random bytes in a token: 256 bits. */
  public static final int TOKEN_BYTES = 32;
  /** The digest's tag in the file; the only one accepted. */
  public static final String DIGEST_PREFIX = "sha256:";
  /**
   * An operator's name: what the audit log records. No spaces or brackets, so a name can never be
   * mistaken for the shared token's "bob (shared token)".
   */
  public static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._@-]{0,63}");
  private static final SecureRandom RANDOM = new SecureRandom();

  private OperatorTokens() {}

  /** A fresh token: {@value #TOKEN_BYTES} random bytes in hex. */
  public static String newToken() {
    byte[] bytes = new byte[TOKEN_BYTES];
    RANDOM.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  /** {@code token}'s line for the operators file: {@code <name> sha256:<hex>}. */
  public static String line(String name, String token) {
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(nameRule(name));
    }
    return name + " " + DIGEST_PREFIX + HexFormat.of().formatHex(sha256(token));
  }

  /** Why {@code name} is not a valid operator name. */
  public static String nameRule(String name) {
    return "an operator name is 1 to 64 characters of A-Z a-z 0-9 . _ @ -, starting with a letter or digit; got '"
        + name + "'";
  }

  /** The SHA-256 of {@code value}'s UTF-8 bytes. */
  public static byte[] sha256(String value) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
