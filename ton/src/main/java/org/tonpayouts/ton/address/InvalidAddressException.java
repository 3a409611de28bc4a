package org.tonpayouts.ton.address;

/** Thrown when a string is not a valid TON address; the message says what is wrong with it. */
public final class InvalidAddressException extends IllegalArgumentException {
  public InvalidAddressException(String message) {
    super(message);
  }
}
