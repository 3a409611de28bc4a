package org.tonpayouts.runtime.topics;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.tonpayouts.runtime.KafkaClientSettings;
import org.tonpayouts.runtime.PayoutsConfig;

/** The admin client of the start-up checks and of {@code payouts topics}, with bounded waits. */
public final class AdminClients {
  /** How long an admin call may wait for Kafka before the process gives up with a message. */
  public static final Duration TIMEOUT = Duration.ofSeconds(30);
  /** Closing must not wait for calls that already gave up (Admin's own close waits for them). */
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(1);

  private AdminClients() {}

  public static Session open(PayoutsConfig config, String clientId) {
    return open(config.bootstrapServers(), config.kafkaClients(), clientId);
  }

  /** An admin client of a plaintext cluster without authentication (the local stack). */
  public static Session open(String bootstrapServers, String clientId) {
    return open(bootstrapServers, KafkaClientSettings.none(), clientId);
  }

  /** An admin client with the deployment's TLS, SASL and config-provider settings. */
  public static Session open(String bootstrapServers, KafkaClientSettings kafka, String clientId) {
    Map<String, Object> props = new HashMap<>(kafka.forAdmin());
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(AdminClientConfig.CLIENT_ID_CONFIG, clientId);
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
    props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.min(TIMEOUT.toMillis(), 15_000));
    return new Session(Admin.create(props));
  }

  /** An admin client that closes without waiting for calls nobody awaits any more. */
  public record Session(Admin admin) implements AutoCloseable {
    @Override
    public void close() {
      admin.close(CLOSE_TIMEOUT);
    }
  }
}
