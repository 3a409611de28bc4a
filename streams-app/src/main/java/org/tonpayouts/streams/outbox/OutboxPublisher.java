package org.tonpayouts.streams.outbox;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.ops.OutageLog;
import org.tonpayouts.runtime.KafkaClientSettings;
import org.tonpayouts.schemas.AuditRecord;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.schemas.Topic;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.ledger.audit.Outbox;
import org.tonpayouts.streams.ledger.audit.PendingSettlement;
import org.tonpayouts.streams.metrics.PayoutMetrics;

/**
 * Publishes what the ledger holds for Kafka and the topology does not send: every audit_log row to
 * {@code payout.audit}, and the settlements of operators' resolutions to {@code payout.settlements}.
 * One thread polls both outboxes every {@code outbox.poll.interval.ms} while it finds something, and
 * backs off to {@link #IDLE_FACTOR} times that while they stay empty (an idle service should not ask
 * its database five times a second for nothing); a batch is marked published
 * only after Kafka acknowledged every record of it (idempotent producer, {@code acks=all}), so a
 * crash or a broker outage repeats records and never loses one. Consumers deduplicate on the audit
 * id ({@code auditId}, {@code resolution.auditId}).
 */
public final class OutboxPublisher implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(OutboxPublisher.class);
  static final int BATCH = 100;
  private static final Duration ACK_TIMEOUT = Duration.ofSeconds(30);
  /** The longest wait between polls of empty outboxes, in poll intervals. */
  static final int IDLE_FACTOR = 5;

  private final Ledger ledger;
  private final Producer<String, byte[]> producer;
  private final PayoutMetrics metrics;
  private final Duration interval;
  /**
   * A ledger or broker that stays away is logged when publication starts failing, once a minute
   * while it lasts and when it works again, not at every run. Only log lines depend on its clock.
   */
  private final OutageLog outage = new OutageLog(log, "outbox publication", java.time.Clock.systemUTC());
  private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "outbox-publisher");
    t.setDaemon(true);
    return t;
  });

  public OutboxPublisher(Ledger ledger, Producer<String, byte[]> producer, PayoutMetrics metrics, Duration interval) {
    this.ledger = ledger;
    this.producer = producer;
    this.metrics = metrics;
    this.interval = interval;
  }

  /** The producer the publisher needs, on a plaintext cluster without authentication. */
  public static Producer<String, byte[]> producer(String bootstrapServers, String clientId) {
    return producer(bootstrapServers, KafkaClientSettings.none(), clientId);
  }

  /**
   * The producer the publisher needs: idempotent, every replica acknowledges, bounded waits; with the
   * deployment's TLS, SASL and config-provider settings ({@code kafka.*}).
   */
  public static Producer<String, byte[]> producer(String bootstrapServers, KafkaClientSettings kafka, String clientId) {
    Map<String, Object> props = new HashMap<>(kafka.forProducer());
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
    props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) ACK_TIMEOUT.toMillis());
    return new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer());
  }

  public void start() {
    thread.execute(() -> publishAndReschedule(interval));
    log.info("outbox publisher started interval_ms={} idle_interval_ms={} topics={},{}", interval.toMillis(),
        interval.toMillis() * IDLE_FACTOR, Topics.PAYOUT_AUDIT, Topics.PAYOUT_SETTLEMENTS);
  }

  /** One run, then the next one after {@code interval} if it published something, else after up to twice {@code last}. */
  private void publishAndReschedule(Duration last) {
    Duration next = publishAll() > 0 ? interval : nextIdleWait(last, interval);
    if (!thread.isShutdown()) {
      thread.schedule(() -> publishAndReschedule(next), next.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  /** The wait after a run that found nothing: twice the last one, at most {@link #IDLE_FACTOR} intervals. */
  static Duration nextIdleWait(Duration last, Duration interval) {
    Duration doubled = last.multipliedBy(2);
    Duration longest = interval.multipliedBy(IDLE_FACTOR);
    return doubled.compareTo(longest) < 0 ? doubled : longest;
  }

  /**
   * Publishes everything waiting, in batches; failures are logged, counted and retried on the next run.
   *
   * @return how many records it published
   */
  int publishAll() {
    return drain("audit", ledger.auditOutbox(), this::sendAudit)
        + drain("settlements", ledger.settlementOutbox(), this::sendSettlements);
  }

  private <T> int drain(String name, Outbox<T> outbox, Outbox.Sink<T> sink) {
    int published = 0;
    try {
      int batch;
      do {
        batch = outbox.publishNext(BATCH, sink);
        published += batch;
      } while (batch == BATCH); // a full batch: there may be more
      outage.succeeded(name);
    } catch (RuntimeException e) {
      metrics.outboxFailure(name);
      outage.failed(name, "retrying in at most " + interval.toMillis() * IDLE_FACTOR + " ms error=" + e.getMessage());
    }
    return published;
  }

  private void sendAudit(List<AuditRecord> records) throws Exception {
    List<Future<RecordMetadata>> acks = new ArrayList<>();
    for (AuditRecord r : records) {
      acks.add(send(Topics.PAYOUT_AUDIT, r.key(), r, r.at().toEpochMilli()));
    }
    await(acks);
    for (AuditRecord r : records) {
      metrics.auditEvent(r.level().name(), r.event());
      log.debug("audit event published audit={} event={} subwallet={}", r.auditId(), r.event(), r.subwalletId());
    }
  }

  private void sendSettlements(List<PendingSettlement> pending) throws Exception {
    List<Future<RecordMetadata>> acks = new ArrayList<>();
    for (PendingSettlement p : pending) {
      Settlement s = p.settlement();
      acks.add(send(Topics.PAYOUT_SETTLEMENTS, Topics.walletKey(s.subwalletId()), s, s.settledAt().toEpochMilli()));
    }
    await(acks);
    for (PendingSettlement p : pending) {
      Settlement s = p.settlement();
      metrics.resolutionPublished(s.status().name());
      metrics.settled(s.status());
      log.info("resolution settlement published subwallet={} request={} transfer={} status={} tx={} audit={}",
          s.subwalletId(), s.requestId(), s.transferId(), s.status(), s.txHash(), p.auditId());
    }
  }

  private <V> Future<RecordMetadata> send(Topic<String, V> topic, String key, V value, long timestamp) {
    byte[] bytes = topic.valueSerde().serializer().serialize(topic.name(), value);
    return producer.send(new ProducerRecord<>(topic.name(), null, timestamp, key, bytes));
  }

  private static void await(List<Future<RecordMetadata>> acks)
      throws InterruptedException, ExecutionException, TimeoutException {
    long deadline = System.nanoTime() + ACK_TIMEOUT.toNanos();
    for (Future<RecordMetadata> ack : acks) {
      ack.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    }
  }

  /** Stops polling (a run in progress finishes or is interrupted) and closes the producer. */
  @Override
  public void close() {
    thread.shutdownNow();
    try {
      if (!thread.awaitTermination(5, TimeUnit.SECONDS)) {
        log.warn("outbox publisher did not stop within 5 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    producer.close(Duration.ofSeconds(5));
  }
}
