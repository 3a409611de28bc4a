package org.tonpayouts.ton.api;

/**
 * The API answered "ok" but with something this client cannot use: malformed JSON, a missing
 * field, an address or hash that does not parse, or a state that has no answer to the question
 * (a frozen wallet has no seqno).
 */
public final class UnexpectedResponseException extends TonApiException {
  public UnexpectedResponseException(String method, String detail) {
    this(method, detail, null);
  }

  public UnexpectedResponseException(String method, String detail, Throwable cause) {
    super(method, 0, detail, cause);
  }
}
