package org.tonpayouts.ton.api;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes of answers one client holds while reading them, together: the per-answer cap alone
 * would let {@code maxInFlight} hostile answers hold {@code maxInFlight} times the cap (a gigabyte
 * with the defaults). A chunk that would take the total past the budget fails its call, which is
 * retried like any transport error; honest traffic stays far below it.
 */
final class AnswerBudget {
  /** Caps of answers that may be read at once: a few full block pages, far more than honest traffic holds. */
  static final int CAPS = 4;

  private final long maxBytes;
  private final AtomicLong held = new AtomicLong();

  AnswerBudget(long maxBytes) {
    this.maxBytes = maxBytes;
  }

  static AnswerBudget forCap(long maxResponseBytes) {
    return new AnswerBudget(CAPS * maxResponseBytes);
  }

  long maxBytes() {
    return maxBytes;
  }

  /** Takes {@code bytes} when they fit; false (and nothing taken) when they would pass the budget. */
  boolean take(long bytes) {
    long now;
    do {
      now = held.get();
      if (now + bytes > maxBytes) {
        return false;
      }
    } while (!held.compareAndSet(now, now + bytes));
    return true;
  }

  void give(long bytes) {
    held.addAndGet(-bytes);
  }

  /** Bytes held now. */
  long held() {
    return held.get();
  }
}
