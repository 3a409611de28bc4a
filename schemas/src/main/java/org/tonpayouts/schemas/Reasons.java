package org.tonpayouts.schemas;

import java.util.List;

/**
 * How problems become the one-line {@code reason} of a rejection: each problem made safe to show
 * (control, bidirectional-override and unpaired-surrogate characters escaped as {@code \\uXXXX},
 * so a hostile payload cannot rewrite a log line, a Kafka UI cell or a JSON document) and cut to
 * {@link #MAX_PROBLEM_CHARS}; at most {@link #MAX_LISTED} problems listed, then how many more
 * there were. A reason is therefore at most a few tens of kilobytes, whatever the input.
 */
public final class Reasons {
  /** Separator between problems in a reason. */
  public static final String SEPARATOR = "; ";
  /** Longest single problem kept, in UTF-16 units (an ellipsis marks a cut). */
  public static final int MAX_PROBLEM_CHARS = 500;
  /** Problems listed in one reason; the rest are counted. */
  public static final int MAX_LISTED = 20;

  private Reasons() {
  }

  /**
   * The first {@link #MAX_LISTED} problems, each {@link #clean cleaned}, joined with
   * {@link #SEPARATOR}, followed by {@code "and N more problems"} when there were more.
   */
  public static String join(List<String> problems) {
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("a reason needs at least one problem");
    }
    StringBuilder reason = new StringBuilder();
    int listed = Math.min(problems.size(), MAX_LISTED);
    for (int i = 0; i < listed; i++) {
      if (i > 0) {
        reason.append(SEPARATOR);
      }
      reason.append(clean(problems.get(i)));
    }
    if (problems.size() > listed) {
      int more = problems.size() - listed;
      reason.append(SEPARATOR).append("and ").append(more).append(more == 1 ? " more problem" : " more problems");
    }
    return reason.toString();
  }

  /** {@code problem} with unsafe characters escaped and cut to {@link #MAX_PROBLEM_CHARS}. */
  public static String clean(String problem) {
    String text = problem == null ? "null" : problem;
    StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_PROBLEM_CHARS) + 8);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      String piece;
      if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
        piece = text.substring(i, i + 2);
        i++;
      } else if (needsEscape(c)) {
        piece = String.format("\\u%04x", (int) c);
      } else {
        piece = String.valueOf(c);
      }
      if (out.length() + piece.length() > MAX_PROBLEM_CHARS) {
        return out.append("...").toString();
      }
      out.append(piece);
    }
    return out.toString();
  }

  /**
   * C0 and C1 controls and DEL, the bidirectional embeddings, overrides and isolates
   * (U+202A..U+202E, U+2066..U+2069), line and paragraph separators, and lone surrogates.
   */
  static boolean needsEscape(char c) {
    return Character.isISOControl(c)
        || c >= '\u202A' && c <= '\u202E'
        || c >= '\u2066' && c <= '\u2069'
        || c == '\u2028' || c == '\u2029'
        || Character.isSurrogate(c);
  }
}
