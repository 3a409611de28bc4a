package org.tonpayouts.devnet.api;

/** An API call that ends with toncenter's error envelope {@code {"ok":false,"error":...,"code":...}}. */
final class ApiException extends RuntimeException {
  private final int code;

  ApiException(int code, String message) {
    super(message);
    this.code = code;
  }

  int code() {
    return code;
  }

  static ApiException validation(String message) {
    return new ApiException(422, "Validation error: " + message);
  }

  static ApiException incorrectAddress() {
    return new ApiException(416, "Incorrect address");
  }
}
