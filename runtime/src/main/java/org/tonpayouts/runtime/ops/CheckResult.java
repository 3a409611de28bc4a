package org.tonpayouts.runtime.ops;

import java.util.Objects;

/**
 * The answer of one health check.
 *
 * @param up whether this part is healthy
 * @param detail what was seen, for the operator (names the URL and the cause when down; never a secret)
 */
public record CheckResult(boolean up, String detail) {
  public CheckResult {
    Objects.requireNonNull(detail, "detail");
  }

  public static CheckResult up(String detail) {
    return new CheckResult(true, detail);
  }

  public static CheckResult down(String detail) {
    return new CheckResult(false, detail);
  }

  /** A failure as "ExceptionClass: message" (the class says more than a null message ever does). */
  public static String describe(Throwable e) {
    Throwable t = org.tonpayouts.ton.api.Failures.cause(e);
    return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
  }
}
