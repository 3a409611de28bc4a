package org.tonpayouts.ton.api;

/** The API answered 404: the method does not exist there (wrong base URL?) or the object is unknown. */
public final class NotFoundException extends TonApiException {
  private final String text;

  public NotFoundException(String method, int httpStatus, String text) {
    super(method, httpStatus, "not found: " + text, null);
    this.text = text;
  }

  public String text() {
    return text;
  }
}
