package org.tonpayouts.runtime.wakeup;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaClientSupplier;

/**
 * Wakes a stream thread from another thread: a processor asks, on its stream thread, for {@link
 * #forCurrentThread()} and hands the result to the I/O work it starts, which runs it when a result
 * is ready for the stream thread to apply. Works for the Kafka Streams instances built with {@link
 * #clientSupplier()}, whose main consumers are {@link WakeableConsumer}s; on any other thread (a
 * TopologyTestDriver, a plain consumer) the waker does nothing and the stream thread finds the
 * result on its next loop, as before.
 */
public final class StreamThreadWakeups {
  private static final Runnable NOTHING = () -> { };
  /** Each stream thread's main consumer, registered on its first poll (the thread is known then). */
  private static final Map<Thread, WakeableConsumer> BY_THREAD = new ConcurrentHashMap<>();

  private StreamThreadWakeups() {}

  /** The client supplier whose main consumers can be woken; every payout process builds its Kafka Streams with it. */
  public static KafkaClientSupplier clientSupplier() {
    // the clients Kafka Streams makes by default, the main consumer wrapped
    return new KafkaClientSupplier() {
      @Override
      public Admin getAdmin(Map<String, Object> config) {
        return Admin.create(config);
      }

      @Override
      public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
        return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
      }

      @Override
      public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
        return new WakeableConsumer(plainConsumer(config));
      }

      @Override
      public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
        return plainConsumer(config);
      }

      @Override
      public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
        return plainConsumer(config);
      }
    };
  }

  private static Consumer<byte[], byte[]> plainConsumer(Map<String, Object> config) {
    return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  /**
   * What wakes the calling stream thread (call it on the stream thread, e.g. in a processor's
   * {@code init}); does nothing when the thread has no wakeable consumer.
   */
  public static Runnable forCurrentThread() {
    WakeableConsumer consumer = BY_THREAD.get(Thread.currentThread());
    return consumer == null ? NOTHING : consumer::wake;
  }

  static void register(WakeableConsumer consumer) {
    BY_THREAD.put(consumer.pollingThread(), consumer);
  }

  static void unregister(WakeableConsumer consumer) {
    Thread thread = consumer.pollingThread();
    if (thread != null) {
      BY_THREAD.remove(thread, consumer);
    }
  }
}
