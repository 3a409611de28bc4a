package org.tonpayouts.runtime.wakeup;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
 * Wakes a stream thread from another thread: a processor asks, on its stream thread, for {@link
 * #forCurrentThread()} and hands the result to the I/O work it starts, which runs it when a result
 * is ready for the stream thread to apply. Works for the Kafka Streams instances built with {@link
 * #clientSupplier()}, whose main consumers are {@link WakeableConsumer}s; on any other thread (a
 * TopologyTestDriver, a plain consumer) the waker does nothing and the stream thread finds the
 * result on its next loop, as before. Their producers count the transactions they commit ({@link
 * TransactionCommits}).
 */
public final class StreamThreadWakeups {
  /** Each stream thread's main consumer, registered on its first poll (the thread is known then). */
  private static final Map<Thread, WakeableConsumer> BY_THREAD = new ConcurrentHashMap<>();

  private StreamThreadWakeups() {}

  /** The client supplier whose main consumers can be woken; every payout process builds its Kafka Streams with it. */
  public static Supplier clientSupplier() {
    return new Supplier();
  }

  /** The clients Kafka Streams makes by default, the main consumers wakeable. */
  public static final class Supplier implements KafkaClientSupplier {
    private final List<WakeableConsumer> mainConsumers = new CopyOnWriteArrayList<>();

    private Supplier() {}

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

    /** The stream threads' producers count their commits ({@link TransactionCommits}). */
    @Override
    public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
      return new CommitCountingProducer(new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer()));
    }

    @Override
    public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
      WakeableConsumer consumer = new WakeableConsumer(plainConsumer(config));
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
  }

  private static Consumer<byte[], byte[]> plainConsumer(Map<String, Object> config) {
    return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  /**
   * The waker of the calling stream thread (call it on the stream thread, e.g. in a processor's
   * {@code init}); {@link StreamThreadWaker#NONE} when the thread has no wakeable consumer.
   */
  public static StreamThreadWaker forCurrentThread() {
    WakeableConsumer consumer = BY_THREAD.get(Thread.currentThread());
    if (consumer == null) {
      return StreamThreadWaker.NONE;
    }
    return new StreamThreadWaker() {
      @Override
      public void wake() {
        consumer.wake();
      }

      @Override
      public Runnable keepPace(Duration every) {
        return consumer.keepPace(every);
      }
    };
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
