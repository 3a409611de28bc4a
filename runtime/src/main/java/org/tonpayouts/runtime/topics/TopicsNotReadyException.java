package org.tonpayouts.runtime.topics;

import org.tonpayouts.runtime.StartupException;

/** A topic the process needs is missing or laid out wrongly; the message says what and how to fix it. */
public final class TopicsNotReadyException extends StartupException {
  public TopicsNotReadyException(String message, Throwable cause) {
    super(message, cause);
  }
}
