package org.tonpayouts.streams.validation;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The characters {@code comment.control.characters=reject} keeps out of a transfer comment. A
 * comment is what the recipient's wallet shows and what an exchange attributes a deposit by, so it
 * must show as what it is: no character that moves a line, reorders the text around it or takes no
 * room at all (two memos that look the same must be the same).
 *
 * <p>Refused: every control character but TAB (C0, DEL, C1); the bidirectional marks, embeddings,
 * overrides and isolates; the line and paragraph separators; and every invisible character: all of
 * Unicode's format characters (category Cf: zero-width space and joiners, word joiner and the
 * invisible operators, the byte-order mark, the soft hyphen, the Mongolian vowel separator, the
 * interlinear annotation and deprecated format characters, tag characters, ...) and, listed below,
 * the invisible characters outside Cf (the combining grapheme joiner and the Hangul and Khmer
 * fillers). Allowed despite that, because emoji need them and they show as one picture: U+200D ZERO
 * WIDTH JOINER between two emoji (👨‍👩‍👧), and tag characters right after U+1F3F4 (the flags of
 * England, Scotland, Wales). U+200C ZERO WIDTH NON-JOINER and U+200D elsewhere, which Persian and
 * Indic text use to choose letter forms, are refused too: a payout memo is a reference, rarely
 * prose, and a joiner makes two memos that look identical compare different; {@code allow} sends
 * them.
 */
final class CommentCharacters {
  /** What a refused character is, as the reason says it. */
  enum Kind {
    CONTROL("control character"),
    BIDI("bidirectional control character"),
    LINE_BREAK("line or paragraph separator"),
    INVISIBLE("invisible character");

    private final String text;

    Kind(String text) {
      this.text = text;
    }

    @Override
    public String toString() {
      return text;
    }
  }

  /** The first refused character of a comment: code point, 0-based position in characters, kind; and how many in all. */
  record Refused(int codePoint, int position, Kind kind, int count) {}

  static final int ZERO_WIDTH_JOINER = 0x200D;
  private static final int VARIATION_SELECTOR_16 = 0xFE0F;
  private static final int WAVING_BLACK_FLAG = 0x1F3F4;
  private static final int FIRST_TAG = 0xE0020;
  private static final int CANCEL_TAG = 0xE007F;

  /**
   * The characters named one by one: those outside Cc and Cf, and the Cf ones the issue lists, so
   * the table says what each is. Any other Cc or Cf is refused by its category.
   */
  private static final Map<Integer, Kind> LISTED = new HashMap<>();

  static {
    // bidirectional: marks (they reorder neutral characters around them), embeddings, overrides, isolates
    list(Kind.BIDI, 0x061C, 0x061C); // ARABIC LETTER MARK
    list(Kind.BIDI, 0x200E, 0x200F); // LEFT-TO-RIGHT MARK, RIGHT-TO-LEFT MARK
    list(Kind.BIDI, 0x202A, 0x202E); // LRE, RLE, PDF, LRO, RLO
    list(Kind.BIDI, 0x2066, 0x2069); // LRI, RLI, FSI, PDI
    // they break a line as CR and LF do, without being controls
    list(Kind.LINE_BREAK, 0x2028, 0x2029); // LINE SEPARATOR, PARAGRAPH SEPARATOR
    // invisible, format characters (Cf)
    list(Kind.INVISIBLE, 0x00AD, 0x00AD); // SOFT HYPHEN
    list(Kind.INVISIBLE, 0x180E, 0x180E); // MONGOLIAN VOWEL SEPARATOR
    list(Kind.INVISIBLE, 0x200B, 0x200D); // ZERO WIDTH SPACE, ZERO WIDTH NON-JOINER, ZERO WIDTH JOINER
    list(Kind.INVISIBLE, 0x2060, 0x2064); // WORD JOINER, FUNCTION APPLICATION, INVISIBLE TIMES, SEPARATOR, PLUS
    list(Kind.INVISIBLE, 0x206A, 0x206F); // deprecated: symmetric swapping, Arabic form shaping, digit shapes
    list(Kind.INVISIBLE, 0xFEFF, 0xFEFF); // ZERO WIDTH NO-BREAK SPACE (byte-order mark)
    list(Kind.INVISIBLE, 0xFFF9, 0xFFFB); // INTERLINEAR ANNOTATION ANCHOR, SEPARATOR, TERMINATOR
    // invisible, but not Cf
    list(Kind.INVISIBLE, 0x034F, 0x034F); // COMBINING GRAPHEME JOINER (Mn)
    list(Kind.INVISIBLE, 0x115F, 0x1160); // HANGUL CHOSEONG FILLER, HANGUL JUNGSEONG FILLER (Lo)
    list(Kind.INVISIBLE, 0x17B4, 0x17B5); // KHMER VOWEL INHERENT AQ, KHMER VOWEL INHERENT AA (Mn)
    list(Kind.INVISIBLE, 0x3164, 0x3164); // HANGUL FILLER (Lo)
    list(Kind.INVISIBLE, 0xFFA0, 0xFFA0); // HALFWIDTH HANGUL FILLER (Lo)
  }

