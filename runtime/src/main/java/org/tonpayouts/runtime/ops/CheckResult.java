package org.tonpayouts.runtime.ops;

import java.sql.SQLException;
import java.util.Objects;

/**
 * The answer of one health check.
 *
 * @param up whether this part is healthy
 * @param detail what {@code /health} shows anyone who can reach the port: a state, a count or the
 *     kind of failure, never a URL, host, address or credential
 * @param cause for the operator's log only (may name the URL and the failure's own message); null when
 *     the detail says it all
 */
public record CheckResult(boolean up, String detail, String cause) {
  public CheckResult {
    Objects.requireNonNull(detail, "detail");
  }

  public static CheckResult up(String detail) {
    return new CheckResult(true, detail, null);
  }

  public static CheckResult down(String detail) {
    return new CheckResult(false, detail, null);
  }

  /** Down, showing {@code detail} and logging {@code cause}. */
  public static CheckResult down(String detail, String cause) {
    return new CheckResult(false, detail, cause);
  }

  /** Down because of {@code e}: its kind is shown, its message (which may name a host) only logged. */
  public static CheckResult down(Throwable e) {
    return down(kind(e), describe(e));
  }

  /** A failure as "ExceptionClass: message" (the class says more than a null message ever does). For logs. */
  public static String describe(Throwable e) {
    Throwable t = org.tonpayouts.ton.api.Failures.cause(e);
    return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
  }

  /**
   * A failure's kind, safe to show: the exception's class, and a database error's SQLState (which
   * says "connection refused" or "bad password" without naming the server).
   */
  public static String kind(Throwable e) {
    Throwable t = org.tonpayouts.ton.api.Failures.cause(e);
    for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof SQLException sql && sql.getSQLState() != null) {
        return sql.getClass().getSimpleName() + " (SQLState " + sql.getSQLState() + ")";
      }
    }
    return t.getClass().getSimpleName();
  }
}
