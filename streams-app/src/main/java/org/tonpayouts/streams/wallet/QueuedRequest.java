package org.tonpayouts.streams.wallet;

import java.util.Objects;
import org.tonpayouts.schemas.PayoutRequest;

/**
 * An accepted request waiting in its wallet's queue.
 *
 * @param request the request
 * @param origin where it was read from ({@code payout.requests-<partition>@<offset>}): the ledger
 *     records it with the request, so a later copy of the request is told apart from this one
 */
public record QueuedRequest(PayoutRequest request, String origin) {
  public QueuedRequest {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(origin, "origin");
  }
}
