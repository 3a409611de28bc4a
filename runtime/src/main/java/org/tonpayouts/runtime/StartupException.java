package org.tonpayouts.runtime;

/**
 * A payout process cannot start, for a reason the operator must fix (a missing topic, Kafka or the
 * TON API unreachable, a clock too far from the node's, a database that is not there). The message
 * says what is wrong, names the URL or server and the cause, and how to fix it; the process prints
 * it and exits with {@link #EXIT_CODE}.
 */
public class StartupException extends RuntimeException {
  /** Exit code of a process that refused to start. */
  public static final int EXIT_CODE = 2;

  public StartupException(String message, Throwable cause) {
    super(message, cause);
  }
}