  private CommentCharacters() {}

  private static void list(Kind kind, int first, int last) {
    for (int cp = first; cp <= last; cp++) {
      LISTED.put(cp, kind);
    }
  }

  /** The first refused character of {@code comment} and how many there are; empty when there is none. */
  static Optional<Refused> firstRefused(String comment) {
    int[] cps = comment.codePoints().toArray();
    int first = -1;
    Kind firstKind = null;
    int count = 0;
    for (int i = 0; i < cps.length; i++) {
      Optional<Kind> kind = refusedAt(cps, i);
      if (kind.isPresent() && count++ == 0) {
        first = i;
        firstKind = kind.get();
      }
    }
    return count == 0 ? Optional.empty() : Optional.of(new Refused(cps[first], first, firstKind, count));
  }

  /** Why the code point at {@code i} of {@code cps} is refused there, or empty when it may stay. */
  static Optional<Kind> refusedAt(int[] cps, int i) {
    int cp = cps[i];
    Kind kind = LISTED.get(cp);
    if (kind == null) {
      int type = Character.getType(cp);
      if (type == Character.CONTROL && cp != '\t') {
        kind = Kind.CONTROL;
      } else if (type == Character.FORMAT) {
        kind = Kind.INVISIBLE;
      }
    }
    if (kind == null || cp == ZERO_WIDTH_JOINER && joinsEmoji(cps, i) || isTag(cp) && inFlagTagSequence(cps, i)) {
      return Optional.empty();
    }
    return Optional.of(kind);
  }

  /** A joiner with an emoji before it (an emoji presentation selector or skin tone between) and one after. */
  private static boolean joinsEmoji(int[] cps, int i) {
    int before = i - 1;
    while (before >= 0 && (cps[before] == VARIATION_SELECTOR_16 || isSkinTone(cps[before]))) {
      before--;
    }
    return before >= 0 && i + 1 < cps.length && isEmoji(cps[before]) && isEmoji(cps[i + 1]);
  }

  /**
   * A pictograph: the emoji blocks of the supplementary planes, or a symbol (So) of the BMP's
   * symbol blocks (U+2300..U+2BFF: ❤, ♀, ⚕, ✈). Java 17 has no emoji property; this covers what
   * joiner sequences are made of.
   */
  private static boolean isEmoji(int cp) {
    return cp >= 0x1F000 && cp <= 0x1FAFF
        || cp >= 0x2300 && cp <= 0x2BFF && Character.getType(cp) == Character.OTHER_SYMBOL;
  }

  private static boolean isSkinTone(int cp) {
    return cp >= 0x1F3FB && cp <= 0x1F3FF;
  }

  private static boolean isTag(int cp) {
    return cp >= FIRST_TAG && cp <= CANCEL_TAG;
  }

  /** A tag character of a flag: after U+1F3F4 WAVING BLACK FLAG and the tags before it, up to CANCEL TAG. */
  private static boolean inFlagTagSequence(int[] cps, int i) {
    int j = i - 1;
    while (j >= 0 && cps[j] >= FIRST_TAG && cps[j] < CANCEL_TAG) {
      j--;
    }
    return j >= 0 && cps[j] == WAVING_BLACK_FLAG;
  }
}
