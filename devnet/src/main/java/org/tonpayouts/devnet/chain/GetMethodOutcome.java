package org.tonpayouts.devnet.chain;

import java.util.List;

/**
 * The answer of a get-method: its exit code, gas and result stack (first result first).
 *
 * <p>Exit codes of the TVM devnet reports: 11 for a method the contract does not have, 2 for a
 * missing argument (stack underflow), 7 for an argument of the wrong type, 9 for a slice that
 * does not hold what the method reads.
 */
public record GetMethodOutcome(int exitCode, long gasUsed, List<StackValue> stack) {
  public static final int NO_METHOD = 11;
  public static final int STACK_UNDERFLOW = 2;
  public static final int TYPE_CHECK = 7;

  public GetMethodOutcome {
    stack = List.copyOf(stack);
  }

  public static GetMethodOutcome ok(long gasUsed, List<StackValue> stack) {
    return new GetMethodOutcome(0, gasUsed, stack);
  }

  public static GetMethodOutcome exit(int exitCode) {
    return new GetMethodOutcome(exitCode, 0, List.of());
  }

  public static GetMethodOutcome noMethod() {
    return exit(NO_METHOD);
  }
}
