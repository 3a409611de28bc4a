package org.tonpayouts.ton.api;

/**
 * The API answered with an error that is not a rate limit, a rejection or a 404: 5xx from the
 * liteserver or the proxy (504 "Liteserver timeout"), 422 validation, 416 incorrect address,
 * 401/403 key problems and so on.
 */
public final class ApiErrorException extends TonApiException {
  private final Integer code;
  private final String text;
  private final boolean maybeDelivered;

  public ApiErrorException(String method, int httpStatus, Integer code, String text, boolean maybeDelivered) {
    super(method, httpStatus, (code != null && code != httpStatus ? "code " + code + ": " : "") + text, null);
    this.code = code;
    this.text = text;
    this.maybeDelivered = maybeDelivered;
  }

  /** The {@code code} field of the error body, null when absent. */
  public Integer code() {
    return code;
  }

  /** The server's error text (scrubbed of the API key). */
  public String text() {
    return text;
  }

  /** True for a server-side (5xx) failure of a send: the server may have forwarded the message. */
  @Override
  public boolean maybeDelivered() {
    return maybeDelivered;
  }

  /** Server errors (5xx) are transient; client errors (4xx) are not. */
  @Override
  public boolean isTransient() {
    return httpStatus() >= 500;
  }
}
