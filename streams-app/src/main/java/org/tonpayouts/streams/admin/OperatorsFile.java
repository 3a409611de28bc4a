package org.tonpayouts.streams.admin;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.tonpayouts.runtime.admin.OperatorTokens;

/**
 * One version of {@code admin.operators.file}: who may call the admin API, each operator by name with
 * the SHA-256 of their token ({@link OperatorTokens}). Parsing refuses the whole file on any bad line,
 * naming the line: a half-read file could drop an operator nobody notices until an incident.
 */
final class OperatorsFile {
  private static final Pattern HEX_64 = Pattern.compile("[0-9a-fA-F]{64}");
  /** The digest of the empty token: a line with it would admit "Authorization: Bearer " with nothing after it. */
  private static final String EMPTY_DIGEST = HexFormat.of().formatHex(OperatorTokens.sha256(""));

  /** One operator: the name the audit log records and the digest of their token. */
  record Operator(String name, byte[] digest, int line) {}

  private final List<Operator> operators;

  private OperatorsFile(List<Operator> operators) {
    this.operators = List.copyOf(operators);
  }

  /**
   * The operators of {@code text}.
   *
   * @param source names the file in messages
   * @throws IllegalArgumentException naming the line: malformed, a bad name, a digest that is not
   *     {@code sha256:} and 64 hex digits, a name or a token given twice, or no operator at all
   */
  static OperatorsFile parse(String source, String text) {
    List<Operator> operators = new ArrayList<>();
    Map<String, Integer> names = new HashMap<>();
    Map<String, String> digests = new HashMap<>();
    String[] lines = text.split("\\R", -1);
    for (int i = 0; i < lines.length; i++) {
      int number = i + 1;
      String line = lines[i];
      int comment = line.indexOf('#');
      String content = (comment >= 0 ? line.substring(0, comment) : line).strip();
      if (content.isEmpty()) {
        continue;
      }
      String where = source + " line " + number + ": ";
      String[] fields = content.split("\\s+");
      if (fields.length != 2) {
        throw new IllegalArgumentException(where + "expected '<name> sha256:<64 hex digits>', got " + fields.length
            + " field(s)");
      }
      String name = fields[0];
      if (!OperatorTokens.NAME.matcher(name).matches()) {
        throw new IllegalArgumentException(where + OperatorTokens.nameRule(name));
      }
      String digest = digest(where, fields[1]);
      Integer earlier = names.putIfAbsent(name, number);
      if (earlier != null) {
        throw new IllegalArgumentException(where + "operator '" + name + "' is named again (first on line " + earlier
            + "): one line per operator");
      }
      String holder = digests.putIfAbsent(digest, name);
      if (holder != null) {
        throw new IllegalArgumentException(where + "operator '" + name + "' has the same token as '" + holder
            + "': every operator needs a token of their own, or the audit log cannot tell them apart");
      }
      operators.add(new Operator(name, HexFormat.of().parseHex(digest), number));
    }
    if (operators.isEmpty()) {
      throw new IllegalArgumentException(source + " names no operator: nobody could call the admin API");
    }
    return new OperatorsFile(operators);
  }

  private static String digest(String where, String field) {
    if (!field.regionMatches(true, 0, OperatorTokens.DIGEST_PREFIX, 0, OperatorTokens.DIGEST_PREFIX.length())) {
      int colon = field.indexOf(':');
      throw new IllegalArgumentException(where + "the token digest must be " + OperatorTokens.DIGEST_PREFIX
          + "<64 hex digits>" + (colon > 0 ? ", not " + field.substring(0, colon + 1) + "..." : "")
          + " (make the line with `payouts-cli admin operator-token --name <name>`)");
    }
    String hex = field.substring(OperatorTokens.DIGEST_PREFIX.length());
    if (!HEX_64.matcher(hex).matches()) {
      throw new IllegalArgumentException(where + "the SHA-256 digest must be 64 hex digits, got " + hex.length()
          + " character(s)");
    }
    String lower = hex.toLowerCase(java.util.Locale.ROOT);
    if (lower.equals(EMPTY_DIGEST)) {
      throw new IllegalArgumentException(where + "that is the digest of an empty token: make a token with"
          + " `payouts-cli admin operator-token`");
    }
    return lower;
  }

  /**
   * The operator whose token has {@code digest}. Every entry is compared, each in constant time, so
   * the time taken shows neither whether nor where a token matched.
   */
  Optional<String> operatorWith(byte[] digest) {
    String found = null;
    for (Operator operator : operators) {
      if (MessageDigest.isEqual(operator.digest(), digest)) {
        found = operator.name();
      }
    }
    return Optional.ofNullable(found);
  }

  /** The operators' names, in file order. */
  List<String> names() {
    return operators.stream().map(Operator::name).toList();
  }

  @Override
  public String toString() {
    return "OperatorsFile" + names();
  }
}
