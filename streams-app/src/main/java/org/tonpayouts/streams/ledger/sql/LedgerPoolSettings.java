package org.tonpayouts.streams.ledger.sql;

import java.time.Duration;
import java.util.Objects;
import org.tonpayouts.runtime.PayoutsConfig;

/**
 * How far the ledger's pool lets a call wait, so that a PostgreSQL that is down or frozen costs a
 * ledger call a bounded time and not a thread for as long as the outage lasts.
 *
 * @param maxPoolSize connections at most; every ledger call holds one for a few statements
 * @param connectionTimeout how long a call waits for a pooled connection (Hikari's {@code connectionTimeout});
 *     opening one connection is bounded by it too ({@link #connectTimeoutSeconds()})
 * @param socketTimeout how long a statement waits for the server's answer (pgJDBC's {@code socketTimeout});
 *     zero for no limit
 */
public record LedgerPoolSettings(int maxPoolSize, Duration connectionTimeout, Duration socketTimeout) {
  /** Hikari's lowest connection timeout: it refuses a lower one. */
  public static final Duration MIN_CONNECTION_TIMEOUT = Duration.ofMillis(250);
  /** pgJDBC's largest {@code socketTimeout}, in seconds. */
  private static final long MAX_DRIVER_SECONDS = 2_147_484L;

  public LedgerPoolSettings {
    Objects.requireNonNull(connectionTimeout, "connectionTimeout");
    Objects.requireNonNull(socketTimeout, "socketTimeout");
    if (maxPoolSize < 1) {
      throw new IllegalArgumentException("the ledger pool needs at least one connection, got " + maxPoolSize);
    }
    if (connectionTimeout.compareTo(MIN_CONNECTION_TIMEOUT) < 0) {
      throw new IllegalArgumentException("the ledger pool's connection timeout must be at least "
          + MIN_CONNECTION_TIMEOUT.toMillis() + " ms, got " + connectionTimeout.toMillis() + " ms");
    }
    if (socketTimeout.isNegative() || seconds(socketTimeout) > MAX_DRIVER_SECONDS) {
      throw new IllegalArgumentException("the ledger's socket timeout must be from 0 (none) to " + MAX_DRIVER_SECONDS
          + " s, got " + socketTimeout.toMillis() + " ms");
    }
  }

  /** {@code maxPoolSize} connections with the timeouts {@link PayoutsConfig} has unless configured. */
  public static LedgerPoolSettings defaults(int maxPoolSize) {
    return new LedgerPoolSettings(maxPoolSize, PayoutsConfig.DEFAULT_POSTGRES_CONNECTION_TIMEOUT,
        PayoutsConfig.DEFAULT_POSTGRES_SOCKET_TIMEOUT);
  }

  /** {@code maxPoolSize} connections with the configured timeouts. */
  public static LedgerPoolSettings of(PayoutsConfig config, int maxPoolSize) {
    return new LedgerPoolSettings(maxPoolSize, config.postgresConnectionTimeout(), config.postgresSocketTimeout());
  }

  /** pgJDBC's {@code socketTimeout}, which counts whole seconds: the socket timeout rounded up; 0 for none. */
  public int socketTimeoutSeconds() {
    return (int) seconds(socketTimeout);
  }

  /**
   * pgJDBC's {@code connectTimeout} (the TCP connect) and {@code loginTimeout} (connect, TLS and
   * authentication): the connection timeout rounded up to whole seconds, so that the pool gives up
   * opening a connection about when its caller gives up waiting for it, and tries a new one.
   */
  public int connectTimeoutSeconds() {
    return (int) Math.max(1, seconds(connectionTimeout));
  }

  private static long seconds(Duration d) {
    return (d.toMillis() + 999) / 1000;
  }
}
