package org.tonpayouts.ton.api;

/**
 * A failed TON HTTP API call. Subtypes say what kind of failure it was so callers can decide in
 * one place what is transient, what is a verdict on the message and what is a bug.
 *
 * <p>Messages name the API method and the HTTP status; they never contain the API key (server
 * texts are scrubbed of it) nor a full BOC.
 */
public abstract class TonApiException extends RuntimeException {
  private final String method;
  private final int httpStatus;

  protected TonApiException(String method, int httpStatus, String detail, Throwable cause) {
    super(method + (httpStatus > 0 ? ": HTTP " + httpStatus : "") + ": " + detail, cause);
    this.method = method;
    this.httpStatus = httpStatus;
  }

  /** The API method that failed, e.g. {@code getTransactions}. */
  public String method() {
    return method;
  }

  /** The HTTP status of the answer, 0 when no answer arrived. */
  public int httpStatus() {
    return httpStatus;
  }

  /**
   * True when a sent message may have reached the network although the call failed (a timeout or
   * a server error after the request went out). The caller must keep watching the message hash;
   * re-sending the same BOC is safe, signing a new message is not.
   */
  public boolean maybeDelivered() {
    return false;
  }

  /** True when the same call may succeed if repeated later (rate limit, server or network trouble). */
  public boolean isTransient() {
    return false;
  }
}
