package org.tonpayouts.runtime.ops;

import java.time.Duration;
import java.util.Collection;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Node;

/**
 * Kafka answers: the cluster describes its brokers within the timeout. Kafka Streams keeps its
 * RUNNING state while the brokers are gone (its threads retry and warn), so readiness asks the
 * cluster itself.
 */
public final class KafkaCheck implements HealthCheck {
  private final Admin admin;
  private final String bootstrapServers;
  private final Duration timeout;

  public KafkaCheck(Admin admin, String bootstrapServers, Duration timeout) {
    this.admin = Objects.requireNonNull(admin, "admin");
    this.bootstrapServers = Objects.requireNonNull(bootstrapServers, "bootstrapServers");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
  }

  @Override
  public CheckResult check() {
    try {
      Collection<Node> nodes = admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) timeout.toMillis()))
          .nodes().get(timeout.toMillis() + 500, TimeUnit.MILLISECONDS);
      return CheckResult.up(bootstrapServers + ": " + nodes.size() + (nodes.size() == 1 ? " broker" : " brokers"));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return CheckResult.down(bootstrapServers + ": interrupted");
    } catch (Exception e) {
      return CheckResult.down(bootstrapServers + ": " + CheckResult.describe(e));
    }
  }
}
