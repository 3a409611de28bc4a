package org.tonpayouts.poller;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.concurrent.CompletionException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.junit.jupiter.api.Test;
import org.tonpayouts.ton.api.RateLimitedException;
import org.tonpayouts.ton.api.UnexpectedResponseException;

/** What a dead stream thread leads to: a new thread for transient trouble, a stop for anything else. */
class ChainPollerTest {

  @Test
  void shouldReplaceTheThreadOnTransientCauses() {
    assertThat(ChainPoller.onUncaught(new StreamsException(new org.apache.kafka.common.errors.TimeoutException("broker"))))
        .isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
    assertThat(ChainPoller.onUncaught(new StreamsException(new CompletionException(
        new RateLimitedException("getTransactions", 429, "slow down", null)))))
        .isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
    assertThat(ChainPoller.onUncaught(new StreamsException(new IOException("reset"))))
        .isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
  }

  @Test
  void shouldShutDownOnEverythingElse() {
    assertThat(ChainPoller.onUncaught(new StreamsException(new IllegalStateException("bug"))))
        .isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
    assertThat(ChainPoller.onUncaught(new StreamsException(new UnexpectedResponseException("getTransactions", "junk"))))
        .isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
    assertThat(ChainPoller.onUncaught(new SerializationException("bad store value")))
        .isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
  }
}
