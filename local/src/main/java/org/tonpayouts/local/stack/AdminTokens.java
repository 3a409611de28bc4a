package org.tonpayouts.local.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import org.tonpayouts.ton.keys.SecretFiles;

/** The local stack's admin token: random per run, kept in a file only its owner can read. */
final class AdminTokens {
  private static final SecureRandom RANDOM = new SecureRandom();

  private AdminTokens() {}

  /** A fresh 256-bit token written to {@code file} (mode 600 where the file system allows it). */
  static ChildConfig.AdminAccess create(Path file, int port) {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    String token = HexFormat.of().formatHex(bytes);
    try {
      SecretFiles.writeOwnerOnly(file, token + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the admin token file " + file, e);
    }
    return new ChildConfig.AdminAccess(port, token, file);
  }
}
