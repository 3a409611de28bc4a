package org.tonpayouts.devnet.chain;

/** The BOC given to sendBoc is not a decodable external-in message; the message says why. */
public final class MalformedMessageException extends Exception {
  public MalformedMessageException(String message) {
    super(message);
  }

  public MalformedMessageException(String message, Throwable cause) {
    super(message, cause);
  }
}
