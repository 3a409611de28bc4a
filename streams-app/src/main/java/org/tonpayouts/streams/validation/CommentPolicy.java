package org.tonpayouts.streams.validation;

import java.util.Optional;
import org.tonpayouts.ton.wallet.TextComment;

/**
 * What a transfer comment may hold. A comment is what the recipient's wallet shows and what an
 * exchange attributes a deposit by, so it must arrive exactly as written and show as what it is.
 *
 * <p>Always: the comment must survive the chain's text-comment encoding ({@link TextComment}:
 * strict UTF-8 in snake cells) byte for byte. By default ({@code comment.control.characters=reject})
 * also: no control character but TAB, no bidirectional control, no line or paragraph separator and
 * no invisible character ({@link CommentCharacters} has the table and what emoji may keep), which
 * can make a memo read differently from what it is (e.g. U+202E reverses the text after it, U+200B
 * makes two memos that look the same differ) or break a one-line display. The reason names the
 * first such character (U+XXXX and its Unicode name), its position (0-based, in characters) and how
 * many more there are.
 */
public final class CommentPolicy {
  private final boolean controlsAllowed;

  private CommentPolicy(boolean controlsAllowed) {
    this.controlsAllowed = controlsAllowed;
  }

  /** The default: control, bidirectional and invisible characters refused ({@link CommentCharacters}). */
  public static CommentPolicy strict() {
    return new CommentPolicy(false);
  }

  /** Control, bidirectional and invisible characters sent as given ({@code comment.control.characters=allow}). */
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
    return CommentCharacters.firstRefused(comment).map(refused -> {
      String name = Character.getName(refused.codePoint());
      return refused.kind() + " " + String.format("U+%04X", refused.codePoint()) + (name == null ? "" : " (" + name + ")")
          + " at position " + refused.position() + (refused.count() > 1 ? " (and " + (refused.count() - 1) + " more)" : "")
          + " is not allowed in a comment (comment.control.characters=reject; TAB is allowed"
          + (refused.codePoint() == CommentCharacters.ZERO_WIDTH_JOINER ? ", and U+200D between two emoji" : "") + ")";
    });
  }
}
