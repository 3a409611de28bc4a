package org.tonpayouts.runtime;

import java.io.IOException;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.ton.api.TonApiException;

/**
 * The one place that decides what a dead stream thread means, for every payout process: a
 * transient cause (broker, database or TON API trouble, timeouts, I/O) or a producer whose
 * transaction was aborted under it (a long pause) gets a fresh thread, which resumes from the last
 * commit; anything else (a bug, a corrupt store, a record on an internal
 * topic that cannot be read, which would otherwise be skipped and lose a verdict) stops the
 * instance, loudly, rather than loop on it or drop it. The process then exits non-zero and its
 * supervisor reports it.
 */
public final class StreamThreadFailures {
  private static final Logger log = LoggerFactory.getLogger(StreamThreadFailures.class);

  private StreamThreadFailures() {}

  /** The handler for a process whose own transient failures are recognised by {@code alsoTransient}. */
  public static StreamsUncaughtExceptionHandler handler(Predicate<Throwable> alsoTransient) {
    return e -> respond(e, alsoTransient);
  }

  static StreamThreadExceptionResponse respond(Throwable e, Predicate<Throwable> alsoTransient) {
    if (isTransactionRequestFailedByTheBroker(e)) {
      log.warn("stream thread's transaction failed at the broker (a coordinator restarting or moving: a broker"
          + " failover or a rolling restart), replacing it; the coordinator completes or aborts that transaction and"
          + " the new thread resumes from the last commit error={}", rootMessage(e));
      return StreamThreadExceptionResponse.REPLACE_THREAD;
    }
    if (isFencedProducer(e)) {
      log.warn("stream thread's transaction was aborted or its producer fenced (paused past transaction.timeout.ms or"
          + " its session: a zombie), replacing it; its tasks belong to whoever holds them now error={}",
          rootMessage(e));
      return StreamThreadExceptionResponse.REPLACE_THREAD;
    }
    if (isTransient(e, alsoTransient)) {
      log.warn("stream thread failed on a transient error, replacing it error={}", rootMessage(e), e);
      return StreamThreadExceptionResponse.REPLACE_THREAD;
    }
    log.error("stream thread failed, shutting this instance down error={}", rootMessage(e), e);
    return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
  }

  /**
   * The thread's exactly-once producer can no longer commit: the coordinator aborted its
   * transaction (the process stood still longer than {@code transaction.timeout.ms}, e.g. a long GC
   * pause or SIGSTOP; with transactions v2 the commit then fails with InvalidTxnStateException) or a
   * newer producer fenced it. Nothing of the transaction was committed; a fresh thread with a fresh
   * producer rejoins the group and resumes from the last commit, which is what Kafka Streams does
   * itself for the fencing errors it recognises (TaskMigratedException). Stopping the instance instead
   * would turn every long pause into a crash.
   */
  static boolean isFencedProducer(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof InvalidTxnStateException || t instanceof ProducerFencedException
          || t instanceof InvalidProducerEpochException) {
        return true;
      }
    }
    return false;
  }

  /**
   * A transactional request (AddPartitionsToTxn, AddOffsetsToTxn, TxnOffsetCommit, EndTxn) that the
   * broker failed with an error the producer does not map, such as UNKNOWN_SERVER_ERROR from a
   * transaction coordinator going down under a broker kill or a rolling restart: the producer raises
   * a plain {@link org.apache.kafka.common.KafkaException} "Unhandled error in ...Response" and is
   * done for. The transaction is then the coordinator's to complete or abort (read_committed
   * readers see it once, or never), as after a fencing, so a fresh thread with a fresh producer,
   * resuming from the last commit, is what keeps exactly-once; stopping the instance would turn a
   * broker restart into a crash (seen in the soak, on chain-poller, during a rolling restart).
   */
  static boolean isTransactionRequestFailedByTheBroker(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t.getClass() == org.apache.kafka.common.KafkaException.class && t.getMessage() != null
          && t.getMessage().startsWith("Unhandled error in ") && t.getMessage().contains("TxnResponse")) {
        return true;
      }
    }
    return false;
  }

  static boolean isTransient(Throwable e, Predicate<Throwable> alsoTransient) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof RetriableException || t instanceof TimeoutException || t instanceof IOException
          || t instanceof org.apache.kafka.common.errors.TimeoutException || alsoTransient.test(t)) {
        return true;
      }
      if (t instanceof TonApiException api && api.isTransient()) {
        return true;
      }
    }
    return false;
  }

  /** The innermost cause as {@code Type: message}, for one-line logs. */
  public static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getClass().getSimpleName() + ": " + t.getMessage();
  }
}
