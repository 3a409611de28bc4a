package org.tonpayouts.devnet.chain;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * The persistent data of a WalletV4R2: {@code seqno(32) | subwallet_id(32) | public_key(256) |
 * plugins dict}. devnet keeps no plugins (op 0 only).
 */
public record WalletData(long seqno, long subwalletId, byte[] publicKey) {
  public WalletData {
    Objects.requireNonNull(publicKey, "publicKey");
    if (publicKey.length != 32) {
      throw new IllegalArgumentException("public key must be 32 bytes, got " + publicKey.length);
    }
    publicKey = publicKey.clone();
  }

  @Override
  public byte[] publicKey() {
    return publicKey.clone();
  }

  public String publicKeyHex() {
    return HexFormat.of().formatHex(publicKey);
  }

  boolean samePublicKey(byte[] other) {
    return Arrays.equals(publicKey, other);
  }

  WalletData withSeqno(long next) {
    return new WalletData(next, subwalletId, publicKey);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof WalletData other && seqno == other.seqno && subwalletId == other.subwalletId
        && Arrays.equals(publicKey, other.publicKey);
  }

  @Override
  public int hashCode() {
    return Objects.hash(seqno, subwalletId, Arrays.hashCode(publicKey));
  }

  @Override
  public String toString() {
    return "WalletData[seqno=" + seqno + ", subwalletId=" + subwalletId + ", publicKey=" + publicKeyHex() + "]";
  }
}
