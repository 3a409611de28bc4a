package org.tonpayouts.runtime.wakeup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.tonpayouts.embedded.EmbeddedKafkaBroker;
import org.tonpayouts.embedded.SharedTestInfrastructure;

/** A stream thread's consumer woken from another thread, on a real broker. */
class WakeableConsumerTest {
  /** Far longer than any test waits: a poll that returns in time was woken, not timed out. */
  private static final Duration LONG_POLL = Duration.ofSeconds(60);

  private final EmbeddedKafkaBroker kafka = SharedTestInfrastructure.kafka();
  private final StreamThreads threads = new StreamThreads();

  private WakeableConsumer consumerOnAnEmptyTopic(TopicPartition partition) {
    kafka.createTopics(Map.of(partition.topic(), 1));
    KafkaConsumer<byte[], byte[]> plain = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
        ConsumerConfig.GROUP_ID_CONFIG, "wake-" + UUID.randomUUID(),
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    plain.assign(List.of(partition));
    return new WakeableConsumer(plain, threads);
  }

  @Test
  void aWakeEndsAPollTheThreadWaitsIn() throws Exception {
    TopicPartition partition = new TopicPartition("wake-" + UUID.randomUUID(), 0);
    try (WakeableConsumer consumer = consumerOnAnEmptyTopic(partition)) {
      consumer.poll(Duration.ZERO); // the polling thread is known from here on
      CompletableFuture<ConsumerRecords<byte[], byte[]>> poll = CompletableFuture.supplyAsync(() -> {
        Thread.currentThread().setName("stream-thread-under-test");
        return consumer.poll(LONG_POLL);
      });
      // wake until the poll ends (a wake before the poll starts waiting makes it return at once too)
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (!poll.isDone() && System.nanoTime() < deadline) {
        consumer.wake();
        try {
          poll.get(100, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException notYet) {
          // wake again
        }
      }
      assertThat(poll).as("the poll was woken long before its timeout").isDone();
      assertThat(poll.get()).isEmpty();
      // the consumer goes on as before: its next call that blocks is not hit by the wake-up
      assertThat(consumer.position(partition)).isZero();
    }
  }

  @Test
  void aWakeBeforeThePollMakesItReturnAtOnce() {
    TopicPartition partition = new TopicPartition("wake-" + UUID.randomUUID(), 0);
    try (WakeableConsumer consumer = consumerOnAnEmptyTopic(partition)) {
      consumer.wake();
      long started = System.nanoTime();
      assertThat(consumer.poll(LONG_POLL)).isEmpty();
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(LONG_POLL.dividedBy(2));
    }
  }

  @Test
  void aWakeUpMeantForAPollThatEndedDoesNotReachTheNextBlockingCall() {
    TopicPartition partition = new TopicPartition("wake-" + UUID.randomUUID(), 0);
    try (WakeableConsumer consumer = consumerOnAnEmptyTopic(partition)) {
      consumer.poll(Duration.ZERO);
      consumer.wakeup(); // the race: the consumer's own wake-up flag set with no poll to end
      assertThat(consumer.position(partition)).isZero();
      consumer.wakeup();
      assertThatCode(() -> consumer.committed(Set.of(partition))).doesNotThrowAnyException();
    }
  }

  @Test
  void theWakerOfAThreadThatPollsWakesItsConsumer() {
    TopicPartition partition = new TopicPartition("wake-" + UUID.randomUUID(), 0);
    try (WakeableConsumer consumer = consumerOnAnEmptyTopic(partition)) {
      consumer.poll(Duration.ZERO); // this thread is now the consumer's stream thread
      threads.wakerOfCurrentThread().wake();
      long started = System.nanoTime();
      assertThat(consumer.poll(LONG_POLL)).isEmpty();
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(LONG_POLL.dividedBy(2));
    }
    // closed: the thread has no wakeable consumer any more, and its waker is a no-op
    threads.wakerOfCurrentThread().wake();
  }

  @Test
  void aStreamThreadIsFoundOnlyThroughItsOwnInstancesThreads() {
    TopicPartition partition = new TopicPartition("wake-" + UUID.randomUUID(), 0);
    StreamThreads anotherInstance = new StreamThreads();
    try (WakeableConsumer consumer = consumerOnAnEmptyTopic(partition)) {
      consumer.poll(Duration.ZERO);

      assertThat(threads.wakerOfCurrentThread()).isNotSameAs(StreamThreadWaker.NONE);
      assertThat(anotherInstance.wakerOfCurrentThread()).as("no global registry: two instances in one JVM stay apart")
          .isSameAs(StreamThreadWaker.NONE);
    }
    assertThat(threads.wakerOfCurrentThread()).as("unregistered on close").isSameAs(StreamThreadWaker.NONE);
  }

  @Test
  void aKeptPaceBoundsEveryPollUntilItIsReleased() {
    TopicPartition partition = new TopicPartition("wake-" + UUID.randomUUID(), 0);
    try (WakeableConsumer consumer = consumerOnAnEmptyTopic(partition)) {
      consumer.poll(Duration.ZERO);
      Runnable release = consumer.keepPace(Duration.ofMillis(50));
      for (int poll = 0; poll < 3; poll++) {
        long started = System.nanoTime();
        assertThat(consumer.poll(LONG_POLL)).isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(LONG_POLL.dividedBy(2));
      }
      release.run();
      // released: the poll waits its own timeout again (a short one here, so the test does not wait long)
      long started = System.nanoTime();
      consumer.poll(Duration.ofMillis(300));
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
    }
  }

  @Test
  void aClosingInstanceEndsTheLongPollAndPollsShortFromThenOn() throws Exception {
    TopicPartition partition = new TopicPartition("wake-" + UUID.randomUUID(), 0);
    try (WakeableConsumer consumer = consumerOnAnEmptyTopic(partition)) {
      consumer.poll(Duration.ZERO);
      consumer.stayAwake();
      for (int poll = 0; poll < 3; poll++) {
        long started = System.nanoTime();
        assertThat(consumer.poll(LONG_POLL)).isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(LONG_POLL.dividedBy(2));
      }
    }
  }

  @Test
  void aRebalanceKeepsTheThreadBusyWhileItSetsUpItsTasks() {
    String topic = "wake-" + UUID.randomUUID();
    kafka.createTopics(Map.of(topic, 1));
    KafkaConsumer<byte[], byte[]> plain = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
        ConsumerConfig.GROUP_ID_CONFIG, "wake-" + UUID.randomUUID(),
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    java.util.concurrent.atomic.AtomicInteger assigned = new java.util.concurrent.atomic.AtomicInteger();
    try (WakeableConsumer consumer = new WakeableConsumer(plain, threads)) {
      consumer.subscribe(List.of(topic), new org.apache.kafka.clients.consumer.ConsumerRebalanceListener() {
        @Override
        public void onPartitionsRevoked(java.util.Collection<TopicPartition> partitions) {
        }

        @Override
        public void onPartitionsAssigned(java.util.Collection<TopicPartition> partitions) {
          assigned.addAndGet(partitions.size());
        }
      });
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (assigned.get() == 0 && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(100));
      }
      assertThat(assigned.get()).as("the group assigned the partition, through the wrapped listener").isOne();
      // a wake (busy for ACTIVE_FOR) right after the rebalance must not cut its settling short: polls
      // stay short past ACTIVE_FOR
      consumer.wake();
      long until = System.nanoTime() + WakeableConsumer.ACTIVE_FOR.multipliedBy(2).toNanos();
      while (System.nanoTime() < until) {
        long started = System.nanoTime();
        assertThat(consumer.poll(LONG_POLL)).isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(LONG_POLL.dividedBy(2));
      }
    }
  }
}
