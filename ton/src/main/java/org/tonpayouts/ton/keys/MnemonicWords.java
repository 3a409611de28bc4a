package org.tonpayouts.ton.keys;

import java.lang.reflect.Field;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.ton.ton4j.mnemonic.Mnemonic;

/**
 * Validates TON mnemonic words before key derivation, with errors that locate the problem by
 * position and never repeat a word (a typo'd word is still most of a secret).
 */
final class MnemonicWords {
  /** ton4j's word list (the BIP-39 English list TON uses), or null if its field is not reachable. */
  private static final Set<String> WORD_LIST = loadWordList();

  private MnemonicWords() {}

  static List<String> parse(String words) {
    if (words == null || words.isBlank()) {
      throw new IllegalArgumentException("mnemonic is empty: expected " + WalletKey.MNEMONIC_WORDS + " words");
    }
    List<String> list = Arrays.asList(words.strip().split("\\s+"));
    if (list.size() != WalletKey.MNEMONIC_WORDS) {
      throw new IllegalArgumentException(
          "mnemonic must have " + WalletKey.MNEMONIC_WORDS + " words, got " + list.size());
    }
    for (int i = 0; i < list.size(); i++) {
      String w = list.get(i);
      if (!w.chars().allMatch(c -> c >= 'a' && c <= 'z')) {
        throw new IllegalArgumentException(
            "mnemonic word #" + (i + 1) + " is malformed (expected lowercase letters a-z)");
      }
      if (WORD_LIST != null && !WORD_LIST.contains(w)) {
        throw new IllegalArgumentException("mnemonic word #" + (i + 1) + " is not in the TON word list");
      }
    }
    boolean valid;
    try {
      valid = Mnemonic.isValid(list, "");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot check the mnemonic: " + e.getClass().getSimpleName(), e);
    }
    if (!valid) {
      throw new IllegalArgumentException(WORD_LIST == null
          ? "mnemonic is not a valid TON mnemonic (unknown word, or words from another wallet standard)"
          : "mnemonic is not a valid TON mnemonic (checksum failed: words from another wallet standard,"
              + " a password-protected mnemonic, or a mistyped word)");
    }
    return list;
  }

  private static Set<String> loadWordList() {
    try {
      Field f = Mnemonic.class.getDeclaredField("DEFAULT_WORDLIST");
      f.setAccessible(true);
      return Set.of((String[]) f.get(null));
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
