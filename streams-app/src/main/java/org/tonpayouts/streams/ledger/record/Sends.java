package org.tonpayouts.streams.ledger.record;

import java.time.Instant;
import java.util.Objects;

/**
 * The API's acknowledgements of one message's sends that the ledger does not hold yet: when the
 * first came and how many. They reach {@code ton_transactions.sent_at} and {@code send_count} with
 * the message's verdict, or on their own ({@link MessageTransitions#recordSends}).
 *
 * @param first when the API acknowledged the first of them
 * @param count how many sends were acknowledged (at least one)
 */
public record Sends(Instant first, int count) {
  public Sends {
    Objects.requireNonNull(first, "first");
    if (count < 1) {
      throw new IllegalArgumentException("count must be at least 1, got " + count);
    }
  }

  /** One send acknowledged at {@code at}. */
  public static Sends one(Instant at) {
    return new Sends(at, 1);
  }

  /** The first send's time as SQL text for an array parameter; null for no sends. */
  static String firstOf(Sends sends) {
    return sends == null ? null : sends.first.toString();
  }

  /** How many sends; 0 for none. */
  static int countOf(Sends sends) {
    return sends == null ? 0 : sends.count;
  }

  /** These sends and {@code other}'s  /** These sends and {@code other}'s: the earlier first, the counts added. */
  public Sends and(Sends other) {
    return new Sends(first.isBefore(other.first) ? first : other.first, count + other.count);
  }
}
