package org.tonpayouts.local.stack;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.common.GroupState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The two payout processes of the local stack, streams-app and chain-poller, as child JVMs: started
 * together, ready when both consumer groups are stable, stopped together (chain-poller first, so
 * streams-app can still commit what it was doing).
 */
public final class StackProcesses implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(StackProcesses.class);
  private static final Duration CHECK_EVERY = Duration.ofMillis(250);

  private final List<ChildProcess> children;
  private final Map<String, String> groupByChild;

  private StackProcesses(List<ChildProcess> children, Map<String, String> groupByChild) {
    this.children = children;
    this.groupByChild = groupByChild;
  }

  /**
   * Starts the children.
   *
   * @param groupByChild the Kafka Streams application id (consumer group) of each child, by name
   */
  public static StackProcesses start(List<ChildSpec> specs, Map<String, String> groupByChild) {
    List<ChildProcess> started = new ArrayList<>();
    try {
      for (ChildSpec spec : specs) {
        started.add(ChildProcess.start(spec));
      }
    } catch (RuntimeException e) {
      started.forEach(ChildProcess::close);
      throw e;
    }
    return new StackProcesses(new ArrayList<>(started), Map.copyOf(groupByChild));
  }

  public synchronized List<ChildProcess> children() {
    return List.copyOf(children);
  }

  /** A child that has exited (none should while the stack runs). */
  public synchronized Optional<ChildProcess> firstDead() {
    return children.stream().filter(c -> !c.isAlive()).findFirst();
  }

  /**
   * Stops the child {@code name} with SIGTERM (a clean close: it commits and leaves its group) and
   * starts it again from the same spec, the way an operator restarts one process.
   *
   * @return the new child
   */
  public synchronized ChildProcess restart(String name) {
    for (int i = 0; i < children.size(); i++) {
      ChildProcess old = children.get(i);
      if (old.name().equals(name)) {
        old.close();
        ChildProcess fresh = ChildProcess.start(old.spec());
        children.set(i, fresh);
        return fresh;
      }
    }
    throw new IllegalArgumentException("no child named " + name);
  }

  /** The child called {@code name} (its current process: a relaunched child is the new one). */
  public synchronized ChildProcess child(String name) {
    return children.stream().filter(c -> c.name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no child named " + name));
  }

  /**
   * Starts the child {@code name} again from the same spec after it died (a kill, a crash), the
   * way a supervisor restarts a process: same configuration, same state directory (whatever is
   * left in it).
   *
   * @return the new child
   * @throws IllegalStateException if the child is still running
   */
  public synchronized ChildProcess relaunch(String name) {
    for (int i = 0; i < children.size(); i++) {
      ChildProcess old = children.get(i);
      if (old.name().equals(name)) {
        if (old.isAlive()) {
          throw new IllegalStateException(name + " pid " + old.pid() + " is still running");
        }
        ChildProcess fresh = ChildProcess.start(old.spec());
        children.set(i, fresh);
        return fresh;
      }
    }
    throw new IllegalArgumentException("no child named " + name);
  }

  /**
   * Waits until every child's consumer group is stable with members, i.e. its stream threads have
   * their partitions and process records.
   *
   * @throws IllegalStateException when a child exits or the deadline passes
   */
  public void awaitReady(Admin admin, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Optional<ChildProcess> dead = firstDead();
      if (dead.isPresent()) {
        throw new IllegalStateException(dead.get().name() + " exited with code " + dead.get().exitCode().orElse(-1)
            + " while starting; last lines of " + dead.get().spec().logFile() + ":\n  "
            + String.join("\n  ", dead.get().tail(15)));
      }
      if (allGroupsStable(admin) && allChildrenReady()) {
        log.info("children ready groups={}", groupByChild.values());
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("streams-app and chain-poller were not ready within " + timeout.toSeconds()
            + " s; see their logs");
      }
      Thread.sleep(CHECK_EVERY.toMillis());
    }
  }

  /** Every child with a metrics port answers 200 on {@code /health/ready}. */
  private boolean allChildrenReady() {
    for (ChildProcess child : children()) {
      if (child.spec().metricsPort() != 0 && !Http.isOk(child.spec().opsUrl("/health/ready"))) {
        return false;
      }
    }
    return true;
  }

  private boolean allGroupsStable(Admin admin) {
    try {
      Map<String, ConsumerGroupDescription> groups = admin.describeConsumerGroups(
          groupByChild.values().stream().distinct().toList())
          .all().get(5, TimeUnit.SECONDS);
      return groups.values().stream().allMatch(g -> g.groupState() == GroupState.STABLE && !g.members().isEmpty()
          && g.members().stream().allMatch(m -> !m.assignment().topicPartitions().isEmpty()));
    } catch (ExecutionException | TimeoutException e) {
      // the group does not exist yet, or the coordinator is still loading: ask again
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Stops chain-poller, then streams-app. Idempotent. */
  @Override
  public void close() {
    List<ChildProcess> reversed = new ArrayList<>(children());
    java.util.Collections.reverse(reversed);
    for (ChildProcess child : reversed) {
      child.close();
    }
  }
}
