package org.tonpayouts.streams.admin;

/** Who an admin call's credentials show the caller to be. */
public sealed interface Authentication {

  /** An operator of {@code admin.operators.file}, by the token only they hold. */
  record Operator(String name) implements Authentication {}

  /** The shared {@code admin.token}: someone who holds it, who names themselves in the body. */
  record SharedToken() implements Authentication {}

  /** No usable credentials: answered 401; {@code why} goes to the log (never the token). */
  record Refused(String why) implements Authentication {}
}
