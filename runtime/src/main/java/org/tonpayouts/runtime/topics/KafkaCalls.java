package org.tonpayouts.runtime.topics;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;

/**
 * Waits for an admin call with a deadline and turns "no answer" into a message naming the cluster, and
 * a refused login or right into one naming what to fix.
 */
final class KafkaCalls {
  /** Where the client settings and each principal's rights are documented. */
  private static final String GUIDE = "docs/production.md, 'Kafka over TLS and SASL, with ACLs'";

  private KafkaCalls() {}

  /**
   * The future's value; a broker-side error comes back as its cause (unwrapped from the
   * {@link ExecutionException}), an unreachable cluster as {@link KafkaUnavailableException}.
   */
  static <T> T await(KafkaFuture<T> future, Duration timeout, String what, String bootstrapServers)
      throws ExecutionException {
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new KafkaUnavailableException("no answer from Kafka at " + bootstrapServers + " within "
          + timeout.toSeconds() + " s while trying to " + what + " (is kafka.bootstrap.servers right and the broker up?)",
          e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException timeout2) {
        throw new KafkaUnavailableException("no answer from Kafka at " + bootstrapServers + " while trying to " + what
            + ": " + timeout2.getMessage() + " (is kafka.bootstrap.servers right and the broker up?)", timeout2);
      }
      if (e.getCause() instanceof AuthenticationException refused) {
        throw new KafkaAccessDeniedException("Kafka at " + bootstrapServers + " refused this process's login while"
            + " trying to " + what + ": " + refused.getMessage() + " (check kafka.security.protocol and the kafka.sasl.*"
            + " and kafka.ssl.* settings: " + GUIDE + ")", refused);
      }
      if (e.getCause() instanceof AuthorizationException denied) {
        throw new KafkaAccessDeniedException("not authorized to " + what + " on Kafka at " + bootstrapServers + ": "
            + denied.getMessage() + " (grant this process's principal the rights of " + GUIDE + ")", denied);
      }
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KafkaUnavailableException("interrupted while trying to " + what + " on Kafka at " + bootstrapServers, e);
    }
  }
}
