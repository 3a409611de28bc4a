package org.tonpayouts.schemas;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Finds strings that are not valid Unicode in a parsed JSON document: a {@code "\ud800"} escape
 * without its pair is legal JSON syntax and Jackson accepts it, but it is no character; encoded as
 * UTF-8 it becomes {@code ?} (a changed memo on chain) or fails. Strict UTF-8 bytes cannot carry one,
 * so only escapes can, in values and in property names alike.
 */
final class UnpairedSurrogates {
  /** Problems reported per document; a document full of them needs no complete list. */
  private static final int MAX_REPORTED = 50;

  private UnpairedSurrogates() {
  }

  /** One problem per string holding an unpaired surrogate, with its JSON path; empty when there is none. */
  static List<String> find(JsonNode root) {
    List<String> problems = new ArrayList<>();
    walk(root, "$", problems);
    return problems;
  }

  private static void walk(JsonNode node, String path, List<String> problems) {
    if (problems.size() >= MAX_REPORTED) {
      return;
    }
    if (node.isTextual()) {
      check(node.textValue(), path, "", problems);
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        walk(node.get(i), path + "[" + i + "]", problems);
      }
    } else if (node.isObject()) {
      Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
      while (fields.hasNext()) {
        Map.Entry<String, JsonNode> field = fields.next();
        check(field.getKey(), path, "property name ", problems);
        walk(field.getValue(), path + "." + field.getKey(), problems);
      }
    }
  }

  private static void check(String text, String path, String what, List<String> problems) {
    int at = firstUnpaired(text);
    if (at >= 0) {
      problems.add(path + ": " + what + "has an unpaired surrogate escape \\u" + String.format("%04x", (int) text.charAt(at))
          + " at character " + at + "; text must be valid Unicode (escape a character outside the BMP as a pair,"
          + " e.g. \\ud83d\\ude00, or write it as UTF-8)");
    }
  }

  /** Index of the first surrogate that is not part of a high-low pair, or -1. */
  static int firstUnpaired(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return i;
      }
    }
    return -1;
  }
}
