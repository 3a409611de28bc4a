package org.tonpayouts.runtime.topics;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.tonpayouts.runtime.PayoutsConfig;

/** The admin client of the start-up checks and of {@code payouts topics}, with bounded waits. */
public final class AdminClients {
  /** How long an admin call may wait for Kafka before the process gives up with a message. */
  public static final Duration TIMEOUT = Duration.ofSeconds(30);
  /** Closing must not wait for calls that already gave up (Admin's own close waits for them). */
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(1);

  private AdminClients() {}

  public static Session open(PayoutsConfig config, String clientId) {
    return open(config.bootstrapServers(), clientId);
  }

  public static Session open(String bootstrapServers, String clientId) {
    return new Session(Admin.create(Map.of(
        AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        AdminClientConfig.CLIENT_ID_CONFIG, clientId,
        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis(),
        AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.min(TIMEOUT.toMillis(), 15_000))));
  }

  /** An admin client that closes without waiting for calls nobody awaits any more. */
  public record Session(Admin admin) implements AutoCloseable {
    @Override
    public void close() {
      admin.close(CLOSE_TIMEOUT);
    }
  }
}
