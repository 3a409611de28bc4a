package org.tonpayouts.ton.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tonpayouts.ton.keys.WalletSecrets.MNEMONIC_ENV;
import static org.tonpayouts.ton.keys.WalletSecrets.MNEMONIC_FILE_ENV;
import static org.tonpayouts.ton.keys.WalletSecrets.SEED_ENV;
import static org.tonpayouts.ton.keys.WalletSecrets.SEED_FILE_ENV;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.ton.wallet.Vectors;

/** The wallet secret loads from exactly one variable or file; every misconfiguration says what to fix. */
class WalletSecretsTest {
  static final Vectors.Key SEED = Vectors.key("seed");
  static final Vectors.Key WORDS = Vectors.key("mnemonic");

  @TempDir
  Path dir;

  @Test
  void loadsEachOfTheFourVariables() throws IOException {
    Path words = Files.writeString(dir.resolve("mnemonic.txt"), "\n  " + WORDS.mnemonic() + "\n\n");
    Path seed = Files.writeString(dir.resolve("seed.hex"), SEED.seedHex() + "\n");

    assertThat(WalletSecrets.fromEnvironment(Map.of(MNEMONIC_ENV, WORDS.mnemonic())).publicKeyHex())
        .isEqualTo(WORDS.publicKey());
    assertThat(WalletSecrets.fromEnvironment(Map.of(MNEMONIC_FILE_ENV, words.toString())).publicKeyHex())
        .isEqualTo(WORDS.publicKey());
    assertThat(WalletSecrets.fromEnvironment(Map.of(SEED_ENV, SEED.seedHex())).publicKeyHex())
        .isEqualTo(SEED.publicKey());
    assertThat(WalletSecrets.fromEnvironment(Map.of(SEED_FILE_ENV, " " + seed + " ")).publicKeyHex())
        .isEqualTo(SEED.publicKey());
  }

  @Test
  void blankVariablesCountAsUnset() {
    assertThat(WalletSecrets.fromEnvironment(Map.of(SEED_ENV, SEED.seedHex(), MNEMONIC_ENV, "  ")).publicKeyHex())
        .isEqualTo(SEED.publicKey());
  }

