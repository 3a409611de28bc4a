package org.tonpayouts.streams.validation;

import java.util.Optional;
import org.tonpayouts.ton.wallet.TextComment;

/**
 * What a transfer comment may hold. A comment is what the recipient's wallet shows and what an
 * exchange attributes a deposit by, so it must arrive exactly as written and show as what it is.
 *
 * <p>Always: the comment must survive the chain's text-comment encoding ({@link TextComment}:
 * strict UTF-8 in snake cells) byte for byte. By default ({@code comment.control.characters=reject})
 * also: no C0 or C1 control character other than TAB, no DEL, and no bidirectional embedding,
 * override or isolate character (U+202A..U+202E, U+2066..U+2069), which can make a memo read
 * differently from what it is (e.g. U+202E reverses the text after it) or break a one-line display.
 * The reason names the first such character (U+XXXX and its Unicode name), its position (0-based,
 * in characters) and how many more there are.
 */
public final class CommentPolicy {
  private final boolean controlsAllowed;

  private CommentPolicy(boolean controlsAllowed) {
    this.controlsAllowed = controlsAllowed;
  }

  /** The default: control and bidirectional-override characters refused. */
  public static CommentPolicy strict() {
    return new CommentPolicy(false);
  }

  /** Control and bidirectional-override characters sent as given ({@code comment.control.characters=allow}). */
  public static CommentPolicy allowingControlCharacters() {
    return new CommentPolicy(true);
  }

  /** Why {@code comment} may not be sent, or empty when it may (null and empty comments may). */
  public Optional<String> problem(String comment) {
    if (comment == null || comment.isEmpty()) {
      return Optional.empty();
    }
    if (!controlsAllowed) {
      Optional<String> forbidden = forbiddenCharacter(comment);
      if (forbidden.isPresent()) {
        return forbidden;
      }
    }
    if (!comment.equals(TextComment.decode(TextComment.encode(comment)))) {
      return Optional.of("cannot be carried on chain unchanged: it is not valid Unicode text");
    }
    return Optional.empty();
  }

  private static Optional<String> forbiddenCharacter(String comment) {
    int first = -1;
    int firstPosition = -1;
    int count = 0;
    int position = 0;
    for (int i = 0; i < comment.length(); position++) {
      int cp = comment.codePointAt(i);
      if (isForbidden(cp)) {
        if (count++ == 0) {
          first = cp;
          firstPosition = position;
        }
      }
      i += Character.charCount(cp);
    }
    if (count == 0) {
      return Optional.empty();
    }
    String kind = first >= 0x2000 ? "bidirectional control character " : "control character ";
    String name = Character.getName(first);
    return Optional.of(kind + String.format("U+%04X", first) + (name == null ? "" : " (" + name + ")") + " at position "
        + firstPosition + (count > 1 ? " (and " + (count - 1) + " more)" : "")
        + " is not allowed in a comment (comment.control.characters=reject; TAB is allowed)");
  }

  /** C0 controls but TAB, DEL, C1 controls, bidirectional embeddings, overrides and isolates. */
  static boolean isForbidden(int cp) {
    return cp < 0x20 && cp != '\t'
        || cp >= 0x7F && cp <= 0x9F
        || cp >= 0x202A && cp <= 0x202E
        || cp >= 0x2066 && cp <= 0x2069;
  }
}
