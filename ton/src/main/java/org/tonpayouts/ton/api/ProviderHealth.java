package org.tonpayouts.ton.api;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One provider's standing in a {@link ProviderPool}: in use, set aside after {@code failuresToSetAside}
 * failures in a row (its own failures: transport errors, 429, 5xx, a refused answer, a refused key),
 * or being probed once its back-off is over. One call at a time is the probe: a provider that is
 * still down costs one call per back-off period, not one per wallet. Apart from that, a provider
 * found lagging behind the others ({@link #lagging(boolean)}) is out of use until a later lag check
 * finds it caught up: it answers every call, so no probe could tell.
 *
 * <p>Each change of standing is returned to the caller ({@link Change}), so the pool logs and counts
 * it once, where it happened.
 */
final class ProviderHealth {
  /** What a recorded outcome changed. */
  enum Change { NONE, SET_ASIDE, BACK }

  private final int failuresToSetAside;
  private final Duration setAsideFor;
  private final Clock clock;

  private int failuresInARow;
  private Instant setAsideUntil; // null: in use
  private boolean probing;
  /** Set aside for lagging behind the other providers: only the next lag check brings it back. */
  private boolean lagging;

  ProviderHealth(int failuresToSetAside, Duration setAsideFor, Clock clock) {
    if (failuresToSetAside < 1) {
      throw new IllegalArgumentException("failuresToSetAside must be at least 1, got " + failuresToSetAside);
    }
    this.failuresToSetAside = failuresToSetAside;
    this.setAsideFor = Objects.requireNonNull(setAsideFor, "setAsideFor");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Whether a call may go to this provider now: always while it is in use; once its back-off is
   * over, for exactly one call at a time (the probe), whose outcome decides.
   */
  synchronized boolean tryUse() {
    if (lagging) {
      return false;
    }
    if (setAsideUntil == null) {
      return true;
    }
    if (probing || clock.instant().isBefore(setAsideUntil)) {
      return false;
    }
    probing = true;
    return true;
  }

  synchronized boolean isSetAside() {
    return setAsideUntil != null || lagging;
  }

  synchronized boolean isLagging() {
    return lagging;
  }

  /**
   * The outcome of a lag check: {@code behind} true sets the provider aside however well it answers
   * (a lagging node answers every call, about a chain that is no longer there), false brings it back
   * from a lag, if it was set aside for one.
   */
  synchronized Change lagging(boolean behind) {
    if (behind == lagging) {
      return Change.NONE;
    }
    lagging = behind;
    if (behind) {
      return setAsideUntil == null ? Change.SET_ASIDE : Change.NONE;
    }
    return setAsideUntil == null ? Change.BACK : Change.NONE;
  }

  /** When the provider's back-off ends; null while it is in use. */
  synchronized Instant setAsideUntil() {
    return setAsideUntil;
  }

  /** An answer (any answer about the chain, a rejection included): the provider works. */
  synchronized Change succeeded() {
    failuresInARow = 0;
    probing = false;
    if (setAsideUntil != null) {
      setAsideUntil = null;
      return Change.BACK;
    }
    return Change.NONE;
  }

  /** A failure of the provider itself. A failed probe sets it aside for another period. */
  synchronized Change failed() {
    failuresInARow++;
    if (setAsideUntil != null) {
      probing = false;
      setAsideUntil = clock.instant().plus(setAsideFor);
      return Change.NONE;
    }
    if (failuresInARow >= failuresToSetAside) {
      setAsideUntil = clock.instant().plus(setAsideFor);
      return Change.SET_ASIDE;
    }
    return Change.NONE;
  }

  /** A call that ended without telling whether the provider works (a 404, a block not there yet). */
  synchronized void inconclusive() {
    probing = false;
  }
}
