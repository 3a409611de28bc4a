package org.tonpayouts.streams.ledger.caps;

import java.math.BigInteger;
import java.time.Instant;
import org.tonpayouts.runtime.caps.SpendCap;
import org.tonpayouts.runtime.caps.SpendCapList;

/** What the spend caps make of a transfer's first message: it may be recorded, or it is held. */
public sealed interface CapDecision {

  /**
   * Within every cap, or released by an operator (then it passes once, and still counts).
   *
   * @param released whether an operator's release let it past
   * @param wasHeld whether a hold of it was waiting (its release is recorded when the message is)
   */
  record Pass(boolean released, boolean wasHeld) implements CapDecision {}

  /**
   * Over a cap: nothing is recorded or sent, the transfer waits.
   *
   * @param spent what the window held already (including transfers passed earlier in the same batch)
   * @param freesAt when enough of that spend leaves the window; null when the amount alone is over
   *     the cap (only an operator can let it go)
   */
  record Held(CapScope scope, SpendCap cap, BigInteger spent, long amountNano, Instant freesAt)
      implements CapDecision {

    /** The refusal's detail, for logs, the admin API and the audit event. */
    public String describe(long subwalletId) {
      String over = scope.owner(subwalletId) + " cap of " + cap.capNano() + " nanotons per "
          + SpendCapList.formatWindow(cap.window()) + ": " + spent + " spent in the window, this transfer needs "
          + amountNano;
      return over + (freesAt == null
          ? "; its amount alone is over the cap: it waits for an operator's release (POST /admin/holds/.../release)"
          : "; the window has room from " + freesAt + " (or an operator releases it)");
    }
  }
}
