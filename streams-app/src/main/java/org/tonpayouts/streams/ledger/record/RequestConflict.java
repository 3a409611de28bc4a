package org.tonpayouts.streams.ledger.record;

import java.util.List;
import org.tonpayouts.schemas.PayoutRequest;

/**
 * A requestId the ledger already holds with other content: the id pays one thing, the first
 * content recorded, and the newcomer is refused.
 *
 * @param requestId the reused id
 * @param recorded the content the ledger holds for it
 * @param differences the fields the newcomer differs in, each {@code "path: recorded -> newcomer"}
 */
public record RequestConflict(String requestId, PayoutRequest recorded, List<String> differences) {

  public RequestConflict {
    differences = List.copyOf(differences);
  }

  /** A reason for {@code payout.rejected}: which request was recorded first and what differs. */
  public String reason() {
    return "requestId '" + requestId + "' was already accepted for subwallet " + recorded.subwalletId()
        + " with other content; a requestId pays one thing, this request is refused. Differences (first -> this): "
        + String.join("; ", differences);
  }
}
