package org.tonpayouts.streams.wallet;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.RequestContent;

/**
 * The requestIds this task accepted, for the configured retention (a window store whose old
 * segments Kafka Streams drops by itself, as in Confluent's deduplication example): a copy of an
 * accepted request is dropped silently, the id reused with other content is refused with the
 * fields that differ. Beyond the retention, and across wallets (partitions), the ledger holds the
 * same line when the request's turn comes.
 */
final class RequestMemory {
  private final WindowStore<String, PayoutRequest> store;
  private final Duration retention;

  RequestMemory(WindowStore<String, PayoutRequest> store, Duration retention) {
    this.store = store;
    this.retention = retention;
  }

  /** What the memory says about a request arriving with record time {@code at}. */
  sealed interface Seen {}

  /** Not seen within the retention. */
  record New() implements Seen {}

  /** The same content was accepted before: drop it. */
  record Duplicate() implements Seen {}

  /** The id was accepted before with other content: refuse it, naming the differences. */
  record Conflict(PayoutRequest first, List<String> differences) implements Seen {}

  Seen lookup(PayoutRequest request, Instant at) {
    long from = at.minus(retention).toEpochMilli();
    long to = at.plus(retention).toEpochMilli();
    try (WindowStoreIterator<PayoutRequest> it = store.fetch(request.requestId(), Math.max(0, from), to)) {
      if (!it.hasNext()) {
        return new New();
      }
      PayoutRequest first = it.next().value;
      if (RequestContent.fingerprint(first).equals(RequestContent.fingerprint(request))) {
        return new Duplicate();
      }
      return new Conflict(first, RequestContent.differences(first, request));
    }
  }

  void remember(PayoutRequest request, Instant at) {
    store.put(request.requestId(), request, at.toEpochMilli());
  }
}
