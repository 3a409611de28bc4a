package org.tonpayouts.ton.keys;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Loads the payout wallets' secret from environment variables or files. Errors name the variable
 * or file that is wrong and why, never its value.
 */
public final class WalletSecrets {
  public static final String MNEMONIC_ENV = "TON_WALLET_MNEMONIC";
  public static final String MNEMONIC_FILE_ENV = "TON_WALLET_MNEMONIC_FILE";
  public static final String SEED_ENV = "TON_WALLET_SEED_HEX";
  public static final String SEED_FILE_ENV = "TON_WALLET_SEED_FILE";

  private static final List<String> ALL = List.of(MNEMONIC_ENV, MNEMONIC_FILE_ENV, SEED_ENV, SEED_FILE_ENV);
  private static final Pattern HEX_SEED = Pattern.compile("(0[xX])?[0-9a-fA-F]{64}");

  private WalletSecrets() {}

  /** The key from the process environment ({@link #fromEnvironment(Map)} of {@code System.getenv()}). */
  public static WalletKey fromEnvironment() {
    return fromEnvironment(System.getenv());
  }

  /**
   * The key named by exactly one of {@value #MNEMONIC_ENV}, {@value #MNEMONIC_FILE_ENV},
   * {@value #SEED_ENV}, {@value #SEED_FILE_ENV} (blank counts as unset). File contents are trimmed.
   */
  public static WalletKey fromEnvironment(Map<String, String> env) {
    Objects.requireNonNull(env, "env");
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
    try {
      return switch (name) {
        case MNEMONIC_ENV -> WalletKey.fromMnemonic(value);
        case SEED_ENV -> WalletKey.fromSeedHex(value);
        case MNEMONIC_FILE_ENV -> WalletKey.fromMnemonic(read(pathOf(value, name, MNEMONIC_ENV)));
        case SEED_FILE_ENV -> WalletKey.fromSeedHex(read(pathOf(value, name, SEED_ENV)));
        default -> throw new IllegalStateException("unhandled variable " + name);
      };
    } catch (IllegalArgumentException e) {
      // Our key-loading messages never contain the secret, so they are safe to repeat and chain.
      throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
    }
  }

  /** The key in {@code file}: 24 words are a mnemonic, 64 hex digits a seed. */
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
  private static Path pathOf(String value, String variable, String secretVariable) {
    String v = value.strip();
    if (v.chars().anyMatch(Character::isWhitespace) || HEX_SEED.matcher(v).matches()) {
      throw new IllegalArgumentException("the value is not a file path: it looks like the secret itself"
          + " (set " + secretVariable + " for an inline secret, or " + variable + " to a file path)");
    }
    try {
      return Path.of(v);
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException("the value is not a valid file path (" + e.getReason() + ")");
    }
  }

  private static String read(Path file) {
    String where = "file '" + file + "'";
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("wallet secret " + where + " does not exist or is not a regular file");
    }
    String content;
    try {
      content = Files.readString(file, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      // IOException messages name the file and the reason, never the content.
      throw new IllegalArgumentException("wallet secret " + where + " is unreadable: " + e, e);
    }
    if (content.isEmpty()) {
      throw new IllegalArgumentException("wallet secret " + where + " is empty");
    }
    return content;
  }
}
