package org.tonpayouts.ton.keys;

import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import org.bouncycastle.math.ec.rfc8032.Ed25519;
import org.ton.ton4j.mnemonic.Mnemonic;

/**
 * Ed25519 key pair of the payout wallets: every subwallet is derived from this one key. toString()
 * shows only the public key; the seed never leaves this object except as a signature.
 *
 * <p>Signing uses BouncyCastle's RFC 8032 implementation (about 15x faster than the TweetNaCl copy
 * inside ton4j, BUILD-NOTES); Ed25519 is deterministic, so the signatures are the same bytes.
 */
public final class WalletKey {
  public static final int SEED_BYTES = Ed25519.SECRET_KEY_SIZE;
  public static final int PUBLIC_KEY_BYTES = Ed25519.PUBLIC_KEY_SIZE;
  public static final int SIGNATURE_BYTES = Ed25519.SIGNATURE_SIZE;
  public static final int MNEMONIC_WORDS = 24;

  static {
    // Builds BouncyCastle's precomputed tables once, outside the first payout's latency.
    Ed25519.precompute();
  }

  private final byte[] seed;
  private final byte[] publicKey;

  private WalletKey(byte[] seed) {
    this.seed = seed;
    this.publicKey = new byte[PUBLIC_KEY_BYTES];
    Ed25519.generatePublicKey(seed, 0, publicKey, 0);
  }

  /**
   * The key of a TON mnemonic (24 words of the TON word list, no password), derived as every TON
   * wallet app does. Errors say what is wrong (count, position of a bad word, checksum), never
   * which words were given.
   */
  public static WalletKey fromMnemonic(String words) {
    List<String> list = MnemonicWords.parse(words);
    try {
      return new WalletKey(Mnemonic.toSeed(list, ""));
    } catch (GeneralSecurityException e) {
      // PBKDF2/HMAC-SHA512 are mandatory JDK algorithms: this means a broken JDK, not bad input.
      throw new IllegalStateException("cannot derive a key from the mnemonic: " + e.getClass().getSimpleName(), e);
    }
  }

  /** The key of a 32-byte Ed25519 seed given as 64 hex digits (the private key of TON SDKs). */
  public static WalletKey fromSeedHex(String hex) {
    if (hex == null || hex.isBlank()) {
      throw new IllegalArgumentException("seed is empty: expected " + 2 * SEED_BYTES + " hex digits");
    }
    String s = hex.strip();
    if (s.startsWith("0x") || s.startsWith("0X")) {
      s = s.substring(2);
    }
    if (s.length() != 2 * SEED_BYTES) {
      throw new IllegalArgumentException(
          "seed must be " + 2 * SEED_BYTES + " hex digits (32 bytes), got " + s.length() + " characters");
    }
    byte[] seed;
    try {
      seed = HexFormat.of().parseHex(s);
    } catch (IllegalArgumentException e) {
      // The JDK's message quotes the offending characters: do not chain it.
      throw new IllegalArgumentException("seed is not hexadecimal (expected " + 2 * SEED_BYTES + " hex digits)");
    }
    return new WalletKey(seed);
  }

  /** The key of a 32-byte seed (copied). */
  public static WalletKey fromSeed(byte[] seed) {
    Objects.requireNonNull(seed, "seed");
    if (seed.length != SEED_BYTES) {
      throw new IllegalArgumentException("seed must be 32 bytes, got " + seed.length);
    }
    return new WalletKey(seed.clone());
  }

  /** The 32-byte Ed25519 public key (a copy). */
  public byte[] publicKey() {
    return publicKey.clone();
  }

  /** The public key as 64 lowercase hex digits. */
  public String publicKeyHex() {
    return HexFormat.of().formatHex(publicKey);
  }

  /** The 64-byte Ed25519 signature of {@code message} (for a wallet: the 32-byte body hash). */
  public byte[] sign(byte[] message) {
    Objects.requireNonNull(message, "message");
    byte[] signature = new byte[SIGNATURE_BYTES];
    Ed25519.sign(seed, 0, publicKey, 0, message, 0, message.length, signature, 0);
    return signature;
  }

  /** True when {@code signature} is a valid Ed25519 signature of {@code message} by {@code publicKey}. */
  public static boolean verify(byte[] publicKey, byte[] message, byte[] signature) {
    if (publicKey == null || publicKey.length != PUBLIC_KEY_BYTES
        || signature == null || signature.length != SIGNATURE_BYTES || message == null) {
      return false;
    }
    return Ed25519.verify(signature, 0, publicKey, 0, message, 0, message.length);
  }

  /** Same public key (the seed is never compared). */
  @Override
  public boolean equals(Object o) {
    return o instanceof WalletKey other && Arrays.equals(publicKey, other.publicKey);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(publicKey);
  }

  /** Shows the public key only. */
  @Override
  public String toString() {
    return "WalletKey[publicKey=" + publicKeyHex() + "]";
  }
}
