package org.tonpayouts.ton.keys;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.wallet.Subwallets;
import org.tonpayouts.ton.wallet.TransferOrder;
import org.tonpayouts.ton.wallet.TransferSigner;
import org.tonpayouts.ton.wallet.Vectors;

/**
 * The mnemonic and seed never show up in toString(), exception messages (whole cause chain) or
 * log lines, whatever goes wrong while loading or using them. Logging runs at TRACE meanwhile.
 */
class SecretsNeverLeakTest {
  static final Vectors.Key WORDS = Vectors.key("mnemonic");
  static final Vectors.Key SEED = Vectors.key("seed");

  @TempDir
  Path dir;

  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
  private final Logger ours = (Logger) LoggerFactory.getLogger("org.tonpayouts");
  private Level rootLevel;
  private Level ourLevel;
  private final List<String> exposed = new ArrayList<>();

  @BeforeEach
  void captureAllLogs() {
    rootLevel = root.getLevel();
    ourLevel = ours.getLevel();
    root.setLevel(Level.TRACE);
    ours.setLevel(Level.TRACE);
    appender.start();
    root.addAppender(appender);
  }

  @AfterEach
  void restoreLogging() {
    root.detachAppender(appender);
    root.setLevel(rootLevel);
    ours.setLevel(ourLevel);
  }

  @Test
  void noSecretInToStringExceptionsOrLogs() throws Exception {
    String[] words = WORDS.mnemonic().split(" ");
    String[] typo = words.clone();
    typo[3] = typo[3] + "s";
    String[] swapped = words.clone();
    swapped[0] = words[1];
    swapped[1] = words[0];
    String mnemonicAsPath = WORDS.mnemonic();
    Path wordsFile = dir.resolve("typo.txt");
    SecretFiles.writeOwnerOnly(wordsFile, String.join(" ", typo));
    Path seedFile = dir.resolve("seed.txt");
    SecretFiles.writeOwnerOnly(seedFile, SEED.seedHex() + "zz");
    Path looseSeedFile = Files.writeString(dir.resolve("loose-seed.txt"), SEED.seedHex());
    Files.setPosixFilePermissions(looseSeedFile, PosixFilePermissions.fromString("rw-r--r--"));

    List<Supplier<Object>> attempts = List.of(
        () -> WalletKey.fromMnemonic(String.join(" ", typo)),
        () -> WalletKey.fromMnemonic(String.join(" ", swapped)),
        () -> WalletKey.fromMnemonic(String.join(" ", Arrays.copyOf(words, 23))),
        () -> WalletKey.fromMnemonic(WORDS.mnemonic().toUpperCase()),
        () -> WalletKey.fromSeedHex(SEED.seedHex().replace('a', 'x')),
        () -> WalletKey.fromSeedHex(SEED.seedHex() + "00"),
        () -> WalletSecrets.fromEnvironment(Map.of(WalletSecrets.MNEMONIC_ENV, String.join(" ", typo)), WalletSecrets.Inline.ALLOWED),
        () -> WalletSecrets.fromEnvironment(Map.of(WalletSecrets.MNEMONIC_FILE_ENV, mnemonicAsPath), WalletSecrets.Inline.ALLOWED),
        () -> WalletSecrets.fromEnvironment(Map.of(WalletSecrets.SEED_FILE_ENV, SEED.seedHex()), WalletSecrets.Inline.ALLOWED),
        () -> WalletSecrets.fromEnvironment(Map.of(WalletSecrets.MNEMONIC_FILE_ENV, wordsFile.toString()), WalletSecrets.Inline.ALLOWED),
        () -> WalletSecrets.fromFile(seedFile),
        () -> WalletSecrets.fromEnvironment(Map.of(WalletSecrets.SEED_ENV, SEED.seedHex(), WalletSecrets.MNEMONIC_ENV, WORDS.mnemonic()), WalletSecrets.Inline.ALLOWED),
        () -> WalletSecrets.fromEnvironment(Map.of(WalletSecrets.SEED_ENV, SEED.seedHex()), WalletSecrets.Inline.REFUSED),
        () -> WalletSecrets.fromEnvironment(Map.of(WalletSecrets.MNEMONIC_ENV, WORDS.mnemonic()),
            WalletSecrets.Inline.REFUSED),
        () -> WalletSecrets.fromFile(looseSeedFile),
        () -> SecretFiles.read("a secret file", looseSeedFile),
        // Success paths: toString of everything they return, and their log lines.
        () -> WalletSecrets.fromEnvironment(Map.of(WalletSecrets.MNEMONIC_ENV, WORDS.mnemonic()), WalletSecrets.Inline.ALLOWED),
        () -> WalletKey.fromSeedHex(SEED.seedHex()),
        () -> {
          WalletKey key = WalletKey.fromMnemonic(WORDS.mnemonic());
          Subwallets subwallets = new Subwallets(key, 0);
          TransferSigner signer = new TransferSigner(subwallets);
          return List.of(subwallets, signer.sign(0, 0, Instant.parse("2026-01-01T00:00:00Z"),
              List.of(new TransferOrder(TonAddress.parse("0:" + "ab".repeat(32)), 1, "hi", false))));
        });

    int failures = 0;
    for (Supplier<Object> attempt : attempts) {
      try {
        exposed.add(String.valueOf(attempt.get()));
      } catch (RuntimeException e) {
        failures++;
        for (Throwable t = e; t != null; t = t.getCause()) {
          exposed.add(t.toString());
        }
      }
    }
    for (ILoggingEvent event : appender.list) {
      exposed.add(event.getFormattedMessage());
      for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
        exposed.add(t.getMessage());
      }
    }

    assertThat(failures).isEqualTo(16);
    assertThat(appender.list).as("the signer logs at debug: the scan covered log lines").isNotEmpty();
    assertThat(String.join("\n", exposed)).contains(WORDS.publicKey());
    for (String text : exposed) {
      assertNoSecret(text, words);
    }
  }

  private static void assertNoSecret(String text, String[] words) {
    String lower = String.valueOf(text).toLowerCase();
    assertThat(lower).doesNotContain(SEED.seedHex()).doesNotContain(WORDS.seedHex());
    assertThat(lower).doesNotContain(SEED.seedHex().substring(0, 16)).doesNotContain(WORDS.seedHex().substring(0, 16));
    for (String word : words) {
      assertThat(Pattern.compile("\\b" + word + "s?\\b").matcher(lower).find())
          .as("mnemonic word '%s' in: %s", word, text)
          .isFalse();
    }
  }
}
