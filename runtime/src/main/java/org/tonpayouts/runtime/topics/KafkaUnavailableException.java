package org.tonpayouts.runtime.topics;

import org.tonpayouts.runtime.StartupException;

/** Kafka did not answer an admin request in time; the message names the bootstrap servers. */
public final class KafkaUnavailableException extends StartupException {
  public KafkaUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
