package org.tonpayouts.streams.wallet;

import java.util.Objects;
import org.tonpayouts.schemas.PayoutRequest;

/**
 * An accepted request waiting in its wallet's queue, with the record it was read from.
 *
 * @param request the request
 * @param topic the topic it was read from
 * @param partition its partition, -1 when unknown
 * @param offset its offset, -1 when unknown
 */
public record QueuedRequest(PayoutRequest request, String topic, int partition, long offset) {
  public QueuedRequest {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(topic, "topic");
  }

  /**
   * Where this copy of the request came from ({@code topic-partition@offset}): the ledger records
   * it with the request, so a later copy of the same request is told apart from a replay of this one.
   */
  public String origin() {
    return topic + "-" + partition + "@" + offset;
  }
}
