package org.tonpayouts.ton.keys;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Loads the payout wallets' secret from environment variables or files. Errors name the variable
 * or file that is wrong and why, never its value. Files are read through {@link SecretFiles}, so
 * one that group or others may read is refused; a secret held in the environment itself
 * ({@value #MNEMONIC_ENV}, {@value #SEED_ENV}) is accepted only where the caller allows it (the
 * laptop demo): an environment is seen by child processes, crash reports and {@code docker inspect}.
 */
public final class WalletSecrets {
  public static final String MNEMONIC_ENV = "TON_WALLET_MNEMONIC";
  public static final String MNEMONIC_FILE_ENV = "TON_WALLET_MNEMONIC_FILE";
  public static final String SEED_ENV = "TON_WALLET_SEED_HEX";
  public static final String SEED_FILE_ENV = "TON_WALLET_SEED_FILE";

  private static final List<String> ALL = List.of(MNEMONIC_ENV, MNEMONIC_FILE_ENV, SEED_ENV, SEED_FILE_ENV);
  private static final Pattern HEX_SEED = Pattern.compile("(0[xX])?[0-9a-fA-F]{64}");

  private WalletSecrets() {}

  /** Whether the secret itself may sit in the environment ({@value #MNEMONIC_ENV}, {@value #SEED_ENV}). */
  public enum Inline {
    /** Only the {@code _FILE} variables: every deployment but the laptop demo. */
    REFUSED,
    /** The demo's throwaway devnet key may be given inline. */
    ALLOWED
  }

  /**
   * The key named by exactly one of {@value #MNEMONIC_ENV}, {@value #MNEMONIC_FILE_ENV},
   * {@value #SEED_ENV}, {@value #SEED_FILE_ENV} (blank counts as unset). File contents are trimmed.
   *
   * @param inline whether {@value #MNEMONIC_ENV} and {@value #SEED_ENV} are accepted; refused, they
   *     stop with a message naming the variable and its {@code _FILE} variant
   */
  public static WalletKey fromEnvironment(Map<String, String> env, Inline inline) {
    Objects.requireNonNull(env, "env");
    Objects.requireNonNull(inline, "inline");
    List<String> set = new ArrayList<>();
    for (String name : ALL) {
      String v = env.get(name);
      if (v != null && !v.isBlank()) {
        set.add(name);
      }
    }
    if (set.isEmpty()) {
      throw new IllegalArgumentException("no wallet secret configured: set exactly one of " + String.join(", ", ALL));
    }
    if (set.size() > 1) {
      throw new IllegalArgumentException(
          "more than one wallet secret configured (" + String.join(", ", set) + "): set exactly one of "
              + String.join(", ", ALL));
    }
    String name = set.get(0);
    String value = env.get(name);
    if (inline == Inline.REFUSED && (name.equals(MNEMONIC_ENV) || name.equals(SEED_ENV))) {
      String fileVariable = name.equals(MNEMONIC_ENV) ? MNEMONIC_FILE_ENV : SEED_FILE_ENV;
      throw new IllegalArgumentException(name + " holds the wallet secret itself in the environment, which is"
          + " refused outside the laptop demo: put the secret in a file only the service's user can read"
          + " (chmod 600 <file>) and set " + fileVariable + " to its path instead of " + name);
    }
    try {
      return switch (name) {
        case MNEMONIC_ENV -> WalletKey.fromMnemonic(value);
        case SEED_ENV -> WalletKey.fromSeedHex(value);
        case MNEMONIC_FILE_ENV -> WalletKey.fromMnemonic(read(pathOf(value, name)));
        case SEED_FILE_ENV -> WalletKey.fromSeedHex(read(pathOf(value, name)));
        default -> throw new IllegalStateException("unhandled variable " + name);
      };
    } catch (IllegalArgumentException e) {
      // Our key-loading messages never contain the secret, so they are safe to repeat and chain.
      throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
    }
  }

  /**
   * The key in {@code file}: 24 words are a mnemonic, 64 hex digits a seed. A file group or others
   * may read is refused ({@link SecretFiles}).
   */
  public static WalletKey fromFile(Path file) {
    Objects.requireNonNull(file, "file");
    String content = read(file);
    try {
      if (HEX_SEED.matcher(content).matches()) {
        return WalletKey.fromSeedHex(content);
      }
      if (content.split("\\s+").length > 1) {
        return WalletKey.fromMnemonic(content);
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("wallet secret file '" + file + "': " + e.getMessage(), e);
    }
    throw new IllegalArgumentException("wallet secret file '" + file
        + "': expected " + WalletKey.MNEMONIC_WORDS + " mnemonic words or a 64-hex-digit seed");
  }

  /**
   * The path in a *_FILE variable. A value that looks like the secret itself (words, or 64 hex
   * digits) is a misconfiguration whose error must not quote it.
   */
  private static Path pathOf(String value, String variable) {
    String v = value.strip();
    if (v.chars().anyMatch(Character::isWhitespace) || HEX_SEED.matcher(v).matches()) {
      throw new IllegalArgumentException("the value is not a file path: it looks like the secret itself"
          + " (put the secret in a file only the service's user can read, chmod 600, and set " + variable
          + " to its path)");
    }
    try {
      return Path.of(v);
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException("the value is not a valid file path (" + e.getReason() + ")");
    }
  }

  private static String read(Path file) {
    return SecretFiles.read("wallet secret file", file);
  }
}
