package org.tonpayouts.streams.admin;

import java.security.MessageDigest;
import java.util.Objects;
import org.tonpayouts.runtime.admin.OperatorTokens;

/**
 * The admin API's bearer token and the one check of it. The comparison takes the same time whatever
 * the guess (both sides are hashed first, so neither length nor a matching prefix shows in the
 * timing); the token is never logged and never appears in {@link #toString()}.
 */
final class BearerToken {
  private static final String PREFIX = "Bearer ";
  private final byte[] digest;

  BearerToken(String token) {
    Objects.requireNonNull(token, "token");
    if (token.isBlank()) {
      throw new IllegalArgumentException("the admin token must not be blank");
    }
    this.digest = sha256(token);
  }

  /** True when {@code authorization} (the header's value, may be null) is {@code Bearer <the token>}. */
  boolean admits(String authorization) {
    if (authorization == null || !authorization.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
      return false;
    }
    return MessageDigest.isEqual(digest, sha256(authorization.substring(PREFIX.length()).strip()));
  }

  private static byte[] sha256(String value) {
    return OperatorTokens.sha256(value);
  }

  @Override
  public String toString() {
    return "BearerToken[<hidden>]";
  }
}
