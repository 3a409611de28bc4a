package org.tonpayouts.runtime;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.schemas.Topics;

/**
 * What a payout process does when Kafka Streams cannot write an output record: a rejection
 * ({@code payout.rejected}) that cannot be written is logged with the input's partition and offset,
 * counted ({@value #DROPPED_METRIC}) and skipped, so the partition keeps moving (invariant 5); losing
 * any other record (a settlement, a submission, a confirmation) is worse than stopping, so those
 * fail the task as Kafka's default handler does, and retriable errors are retried as it does.
 *
 * <p>Why the rejections' serde caps their size ({@code Rejected.MAX_SERIALIZED_BYTES}): under
 * exactly-once a record the producer or broker refuses (e.g. {@code RecordTooLargeException}) puts
 * the transaction into an abortable state whatever this handler answers, and the task restarts on
 * the same input. A serialization failure happens before the producer sees the record, so only
 * there can a rejection be skipped safely; the cap turns "too large" into such a failure. Keep
 * {@code max.message.bytes} of {@code payout.rejected} at its 1 MiB default or at least that cap.
 *
 * <p>Kafka Streams creates this handler from {@link StreamsProperties}; the meter registry to count
 * in is passed under {@link #METER_REGISTRY_CONFIG} (a private registry when absent).
 */
public final class RejectionProductionExceptionHandler implements ProductionExceptionHandler {
  /** Streams property holding the {@link MeterRegistry} the dropped rejections are counted in. */
  public static final String METER_REGISTRY_CONFIG = "payouts.meter.registry";
  /** Counter of rejections that could not be written and were skipped. */
  public static final String DROPPED_METRIC = "payout.rejected.dropped";

  private static final Logger log = LoggerFactory.getLogger(RejectionProductionExceptionHandler.class);

  private Counter dropped = counter(new SimpleMeterRegistry());

  @Override
  public void configure(Map<String, ?> configs) {
    if (configs.get(METER_REGISTRY_CONFIG) instanceof MeterRegistry registry) {
      dropped = counter(registry);
    }
  }

  private static Counter counter(MeterRegistry registry) {
    return Counter.builder(DROPPED_METRIC)
        .description("payout.rejected records that could not be written: logged with the input's partition and"
            + " offset and skipped, so the partition keeps moving")
        .register(registry);
  }

  @Override
  public Response handleError(ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record, Exception exception) {
    if (exception instanceof RetriableException) {
      return Response.retry();
    }
    if (isRejection(record.topic())) {
      drop(context, record.topic(), exception);
      return Response.resume();
    }
    return Response.fail();
  }

  @Override
  @SuppressWarnings("rawtypes")
  public Response handleSerializationError(ErrorHandlerContext context, ProducerRecord record, Exception exception,
      SerializationExceptionOrigin origin) {
    if (isRejection(record.topic())) {
      drop(context, record.topic(), exception);
      return Response.resume();
    }
    return Response.fail();
  }

  private static boolean isRejection(String topic) {
    return Topics.PAYOUT_REJECTED.name().equals(topic);
  }

  private void drop(ErrorHandlerContext context, String topic, Exception exception) {
    dropped.increment();
    log.error("event=rejection_dropped topic={} source_topic={} source_partition={} source_offset={} task={}"
            + " processor={} error={}", topic, context.topic(), context.partition(), context.offset(), context.taskId(),
        context.processorNodeId(), exception.toString());
  }

  /** How many rejections this handler skipped (for tests). */
  double droppedCount() {
    return dropped.count();
  }
}
