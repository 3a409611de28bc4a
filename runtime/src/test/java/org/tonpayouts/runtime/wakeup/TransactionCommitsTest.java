package org.tonpayouts.runtime.wakeup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** A stream thread's commits counted by its producer, and marks that tell what a commit covered. */
class TransactionCommitsTest {
  private static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");
  private final StreamThreads threads = new StreamThreads();

  private static MockProducer<byte[], byte[]> transactionalMock() {
    MockProducer<byte[], byte[]> mock = new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    mock.initTransactions();
    return mock;
  }

  /** Runs on a fresh thread, as a stream thread of its own (a thread's counter lives as long as the thread). */
  private static void onAFreshThread(Runnable body) throws Exception {
    CompletableFuture.runAsync(body, r -> new Thread(r, "stream-thread-under-test").start()).get(30, TimeUnit.SECONDS);
  }

  @Test
  void aMarkIsCommittedOnlyOnceATransactionCommittedAfterIt() throws Exception {
    onAFreshThread(() -> {
      CommitCountingProducer producer = new CommitCountingProducer(transactionalMock(), threads);
      producer.beginTransaction();
      producer.send(new ProducerRecord<>("payout.settlements", new byte[] {1}));
      TransactionCommits.Mark sentBefore = threads.commitMark();
      assertThat(sentBefore.committed()).as("its transaction is still open").isFalse();

      producer.commitTransaction();
      assertThat(sentBefore.committed()).isTrue();

      producer.beginTransaction();
      TransactionCommits.Mark sentAfter = threads.commitMark();
      assertThat(sentAfter.committed()).as("the commit before it does not cover it").isFalse();
      producer.commitTransaction();
      assertThat(sentAfter.committed()).isTrue();
    });
  }

  @Test
  void aFailedCommitCommitsNothing() throws Exception {
    onAFreshThread(() -> {
      MockProducer<byte[], byte[]> mock = transactionalMock();
      CommitCountingProducer producer = new CommitCountingProducer(mock, threads);
      producer.beginTransaction();
      TransactionCommits.Mark mark = threads.commitMark();
      mock.commitTransactionException = new KafkaException("the broker said no");
      assertThatThrownBy(producer::commitTransaction).isInstanceOf(KafkaException.class);
      assertThat(mark.committed()).isFalse();
    });
  }

  @Test
  void aProducerReplacedOnTheSameThreadCountsOn() throws Exception {
    onAFreshThread(() -> {
      CommitCountingProducer first = new CommitCountingProducer(transactionalMock(), threads);
      first.beginTransaction();
      first.commitTransaction();
      first.close();
      CommitCountingProducer second = new CommitCountingProducer(transactionalMock(), threads);
      second.beginTransaction();
      TransactionCommits.Mark mark = threads.commitMark();
      second.commitTransaction();
      assertThat(mark.committed()).isTrue();
    });
  }

  @Test
  void onAThreadWhoseCommitsNobodyCountsEveryMarkIsCommitted() throws Exception {
    onAFreshThread(() -> assertThat(threads.commitMark().committed()).isTrue());
  }

  @Test
  void aWaitIsOverAtItsCommitOrAtItsLimitWhicheverComesFirst() {
    boolean[] committed = {false};
    TransactionCommits.Wait wait = new TransactionCommits.Wait(() -> committed[0], NOW.plus(Duration.ofSeconds(1)));
    assertThat(wait.over(NOW)).isFalse();
    assertThat(wait.over(NOW.plusSeconds(1))).as("the limit").isTrue();
    committed[0] = true;
    assertThat(wait.over(NOW)).as("the commit").isTrue();
  }
}
