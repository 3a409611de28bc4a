package org.tonpayouts.ton.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.iwebpp.crypto.TweetNaclFast;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.ton.ton4j.mnemonic.Mnemonic;
import org.tonpayouts.ton.wallet.Vectors;

/** Key derivation matches TON wallets; BouncyCastle signatures are the bytes ton4j's TweetNaCl makes. */
class WalletKeyTest {
  static final Vectors.Key SEED = Vectors.key("seed");
  static final Vectors.Key WORDS = Vectors.key("mnemonic");

  @Test
  void seedHexGivesTheSdkPublicKey() {
    WalletKey key = WalletKey.fromSeedHex(SEED.seedHex());
    assertThat(key.publicKeyHex()).isEqualTo(SEED.publicKey());
    assertThat(HexFormat.of().formatHex(key.publicKey())).isEqualTo(SEED.publicKey());
    assertThat(WalletKey.fromSeedHex("  0x" + SEED.seedHex().toUpperCase() + "\n")).isEqualTo(key);
  }

  @Test
  void mnemonicGivesTheSdkKeyAndTheSameKeyAsTon4j() throws Exception {
    WalletKey key = WalletKey.fromMnemonic(WORDS.mnemonic());
    assertThat(key.publicKeyHex()).isEqualTo(WORDS.publicKey());
    assertThat(key.publicKey())
        .isEqualTo(Mnemonic.toKeyPair(java.util.List.of(WORDS.mnemonic().split(" "))).getPublicKey());
    // Extra whitespace and line breaks (as pasted from a wallet app) do not matter.
    assertThat(WalletKey.fromMnemonic("\n  " + WORDS.mnemonic().replace(" ", " \n\t ") + "  ")).isEqualTo(key);
  }

  @Test
  void signaturesEqualTweetNaclsAndVerify() {
    WalletKey key = WalletKey.fromSeedHex(SEED.seedHex());
    TweetNaclFast.Signature.KeyPair nacl =
        TweetNaclFast.Signature.keyPair_fromSeed(HexFormat.of().parseHex(SEED.seedHex()));
    byte[] message = "body hash stand-in, 32 bytes long".getBytes(StandardCharsets.UTF_8);

    byte[] signature = key.sign(message);

    assertThat(signature).hasSize(64);
    assertThat(signature).isEqualTo(new TweetNaclFast.Signature(nacl.getPublicKey(), nacl.getSecretKey()).detached(message));
    assertThat(key.sign(message)).isEqualTo(signature);
    assertThat(WalletKey.verify(key.publicKey(), message, signature)).isTrue();
    message[0] ^= 1;
    assertThat(WalletKey.verify(key.publicKey(), message, signature)).isFalse();
  }

  @Test
  void verifyRejectsMalformedInputsWithoutThrowing() {
    WalletKey key = WalletKey.fromSeedHex(SEED.seedHex());
    byte[] sig = key.sign(new byte[32]);
    assertThat(WalletKey.verify(new byte[31], new byte[32], sig)).isFalse();
    assertThat(WalletKey.verify(key.publicKey(), new byte[32], new byte[63])).isFalse();
    assertThat(WalletKey.verify(null, new byte[32], sig)).isFalse();
    assertThat(WalletKey.verify(key.publicKey(), null, sig)).isFalse();
    assertThat(WalletKey.verify(WalletKey.fromSeedHex("00".repeat(32)).publicKey(), new byte[32], sig)).isFalse();
  }

  @Test
  void publicKeyIsACopy() {
    WalletKey key = WalletKey.fromSeedHex(SEED.seedHex());
    key.publicKey()[0] ^= 1;
    assertThat(key.publicKeyHex()).isEqualTo(SEED.publicKey());
  }

  @Test
  void badSeedsAreReportedWithoutTheirValue() {
    String nonHex = "zz" + SEED.seedHex().substring(2);
    assertThatThrownBy(() -> WalletKey.fromSeedHex(nonHex))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("seed is not hexadecimal (expected 64 hex digits)")
        .hasNoCause();
    assertThatThrownBy(() -> WalletKey.fromSeedHex(SEED.seedHex().substring(1)))
        .hasMessage("seed must be 64 hex digits (32 bytes), got 63 characters");
    assertThatThrownBy(() -> WalletKey.fromSeedHex(" "))
        .hasMessage("seed is empty: expected 64 hex digits");
    assertThatThrownBy(() -> WalletKey.fromSeed(new byte[31]))
        .hasMessage("seed must be 32 bytes, got 31");
  }

  @Test
  void badMnemonicsAreReportedByCountOrPositionNeverByWord() {
    String[] words = WORDS.mnemonic().split(" ");

    assertThatThrownBy(() -> WalletKey.fromMnemonic(String.join(" ", java.util.Arrays.copyOf(words, 23))))
        .hasMessage("mnemonic must have 24 words, got 23");
    assertThatThrownBy(() -> WalletKey.fromMnemonic(WORDS.mnemonic() + " abandon"))
        .hasMessage("mnemonic must have 24 words, got 25");
    assertThatThrownBy(() -> WalletKey.fromMnemonic(""))
        .hasMessage("mnemonic is empty: expected 24 words");

    String[] typo = words.clone();
    typo[4] = typo[4] + "x";
    assertThatThrownBy(() -> WalletKey.fromMnemonic(String.join(" ", typo)))
        .hasMessage("mnemonic word #5 is not in the TON word list");

    String[] upper = words.clone();
    upper[9] = upper[9].toUpperCase();
    assertThatThrownBy(() -> WalletKey.fromMnemonic(String.join(" ", upper)))
        .hasMessage("mnemonic word #10 is malformed (expected lowercase letters a-z)");

    // Valid words in the wrong order: a BIP-39-style checksum failure in TON terms.
    String[] swapped = words.clone();
    swapped[0] = words[1];
    swapped[1] = words[0];
    assertThatThrownBy(() -> WalletKey.fromMnemonic(String.join(" ", swapped)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("mnemonic is not a valid TON mnemonic (checksum failed");
  }

  @Test
  void toStringShowsOnlyThePublicKey() {
    WalletKey key = WalletKey.fromMnemonic(WORDS.mnemonic());
    assertThat(key.toString()).isEqualTo("WalletKey[publicKey=" + WORDS.publicKey() + "]");
    assertThat(key.toString()).doesNotContain(WORDS.seedHex());
  }
}
