package org.tonpayouts.runtime.topics;

import org.tonpayouts.runtime.StartupException;

/**
 * Kafka refused this process: its login (TLS or SASL) or a right it needs (an ACL). The message
 * names the bootstrap servers, what was tried and which settings or rights to look at; never a
 * credential.
 */
public final class KafkaAccessDeniedException extends StartupException {
  public KafkaAccessDeniedException(String message, Throwable cause) {
    super(message, cause);
  }
}
