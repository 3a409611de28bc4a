package org.tonpayouts.streams.validation;

import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.PayoutRequestValidator;
import org.tonpayouts.schemas.Reasons;
import org.tonpayouts.schemas.Rejected;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.schemas.ValidationResult;
import org.tonpayouts.streams.metrics.PayoutMetrics;
import org.tonpayouts.streams.names.TopologyNames;
import org.tonpayouts.streams.wallet.WalletTxProcessor;

/**
 * The gate of {@code payout.requests}: reads raw bytes, so no input can fail deserialization, and
 * sends every request either on to the wallet processor or to {@code payout.rejected} with the
 * original payload (a bounded prefix, its length and SHA-256) and a reason a producer team can act
 * on (invariant 5).
 */
public final class RequestValidationProcessor implements Processor<String, byte[], String, Object> {
  private static final Logger log = LoggerFactory.getLogger(RequestValidationProcessor.class);

  private final PayoutRequestValidator validator;
  private final RequestRules rules;
  private final Clock clock;
  private final PayoutMetrics metrics;
  private ProcessorContext<String, Object> context;

  public RequestValidationProcessor(PayoutRequestValidator validator, RequestRules rules, Clock clock,
      PayoutMetrics metrics) {
    this.validator = validator;
    this.rules = rules;
    this.clock = clock;
    this.metrics = metrics;
  }

  @Override
  public void init(ProcessorContext<String, Object> context) {
    this.context = context;
  }

  @Override
  public void process(Record<String, byte[]> record) {
    List<String> problems;
    PayoutRequest request = null;
    try {
      ValidationResult result = validator.validate(record.value());
      if (result instanceof ValidationResult.Invalid invalid) {
        problems = invalid.problems();
      } else {
        request = result.request();
        problems = rules.problems(record.key(), request);
        if (problems.isEmpty()) {
          request = rules.accepted(request);
        }
      }
    } catch (RuntimeException e) {
      // The validator is written never to throw; should it ever, the record is still not lost.
      problems = List.of("request could not be validated: " + e);
      log.error("validation failed unexpectedly key={}", Reasons.clean(String.valueOf(record.key())), e);
    }
    if (problems.isEmpty()) {
      // Outside the try: a failure downstream (the wallet processor, its store, its sinks) must fail
      // the task and be retried, never turn a valid request into a rejection.
      context.forward(record.withValue((Object) request), TopologyNames.WALLET_TX);
    } else {
      reject(record, problems);
    }
  }

  /**
   * Writes the bounded rejection ({@link Rejected#of}: capped reason, payload prefix and key), so no
   * input, however large or hostile, can produce a record the producer refuses. Its record key is
   * the original key, cut like the one in the value.
   */
  private void reject(Record<String, byte[]> record, List<String> problems) {
    Optional<RecordMetadata> meta = context.recordMetadata();
    Rejected rejected = Rejected.of(problems, record.key(), record.value(),
        meta.map(RecordMetadata::topic).orElse(Topics.PAYOUT_REQUESTS.name()),
        meta.map(RecordMetadata::partition).orElse(null), meta.map(RecordMetadata::offset).orElse(null),
        clock.instant());
    metrics.rejected();
    log.warn("request rejected key={} partition={} offset={} bytes={} problems={} first_problem={}",
        Reasons.clean(String.valueOf(rejected.originalKey())), rejected.partition(), rejected.offset(),
        rejected.payloadLength(), rejected.problemCount(), Reasons.clean(problems.get(0)));
    context.forward(new Record<>(rejected.originalKey(), (Object) rejected, record.timestamp()), TopologyNames.REJECTED_SINK);
  }
}
