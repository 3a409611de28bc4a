package org.tonpayouts.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler.Result;
import org.apache.kafka.streams.errors.ProductionExceptionHandler.SerializationExceptionOrigin;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;
import org.tonpayouts.schemas.Topics;

/**
 * The decisions of the handler, one per kind of failure; the broker test
 * ({@code RejectionWriteFailureBrokerTest} in streams-app) shows the partition moving on.
 */
class RejectionProductionExceptionHandlerTest {
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final RejectionProductionExceptionHandler handler = new RejectionProductionExceptionHandler();

  /** Where the failed output came from: offset 42 of payout.requests partition 1. */
  private record Source() implements ErrorHandlerContext {
    public String topic() { return "payout.requests"; }
    public int partition() { return 1; }
    public long offset() { return 42; }
    public Headers headers() { return new RecordHeaders(); }
    public String processorNodeId() { return "request-validator"; }
    public TaskId taskId() { return new TaskId(0, 1); }
    public long timestamp() { return 0; }
    public byte[] sourceRawKey() { return null; }
    public byte[] sourceRawValue() { return null; }
  }

  private static ProducerRecord<byte[], byte[]> recordFor(String topic) {
    return new ProducerRecord<>(topic, new byte[1], new byte[1]);
  }

  private double dropped() {
    return registry.counter(RejectionProductionExceptionHandler.DROPPED_METRIC).count();
  }

  @Test
  void shouldSkipAndCountARejectionThatCannotBeSerializedOrSent() {
    handler.configure(Map.of(RejectionProductionExceptionHandler.METER_REGISTRY_CONFIG, registry));

    Result serialization = handler.handleSerializationError(new Source(), recordFor(Topics.PAYOUT_REJECTED.name()),
        new SerializationException("too large"), SerializationExceptionOrigin.VALUE).result();
    Result send = handler.handleError(new Source(), recordFor(Topics.PAYOUT_REJECTED.name()),
        new RecordTooLargeException("too large")).result();

    assertThat(serialization).isEqualTo(Result.RESUME);
    assertThat(send).isEqualTo(Result.RESUME);
    assertThat(dropped()).isEqualTo(2.0);
  }

  @Test
  void shouldFailTheTaskForAnyOtherTopicBecauseLosingASettlementIsWorseThanStopping() {
    handler.configure(Map.of(RejectionProductionExceptionHandler.METER_REGISTRY_CONFIG, registry));

    for (String topic : new String[] {Topics.PAYOUT_SETTLEMENTS.name(), Topics.PAYOUT_SUBMISSIONS.name(),
        Topics.PAYOUT_CONFIRMATIONS.name(), "ton-payouts-wallet-state-changelog"}) {
      assertThat(handler.handleError(new Source(), recordFor(topic), new RecordTooLargeException("x")).result())
          .as(topic).isEqualTo(Result.FAIL);
      assertThat(handler.handleSerializationError(new Source(), recordFor(topic), new SerializationException("x"),
          SerializationExceptionOrigin.VALUE).result()).as(topic).isEqualTo(Result.FAIL);
    }
    assertThat(dropped()).isZero();
  }

  @Test
  void shouldRetryRetriableErrorsEvenForRejections() {
    assertThat(handler.handleError(new Source(), recordFor(Topics.PAYOUT_REJECTED.name()),
        new NotEnoughReplicasException("one replica")).result()).isEqualTo(Result.RETRY);
    assertThat(handler.handleError(new Source(), recordFor(Topics.PAYOUT_SETTLEMENTS.name()),
        new NotEnoughReplicasException("one replica")).result()).isEqualTo(Result.RETRY);
  }

  @Test
  void shouldBeWhatEveryPayoutProcessConfiguresAndCountInTheGivenRegistry() {
    PayoutsConfig config = new PayoutsConfig(Map.of());
    Properties props = StreamsProperties.base(config, "app", registry);
    StreamsConfig streamsConfig = new StreamsConfig(props);

    var configured = streamsConfig.productionExceptionHandler();
    configured.handleSerializationError(new Source(), recordFor(Topics.PAYOUT_REJECTED.name()),
        new SerializationException("x"), SerializationExceptionOrigin.VALUE);

    assertThat(configured).isInstanceOf(RejectionProductionExceptionHandler.class);
    assertThat(dropped()).isEqualTo(1.0);
  }
}
