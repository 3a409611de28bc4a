package org.tonpayouts.ton.api;

/**
 * An answer this client would not read to the end: larger than {@link TonApiConfig#maxResponseBytes()},
 * nested deeper or with a longer number than an honest node ever writes, or a 2xx answer that is not
 * JSON (a captive portal's or a proxy's HTML page). A faulty or hostile node, or something on the path,
 * wrote it; the call fails alone, at once and with bounded memory. It says nothing about the chain:
 * like a transport error it is transient (a read is retried) and, for a send, the message may have
 * reached the node (so the same BOC is re-sent, never a new one signed).
 */
public final class RefusedAnswerException extends TonApiException {
  private final boolean maybeDelivered;

  public RefusedAnswerException(String method, int httpStatus, String detail, Throwable cause, boolean send) {
    super(method, httpStatus, detail, cause);
    this.maybeDelivered = send;
  }

  @Override
  public boolean maybeDelivered() {
    return maybeDelivered;
  }

  @Override
  public boolean isTransient() {
    return true;
  }
}
