package org.tonpayouts.ton.api;

import java.time.Duration;
import java.util.Optional;

/**
 * The API answered 429: this client (or another one on the same key) exceeded the request rate.
 * Nothing was processed, so a sent message was not delivered by this call.
 */
public final class RateLimitedException extends TonApiException {
  private final Duration retryAfter;

  public RateLimitedException(String method, int httpStatus, String text, Duration retryAfter) {
    super(method, httpStatus, "rate limited: " + text, null);
    this.retryAfter = retryAfter;
  }

  /** The server's {@code Retry-After}, when it sent one. */
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }

  @Override
  public boolean isTransient() {
    return true;
  }
}
