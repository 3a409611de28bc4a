package org.tonpayouts.ton.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tonpayouts.ton.keys.WalletSecrets.MNEMONIC_ENV;
import static org.tonpayouts.ton.keys.WalletSecrets.MNEMONIC_FILE_ENV;
import static org.tonpayouts.ton.keys.WalletSecrets.SEED_ENV;
import static org.tonpayouts.ton.keys.WalletSecrets.Inline.ALLOWED;
import static org.tonpayouts.ton.keys.WalletSecrets.Inline.REFUSED;
import static org.tonpayouts.ton.keys.WalletSecrets.SEED_FILE_ENV;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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
    Path words = secretFile("mnemonic.txt", "\n  " + WORDS.mnemonic() + "\n\n");
    Path seed = secretFile("seed.hex", SEED.seedHex() + "\n");

    assertThat(WalletSecrets.fromEnvironment(Map.of(MNEMONIC_ENV, WORDS.mnemonic()), ALLOWED).publicKeyHex())
        .isEqualTo(WORDS.publicKey());
    assertThat(WalletSecrets.fromEnvironment(Map.of(MNEMONIC_FILE_ENV, words.toString()), REFUSED).publicKeyHex())
        .isEqualTo(WORDS.publicKey());
    assertThat(WalletSecrets.fromEnvironment(Map.of(SEED_ENV, SEED.seedHex()), ALLOWED).publicKeyHex())
        .isEqualTo(SEED.publicKey());
    assertThat(WalletSecrets.fromEnvironment(Map.of(SEED_FILE_ENV, " " + seed + " "), REFUSED).publicKeyHex())
        .isEqualTo(SEED.publicKey());
  }

  @Test
  void blankVariablesCountAsUnset() {
    assertThat(WalletSecrets.fromEnvironment(Map.of(SEED_ENV, SEED.seedHex(), MNEMONIC_ENV, "  "), ALLOWED).publicKeyHex())
        .isEqualTo(SEED.publicKey());
  }

  @Test
  void noneSetIsReported() {
    assertThatThrownBy(() -> WalletSecrets.fromEnvironment(Map.of("PATH", "/usr/bin"), ALLOWED))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("no wallet secret configured: set exactly one of TON_WALLET_MNEMONIC, "
            + "TON_WALLET_MNEMONIC_FILE, TON_WALLET_SEED_HEX, TON_WALLET_SEED_FILE");
  }

  @Test
  void twoSetAreReportedByNameOnly() {
    assertThatThrownBy(() -> WalletSecrets.fromEnvironment(Map.of(SEED_ENV, SEED.seedHex(), MNEMONIC_ENV, WORDS.mnemonic()), ALLOWED))
        .hasMessageStartingWith("more than one wallet secret configured (TON_WALLET_MNEMONIC, TON_WALLET_SEED_HEX)")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(SEED.seedHex()).doesNotContain(WORDS.mnemonic()));
  }

  @Test
  void missingOrUnreadableFilesAreReported() throws IOException {
    Path missing = dir.resolve("nope.txt");
    assertThatThrownBy(() -> WalletSecrets.fromEnvironment(Map.of(SEED_FILE_ENV, missing.toString()), REFUSED))
        .hasMessage("TON_WALLET_SEED_FILE: wallet secret file '" + missing + "' does not exist or is not a regular file");
    assertThatThrownBy(() -> WalletSecrets.fromEnvironment(Map.of(MNEMONIC_FILE_ENV, dir.toString()), REFUSED))
        .hasMessage("TON_WALLET_MNEMONIC_FILE: wallet secret file '" + dir + "' does not exist or is not a regular file");

    Path notUtf8 = Files.write(dir.resolve("binary"), new byte[] {(byte) 0xff, (byte) 0xfe, 0x41});
    Files.setPosixFilePermissions(notUtf8, PosixFilePermissions.fromString("rw-------"));
    assertThatThrownBy(() -> WalletSecrets.fromFile(notUtf8))
        .hasMessageStartingWith("wallet secret file '" + notUtf8 + "' is unreadable: java.nio.charset.MalformedInputException")
        .hasCauseInstanceOf(java.nio.charset.MalformedInputException.class);

    Path empty = secretFile("empty", " \n ");
    assertThatThrownBy(() -> WalletSecrets.fromEnvironment(Map.of(SEED_FILE_ENV, empty.toString()), REFUSED))
        .hasMessage("TON_WALLET_SEED_FILE: wallet secret file '" + empty + "' is empty");
  }

  @Test
  void malformedContentIsReportedWithoutTheContent() throws IOException {
    String[] words = WORDS.mnemonic().split(" ");
    Path twelve = secretFile("twelve", String.join(" ", java.util.Arrays.copyOf(words, 12)));
    assertThatThrownBy(() -> WalletSecrets.fromEnvironment(Map.of(MNEMONIC_FILE_ENV, twelve.toString()), REFUSED))
        .hasMessage("TON_WALLET_MNEMONIC_FILE: mnemonic must have 24 words, got 12");
    assertThatThrownBy(() -> WalletSecrets.fromFile(twelve))
        .hasMessage("wallet secret file '" + twelve + "': mnemonic must have 24 words, got 12");

    Path shortSeed = secretFile("short", SEED.seedHex().substring(2));
    assertThatThrownBy(() -> WalletSecrets.fromEnvironment(Map.of(SEED_FILE_ENV, shortSeed.toString()), REFUSED))
        .hasMessage("TON_WALLET_SEED_FILE: seed must be 64 hex digits (32 bytes), got 62 characters");
    assertThatThrownBy(() -> WalletSecrets.fromFile(shortSeed))
        .hasMessage("wallet secret file '" + shortSeed + "': expected 24 mnemonic words or a 64-hex-digit seed");

    assertThatThrownBy(() -> WalletSecrets.fromEnvironment(Map.of(SEED_ENV, "g" + SEED.seedHex().substring(1)), ALLOWED))
        .hasMessage("TON_WALLET_SEED_HEX: seed is not hexadecimal (expected 64 hex digits)");
    String typo = WORDS.mnemonic().replaceFirst("^\\w+", "qqqq");
    assertThatThrownBy(() -> WalletSecrets.fromEnvironment(Map.of(MNEMONIC_ENV, typo), ALLOWED))
        .hasMessage("TON_WALLET_MNEMONIC: mnemonic word #1 is not in the TON word list");
  }

  @Test
  void fileAutoDetectsMnemonicOrSeed() throws IOException {
    Path words = secretFile("w", WORDS.mnemonic().replace(' ', '\n'));
    Path seed = secretFile("s", "0x" + SEED.seedHex());
    assertThat(WalletSecrets.fromFile(words).publicKeyHex()).isEqualTo(WORDS.publicKey());
    assertThat(WalletSecrets.fromFile(seed).publicKeyHex()).isEqualTo(SEED.publicKey());
  }

  @Test
  void aSecretPutInAFileVariableIsNotQuoted() {
    assertThatThrownBy(() -> WalletSecrets.fromEnvironment(Map.of(MNEMONIC_FILE_ENV, WORDS.mnemonic()), REFUSED))
        .hasMessage("TON_WALLET_MNEMONIC_FILE: the value is not a file path: it looks like the secret itself"
            + " (put the secret in a file only the service's user can read, chmod 600, and set"
            + " TON_WALLET_MNEMONIC_FILE to its path)");
    assertThatThrownBy(() -> WalletSecrets.fromEnvironment(Map.of(SEED_FILE_ENV, SEED.seedHex()), REFUSED))
        .hasMessageStartingWith("TON_WALLET_SEED_FILE: the value is not a file path: it looks like the secret itself");
  }

  @Test
  void anInlineSecretIsRefusedUnlessAllowedNamingTheFileVariableAndNotQuotingIt() {
    assertThatThrownBy(() -> WalletSecrets.fromEnvironment(Map.of(MNEMONIC_ENV, WORDS.mnemonic()), REFUSED))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("TON_WALLET_MNEMONIC holds the wallet secret itself in the environment, which is refused outside"
            + " the laptop demo: put the secret in a file only the service's user can read (chmod 600 <file>) and set"
            + " TON_WALLET_MNEMONIC_FILE to its path instead of TON_WALLET_MNEMONIC");
    assertThatThrownBy(() -> WalletSecrets.fromEnvironment(Map.of(SEED_ENV, SEED.seedHex()), REFUSED))
        .hasMessageStartingWith("TON_WALLET_SEED_HEX holds the wallet secret itself in the environment")
        .hasMessageContaining("set TON_WALLET_SEED_FILE to its path")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(SEED.seedHex()));
    assertThat(WalletSecrets.fromEnvironment(Map.of(SEED_ENV, SEED.seedHex()), ALLOWED).publicKeyHex())
        .isEqualTo(SEED.publicKey());
  }

  @Test
  void aSecretFileGroupOrOthersMayReadIsRefusedNamingTheFileAndTheFix() throws IOException {
    for (String mode : new String[] {"rw-r-----", "rw-r--r--", "rw----r--", "rw--w----"}) {
      Path seed = secretFile("seed-" + mode, SEED.seedHex());
      Files.setPosixFilePermissions(seed, PosixFilePermissions.fromString(mode));

      assertThatThrownBy(() -> WalletSecrets.fromFile(seed))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("wallet secret file '" + seed + "' may be read or written by group or others (" + mode
              + "): chmod 600 " + seed + " (and keep it owned by the service's user)");
      assertThatThrownBy(() -> WalletSecrets.fromEnvironment(Map.of(SEED_FILE_ENV, seed.toString()), REFUSED))
          .hasMessageStartingWith("TON_WALLET_SEED_FILE: wallet secret file '" + seed + "' may be read or written")
          .hasMessageContaining("chmod 600 " + seed);
    }
    Path ownerReadOnly = secretFile("seed-400", SEED.seedHex());
    Files.setPosixFilePermissions(ownerReadOnly, PosixFilePermissions.fromString("r--------"));
    assertThat(WalletSecrets.fromFile(ownerReadOnly).publicKeyHex()).isEqualTo(SEED.publicKey());
  }

  /** A secret file as an operator should make it: mode 600. */
  private Path secretFile(String name, String content) throws IOException {
    Path file = dir.resolve(name);
    SecretFiles.writeOwnerOnly(file, content);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    return file;
  }
}
