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

  /**
   * The stack item at {@code index} as a cell: toncenter writes a cell or slice as {@code ["cell",
   * {"bytes": "<base64 BOC>", "object": ...}]} (some servers {@code ["slice", ...]} or the BOC alone).
   */
  public org.tonpayouts.ton.cell.TonCell cell(int index) {
    if (index >= stack.size()) {
      throw new UnexpectedResponseException(
          "runGetMethod", "stack has " + stack.size() + " entries, wanted index " + index);
    }
    StackEntry entry = stack.get(index);
    if (!"cell".equals(entry.type()) && !"slice".equals(entry.type())) {
      throw new UnexpectedResponseException(
          "runGetMethod", "stack entry " + index + " is " + entry.type() + ", not a cell");
    }
    String boc = entry.value() == null ? "" : entry.value().trim();
    try {
      if (boc.startsWith("{")) {
        boc = CELL_JSON.readTree(boc).path("bytes").asText("");
      }
      return org.tonpayouts.ton.cell.Boc.parse(java.util.Base64.getDecoder().decode(boc));
    } catch (java.io.IOException | IllegalArgumentException e) {
      throw new UnexpectedResponseException("runGetMethod", "stack entry " + index + " is not a cell BOC: "
          + e.getMessage());
    }
  }

  /** The stack item at {@code index} as an address: a slice holding a {@code MsgAddress}. */
  public org.tonpayouts.ton.address.TonAddress address(int index) {
    try {
      return cell(index).parse().loadAddress();
    } catch (RuntimeException e) {
      if (e instanceof UnexpectedResponseException u) {
        throw u;
      }
      throw new UnexpectedResponseException("runGetMethod", "stack entry " + index + " holds no address: "
          + e.getMessage());
    }
  }

  /** Reads a stack cell's JSON ({@code {"bytes": ...}}), already bounded by the client's answer limits. */
  private static final com.fasterxml.jackson.databind.ObjectMapper CELL_JSON =
      new com.fasterxml.jackson.databind.ObjectMapper();
}
