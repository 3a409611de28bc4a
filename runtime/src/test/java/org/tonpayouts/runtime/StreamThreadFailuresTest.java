package org.tonpayouts.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.sql.SQLException;
import java.util.concurrent.CompletionException;
import java.util.function.Predicate;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.junit.jupiter.api.Test;
import org.tonpayouts.ton.api.RateLimitedException;
import org.tonpayouts.ton.api.UnexpectedResponseException;

/** What a dead stream thread leads to: a new thread for transient trouble, a stop for anything else. */
class StreamThreadFailuresTest {
  private static final Predicate<Throwable> NONE = t -> false;

  @Test
  void shouldReplaceTheThreadOnTransientCauses() {
    assertThat(StreamThreadFailures.respond(
        new StreamsException(new org.apache.kafka.common.errors.TimeoutException("broker")), NONE))
        .isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
    assertThat(StreamThreadFailures.respond(new StreamsException(new CompletionException(
        new RateLimitedException("getTransactions", 429, "slow down", null))), NONE))
        .isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
    assertThat(StreamThreadFailures.respond(new StreamsException(new IOException("reset")), NONE))
        .isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
  }

  @Test
  void shouldReplaceTheThreadWhenItsTransactionWasAbortedUnderItOrItsProducerFenced() {
    // what the commit of a streams-app resumed after a SIGSTOP longer than transaction.timeout.ms throws (the soak)
    StreamsException abortedUnderIt = new StreamsException("Error encountered trying to commit a transaction",
        new InvalidTxnStateException("The producer attempted a transactional operation in an invalid state."));
    assertThat(StreamThreadFailures.respond(abortedUnderIt, NONE))
        .isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
    assertThat(StreamThreadFailures.respond(new StreamsException(new ProducerFencedException("newer epoch")), NONE))
        .isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
    assertThat(StreamThreadFailures.respond(new StreamsException(new InvalidProducerEpochException("old")), NONE))
        .isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
  }

  /** What chain-poller's commit threw when a transaction coordinator went down in the soak's rolling restart. */
  @Test
  void shouldReplaceTheThreadWhenTheBrokerFailedItsTransactionRequest() {
    StreamsException endTxnFailed = new StreamsException("Error encountered trying to commit a transaction",
        new org.apache.kafka.common.KafkaException("Unhandled error in EndTxnResponse: The server experienced an"
            + " unexpected error when processing the request."));
    assertThat(StreamThreadFailures.respond(endTxnFailed, NONE)).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
    assertThat(StreamThreadFailures.respond(new StreamsException(new org.apache.kafka.common.KafkaException(
        "Unhandled error in AddOffsetsToTxnResponse: boom")), NONE))
        .isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
    assertThat(StreamThreadFailures.respond(new StreamsException(new org.apache.kafka.common.KafkaException(
        "something else went wrong")), NONE)).as("not any KafkaException")
        .isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
  }

  @Test
  void shouldAskTheProcessAboutItsOwnTransientFailures() {
    RuntimeException databaseDown = new IllegalStateException("ledger", new SQLException("connection refused"));
    assertThat(StreamThreadFailures.respond(new StreamsException(databaseDown), t -> t instanceof SQLException))
        .isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
    assertThat(StreamThreadFailures.respond(new StreamsException(databaseDown), NONE))
        .isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
  }

  @Test
  void shouldShutDownOnEverythingElse() {
    assertThat(StreamThreadFailures.respond(new StreamsException(new IllegalStateException("bug")), NONE))
        .isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
    assertThat(StreamThreadFailures.respond(
        new StreamsException(new UnexpectedResponseException("getTransactions", "junk")), NONE))
        .isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
    assertThat(StreamThreadFailures.respond(new SerializationException("unreadable confirmation"), NONE))
        .isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
  }
}
