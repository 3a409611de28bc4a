package org.tonpayouts.streams.ledger.audit;

import java.util.Objects;

/**
 * Who did something the audit log records, as the admin API established it, and from where.
 *
 * @param name the authenticated operator's name, or for the shared admin token the name the caller
 *     typed, marked {@code "(shared token)"} (operator names hold no spaces, so the mark cannot be
 *     forged by a name)
 * @param address the caller's address as the connection showed it ({@code ip:port}); null when the
 *     action did not come through the admin API (tools, tests)
 */
public record Actor(String name, String address) {
  private static final String SHARED_TOKEN_MARK = " (shared token)";

  public Actor {
    Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException("an actor's name must not be blank");
    }
  }

  /** An operator authenticated by a token of their own. */
  public static Actor operator(String name, String address) {
    return new Actor(name, address);
  }

  /** Someone holding the shared admin token, who says they are {@code typedName}. */
  public static Actor sharedToken(String typedName, String address) {
    return new Actor(typedName + SHARED_TOKEN_MARK, address);
  }

  /** An actor known by name only (not through the admin API). */
  public static Actor named(String name) {
    return new Actor(name, null);
  }

  /** "alice from 10.0.0.7:52114", for audit details and logs. */
  public String describe() {
    return address == null ? name : name + " from " + address;
  }
}
