package org.tonpayouts.ton.api;

import java.math.BigInteger;
import java.util.List;

/**
 * The outcome of {@code runGetMethod}: exit code, gas and the result stack. A non-zero exit code
 * is a normal answer here (an uninitialized account gives one), not an exception.
 */
public record GetMethodResult(int exitCode, long gasUsed, List<StackEntry> stack) {

  public GetMethodResult {
    stack = List.copyOf(stack);
  }

  /** One stack item: its type ({@code num}, {@code cell}, ...) and its value as the server wrote it. */
  public record StackEntry(String type, String value) {}

  /** The stack item at {@code index} as an integer ({@code num} entries, hex {@code 0x..} or decimal). */
  public BigInteger number(int index) {
    if (index >= stack.size()) {
      throw new UnexpectedResponseException(
          "runGetMethod", "stack has " + stack.size() + " entries, wanted index " + index);
    }
    StackEntry entry = stack.get(index);
    if (!"num".equals(entry.type()) && !"int".equals(entry.type())) {
      throw new UnexpectedResponseException(
          "runGetMethod", "stack entry " + index + " is " + entry.type() + ", not a number");
    }
    String v = entry.value().trim();
    boolean negative = v.startsWith("-");
    String digits = negative ? v.substring(1) : v;
    BigInteger n = digits.startsWith("0x") || digits.startsWith("0X")
        ? new BigInteger(digits.substring(2), 16)
        : new BigInteger(digits);
    return negative ? n.negate() : n;
  }
}
