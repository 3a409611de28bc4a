package org.tonpayouts.local.stack;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;
import org.tonpayouts.ton.keys.SecretFiles;
import org.tonpayouts.ton.keys.WalletKey;
import org.tonpayouts.ton.keys.WalletSecrets;

/**
 * The wallet key of a run: a fresh random test seed on devnet (handed to streams-app only through
 * an owner-only file of the run directory), or the operator's secret file for an external API
 * (handed over by path).
 */
public final class RunKey {
  private final WalletKey key;
  private final Optional<String> seedHex;
  private final Optional<Path> secretFile;

  private RunKey(WalletKey key, Optional<String> seedHex, Optional<Path> secretFile) {
    this.key = key;
    this.seedHex = seedHex;
    this.secretFile = secretFile;
  }

  /** A random seed, new for every run: devnet wallets are throwaway. */
  public static RunKey random() {
    byte[] seed = new byte[WalletKey.SEED_BYTES];
    new SecureRandom().nextBytes(seed);
    String hex = HexFormat.of().formatHex(seed);
    return new RunKey(WalletKey.fromSeedHex(hex), Optional.of(hex), Optional.empty());
  }

  /** The operator's key, read from a mnemonic or seed file. */
  public static RunKey fromFile(Path file) {
    Path absolute = file.toAbsolutePath().normalize();
    return new RunKey(WalletSecrets.fromFile(absolute), Optional.empty(), Optional.of(absolute));
  }

  public WalletKey key() {
    return key;
  }

  /** The seed for the child's seed file (random keys only). */
  public Optional<String> seedHex() {
    return seedHex;
  }

  public Optional<Path> secretFile() {
    return secretFile;
  }

  /**
   * Reads an API key file (trimmed; refused when others may read it); the key is a secret and goes
   * only into child environments.
   */
  public static String readApiKey(Path file) {
    return SecretFiles.read("API key file", file);
  }

  /** Shows the public key only. */
  @Override
  public String toString() {
    return "RunKey[" + key + (secretFile.isPresent() ? ", file=" + secretFile.get() : ", random") + "]";
  }
}
