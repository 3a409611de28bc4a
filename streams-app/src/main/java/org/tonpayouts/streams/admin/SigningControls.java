package org.tonpayouts.streams.admin;

import com.sun.net.httpserver.HttpExchange;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.streams.admin.AdminViews.PauseRequest;
import org.tonpayouts.streams.admin.AdminViews.Problem;
import org.tonpayouts.streams.admin.AdminViews.ReleaseRequest;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.ledger.audit.Actor;
import org.tonpayouts.streams.ledger.caps.HoldRelease;
import org.tonpayouts.streams.ledger.operator.PauseChange;
import org.tonpayouts.streams.ledger.sql.Pause;
import org.tonpayouts.ton.wallet.Subwallets;

/**
 * The admin API's controls over signing: the pause switch (pause, resume, the pauses in force) and
 * the transfers the rolling spend caps hold, with their release. Each change is made, and audited,
 * as the operator the call authenticated.
 */
final class SigningControls {
  private static final Logger log = LoggerFactory.getLogger(SigningControls.class);

  private final Ledger ledger;

  SigningControls(Ledger ledger) {
    this.ledger = ledger;
  }

  /** Stops signing for the deployment or one subwallet; in force once this answers (the ledger refuses new intents). */
  AdminAnswer pause(HttpExchange exchange, Authentication caller) {
    PauseRequest body = AdminInput.body(exchange, PauseRequest.class, AdminInput.PAUSE_SHAPE);
    Long subwalletId = scope(body.scope());
    Actor operator = AdminInput.actor(caller, body.operator(), exchange);
    String reason = AdminInput.limited(AdminInput.required(body.reason(), "reason"), "reason", AdminInput.MAX_REASON_CHARS);
    PauseChange change = ledger.pauses().pause(subwalletId, operator, reason);
    if (change instanceof PauseChange.AlreadyPaused already) {
      return AdminAnswer.json(409, new Problem(409, Pause.scopeOf(subwalletId) + " is paused already ("
          + already.pause().describe() + "): nothing changed", null, AdminViews.PauseView.of(already.pause()), null));
    }
    PauseChange.Changed changed = (PauseChange.Changed) change;
    return AdminAnswer.json(200, new AdminViews.PauseChanged(AdminViews.PauseView.of(changed.pause()),
        AdminViews.Audit.of(changed.audit())));
  }
  /** Lifts the pause of the deployment or of one subwallet; queued transfers go within about a second. */
  AdminAnswer resume(HttpExchange exchange, Authentication caller) {
    PauseRequest body = AdminInput.body(exchange, PauseRequest.class, AdminInput.PAUSE_SHAPE);
    Long subwalletId = scope(body.scope());
    Actor operator = AdminInput.actor(caller, body.operator(), exchange);
    String reason = AdminInput.limited(AdminInput.required(body.reason(), "reason"), "reason", AdminInput.MAX_REASON_CHARS);
    PauseChange change = ledger.pauses().resume(subwalletId, operator, reason);
    if (change instanceof PauseChange.NotPaused notPaused) {
      List<Pause> others = ledger.pauses().active();
      return AdminAnswer.problem(409, notPaused.scope() + " is not paused: nothing changed" + (others.isEmpty()
          ? "" : "; in force: " + others.stream().map(Pause::describe).collect(Collectors.joining("; "))));
    }
    PauseChange.Changed changed = (PauseChange.Changed) change;
    return AdminAnswer.json(200, new AdminViews.PauseChanged(AdminViews.PauseView.of(changed.pause()),
        AdminViews.Audit.of(changed.audit())));
  }
  AdminAnswer pauses() {
    List<Pause> active = ledger.pauses().active();
    return AdminAnswer.json(200, new AdminViews.Pauses(active.stream().anyMatch(Pause::deploymentWide),
        active.stream().map(AdminViews.PauseView::of).toList(),
        ledger.pauses().history(50).stream().map(AdminViews.PauseView::of).toList()));
  }
  /** The transfers the rolling spend caps hold now, oldest first. */
  AdminAnswer holds(String limitParam) {
    List<AdminViews.HoldView> waiting = ledger.holds().waiting(AdminInput.limit(limitParam)).stream()
        .map(AdminViews.HoldView::of).toList();
    return AdminAnswer.json(200, new AdminViews.Holds(waiting.size(), waiting));
  }
  /** Lets one held transfer past the spend caps once; its wallet signs it at its next try. */
  AdminAnswer release(String requestId, String transferId, HttpExchange exchange, Authentication caller) {
    AdminInput.id(requestId, "requestId");
    AdminInput.id(transferId, "transferId");
    ReleaseRequest body = AdminInput.body(exchange, ReleaseRequest.class, AdminInput.RELEASE_SHAPE);
    Actor operator = AdminInput.actor(caller, body.operator(), exchange);
    String reason = AdminInput.limited(AdminInput.required(body.reason(), "reason"), "reason", AdminInput.MAX_REASON_CHARS);
    HoldRelease result = ledger.holds().release(requestId, transferId, operator, reason);
    if (result instanceof HoldRelease.Released released) {
      log.warn("spend cap hold released subwallet={} request={} transfer={} amount_nano={} operator={}",
          released.hold().subwalletId(), requestId, transferId, released.hold().amountNano(), operator.describe());
      return AdminAnswer.json(200, new AdminViews.HoldReleased(AdminViews.HoldView.of(released.hold()),
          AdminViews.Audit.of(released.audit())));
    } else if (result instanceof HoldRelease.AlreadyReleased already) {
      return AdminAnswer.problem(409, "transfer " + requestId + "/" + transferId + " was released already by "
          + already.hold().releasedBy() + " at " + already.hold().releasedAt() + " and waits for its wallet's next"
          + " try: nothing changed");
    }
    return AdminAnswer.problem(404, "no spend cap holds transfer " + requestId + "/" + transferId + ": never held, or"
        + " its first message was recorded since (GET /admin/holds lists the holds)");
  }
  /** {@code "deployment"} (null) or a subwallet id. */
  private static Long scope(String scope) {
    String value = AdminInput.required(scope, "scope (\"deployment\" or a subwallet id)");
    if (value.equalsIgnoreCase("deployment")) {
      return null;
    }
    long id;
    try {
      id = Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new AdminInput.BadInput("scope must be \"deployment\" or a subwallet id (a decimal number), got '" + scope + "'");
    }
    if (id < 0 || id > Subwallets.MAX_SUBWALLET_ID) {
      throw new AdminInput.BadInput("scope's subwallet id must be 0 to " + Subwallets.MAX_SUBWALLET_ID + ", got " + id);
    }
    return id;
  }
}
