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
 * cluster itself. It shows the number of brokers or the kind of failure, never their addresses.
 */
public final class KafkaCheck implements HealthCheck {
  private final Admin admin;
  private final Duration timeout;

  public KafkaCheck(Admin admin, Duration timeout) {
    this.admin = Objects.requireNonNull(admin, "admin");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
  }

  @Override
  public CheckResult check() {
    try {
      Collection<Node> nodes = admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) timeout.toMillis()))
          .nodes().get(timeout.toMillis() + 500, TimeUnit.MILLISECONDS);
      return CheckResult.up(nodes.size() + (nodes.size() == 1 ? " broker" : " brokers"));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return CheckResult.down("interrupted");
    } catch (Exception e) {
      return CheckResult.down(e);
    }
  }
}
