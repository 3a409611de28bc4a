package org.tonpayouts.runtime.wakeup;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaClientSupplier;

/**
 * The clients Kafka Streams makes by default, but for the stream threads' main consumers, which
 * can be woken ({@link WakeableConsumer}), and their producers, which count their commits ({@link
 * CommitCountingProducer}); both register with this supplier's {@link #threads()}, which the
 * instance's processors are given. Every payout process builds its Kafka Streams with one.
 */
public final class WakeableClientSupplier implements KafkaClientSupplier {
  private final StreamThreads threads = new StreamThreads();
  private final List<WakeableConsumer> mainConsumers = new CopyOnWriteArrayList<>();

  /** The stream threads of the instance built with this supplier, for its processors. */
  public StreamThreads threads() {
    return threads;
  }

  /**
   * Call before closing the Kafka Streams instance: its stream threads stop waiting long for
   * records, so each one sees the close at once instead of after its current poll.
   */
  public void stayAwake() {
    mainConsumers.forEach(WakeableConsumer::stayAwake);
  }

  @Override
  public Admin getAdmin(Map<String, Object> config) {
    return Admin.create(config);
  }

  @Override
  public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
    return new CommitCountingProducer(new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer()),
        threads);
  }

  @Override
  public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
    WakeableConsumer consumer = new WakeableConsumer(plainConsumer(config), threads);
    mainConsumers.add(consumer);
    return consumer;
  }

  @Override
  public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
    return plainConsumer(config);
  }

  @Override
  public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
    return plainConsumer(config);
  }

  private static Consumer<byte[], byte[]> plainConsumer(Map<String, Object> config) {
    return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }
}