  @Test
  void noneSetIsReported() {
    assertThatThrownBy(() -> WalletSecrets.fromEnvironment(Map.of("PATH", "/usr/bin")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("no wallet secret configured: set exactly one of TON_WALLET_MNEMONIC, "
            + "TON_WALLET_MNEMONIC_FILE, TON_WALLET_SEED_HEX, TON_WALLET_SEED_FILE");
  }

  @Test
  void twoSetAreReportedByNameOnly() {
    assertThatThrownBy(() -> WalletSecrets.fromEnvironment(Map.of(SEED_ENV, SEED.seedHex(), MNEMONIC_ENV, WORDS.mnemonic())))
        .hasMessageStartingWith("more than one wallet secret configured (TON_WALLET_MNEMONIC, TON_WALLET_SEED_HEX)")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(SEED.seedHex()).doesNotContain(WORDS.mnemonic()));
  }

  @Test
  void missingOrUnreadableFilesAreReported() throws IOException {
    Path missing = dir.resolve("nope.txt");
    assertThatThrownBy(() -> WalletSecrets.fromEnvironment(Map.of(SEED_FILE_ENV, missing.toString())))
        .hasMessage("TON_WALLET_SEED_FILE: wallet secret file '" + missing + "' does not exist or is not a regular file");
    assertThatThrownBy(() -> WalletSecrets.fromEnvironment(Map.of(MNEMONIC_FILE_ENV, dir.toString())))
        .hasMessage("TON_WALLET_MNEMONIC_FILE: wallet secret file '" + dir + "' does not exist or is not a regular file");

    Path notUtf8 = Files.write(dir.resolve("binary"), new byte[] {(byte) 0xff, (byte) 0xfe, 0x41});
    assertThatThrownBy(() -> WalletSecrets.fromFile(notUtf8))
        .hasMessageStartingWith("wallet secret file '" + notUtf8 + "' is unreadable: java.nio.charset.MalformedInputException")
        .hasCauseInstanceOf(java.nio.charset.MalformedInputException.class);

    Path empty = Files.writeString(dir.resolve("empty"), " \n ");
    assertThatThrownBy(() -> WalletSecrets.fromEnvironment(Map.of(SEED_FILE_ENV, empty.toString())))
        .hasMessage("TON_WALLET_SEED_FILE: wallet secret file '" + empty + "' is empty");
  }

  @Test
  void malformedContentIsReportedWithoutTheContent() throws IOException {
    String[] words = WORDS.mnemonic().split(" ");
    Path twelve = Files.writeString(dir.resolve("twelve"), String.join(" ", java.util.Arrays.copyOf(words, 12)));
    assertThatThrownBy(() -> WalletSecrets.fromEnvironment(Map.of(MNEMONIC_FILE_ENV, twelve.toString())))
        .hasMessage("TON_WALLET_MNEMONIC_FILE: mnemonic must have 24 words, got 12");
    assertThatThrownBy(() -> WalletSecrets.fromFile(twelve))
        .hasMessage("wallet secret file '" + twelve + "': mnemonic must have 24 words, got 12");

    Path shortSeed = Files.writeString(dir.resolve("short"), SEED.seedHex().substring(2));
    assertThatThrownBy(() -> WalletSecrets.fromEnvironment(Map.of(SEED_FILE_ENV, shortSeed.toString())))
        .hasMessage("TON_WALLET_SEED_FILE: seed must be 64 hex digits (32 bytes), got 62 characters");
    assertThatThrownBy(() -> WalletSecrets.fromFile(shortSeed))
        .hasMessage("wallet secret file '" + shortSeed + "': expected 24 mnemonic words or a 64-hex-digit seed");

    assertThatThrownBy(() -> WalletSecrets.fromEnvironment(Map.of(SEED_ENV, "g" + SEED.seedHex().substring(1))))
        .hasMessage("TON_WALLET_SEED_HEX: seed is not hexadecimal (expected 64 hex digits)");
    String typo = WORDS.mnemonic().replaceFirst("^\\w+", "qqqq");
    assertThatThrownBy(() -> WalletSecrets.fromEnvironment(Map.of(MNEMONIC_ENV, typo)))
        .hasMessage("TON_WALLET_MNEMONIC: mnemonic word #1 is not in the TON word list");
  }

  @Test
  void fileAutoDetectsMnemonicOrSeed() throws IOException {
    Path words = Files.writeString(dir.resolve("w"), WORDS.mnemonic().replace(' ', '\n'));
    Path seed = Files.writeString(dir.resolve("s"), "0x" + SEED.seedHex());
    assertThat(WalletSecrets.fromFile(words).publicKeyHex()).isEqualTo(WORDS.publicKey());
    assertThat(WalletSecrets.fromFile(seed).publicKeyHex()).isEqualTo(SEED.publicKey());
  }

  @Test
  void aSecretPutInAFileVariableIsNotQuoted() {
    assertThatThrownBy(() -> WalletSecrets.fromEnvironment(Map.of(MNEMONIC_FILE_ENV, WORDS.mnemonic())))
        .hasMessage("TON_WALLET_MNEMONIC_FILE: the value is not a file path: it looks like the secret itself"
            + " (set TON_WALLET_MNEMONIC for an inline secret, or TON_WALLET_MNEMONIC_FILE to a file path)");
    assertThatThrownBy(() -> WalletSecrets.fromEnvironment(Map.of(SEED_FILE_ENV, SEED.seedHex())))
        .hasMessageStartingWith("TON_WALLET_SEED_FILE: the value is not a file path: it looks like the secret itself");
  }
}
