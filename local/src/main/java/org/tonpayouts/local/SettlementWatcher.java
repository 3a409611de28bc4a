package org.tonpayouts.local;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.schemas.Topics;

/**
 * Reads {@code payout.settlements} as a downstream consumer would (read_committed, from the
 * beginning) on a background thread and remembers every settlement with the time it arrived.
 */
public final class SettlementWatcher implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SettlementWatcher.class);
  private static final Duration POLL = Duration.ofMillis(100);

  private final KafkaConsumer<String, Settlement> consumer;
  private final Clock clock;
  private final Thread thread;
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final Map<TransferRef, List<ObservedSettlement>> byTransfer = new ConcurrentHashMap<>();
  private final Object arrivals = new Object();
  private volatile Throwable failure;

  private SettlementWatcher(KafkaConsumer<String, Settlement> consumer, Clock clock) {
    this.consumer = consumer;
    this.clock = clock;
    this.thread = new Thread(this::run, "settlement-watcher");
    thread.setDaemon(true);
  }

  /** Starts reading every partition of {@code payout.settlements} from its beginning. */
  public static SettlementWatcher start(String bootstrapServers, Clock clock) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString().toLowerCase());
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10);
    props.put(ConsumerConfig.CLIENT_ID_CONFIG, "payouts-settlement-watcher");
    KafkaConsumer<String, Settlement> consumer = new KafkaConsumer<>(props,
        Topics.PAYOUT_SETTLEMENTS.keySerde().deserializer(), Topics.PAYOUT_SETTLEMENTS.valueSerde().deserializer());
    List<TopicPartition> partitions = new ArrayList<>();
    consumer.partitionsFor(Topics.PAYOUT_SETTLEMENTS.name())
        .forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    SettlementWatcher watcher = new SettlementWatcher(consumer, clock);
    watcher.thread.start();
    return watcher;
  }

  private void run() {
    try {
      while (running.get()) {
        boolean any = false;
        for (ConsumerRecord<String, Settlement> record : consumer.poll(POLL)) {
          if (record.value() == null) {
            continue;
          }
          ObservedSettlement seen = new ObservedSettlement(record.value(), clock.millis());
          byTransfer.computeIfAbsent(seen.ref(), r -> new CopyOnWriteArrayList<>()).add(seen);
          any = true;
        }
        if (any) {
          synchronized (arrivals) {
            arrivals.notifyAll();
          }
        }
      }
    } catch (WakeupException e) {
      // close() asked us to stop
    } catch (RuntimeException e) {
      failure = e;
      log.error("settlement watcher stopped", e);
    } finally {
      consumer.close(Duration.ofSeconds(5));
    }
  }

  /** Every settlement seen for {@code ref}, in arrival order (more than one would break an invariant). */
  public List<ObservedSettlement> settlements(TransferRef ref) {
    return List.copyOf(byTransfer.getOrDefault(ref, List.of()));
  }

  /** How many of {@code refs} have at least one settlement. */
  public int settledCount(Collection<TransferRef> refs) {
    int n = 0;
    for (TransferRef ref : refs) {
      if (byTransfer.containsKey(ref)) {
        n++;
      }
    }
    return n;
  }

  /** For each status, how many of {@code refs} have that (first) settlement. */
  public Map<SettlementStatus, Integer> statusCounts(Collection<TransferRef> refs) {
    Map<SettlementStatus, Integer> counts = new EnumMap<>(SettlementStatus.class);
    for (SettlementStatus s : SettlementStatus.values()) {
      counts.put(s, 0);
    }
    for (TransferRef ref : refs) {
      List<ObservedSettlement> seen = byTransfer.get(ref);
      if (seen != null && !seen.isEmpty()) {
        counts.merge(seen.get(0).settlement().status(), 1, Integer::sum);
      }
    }
    return counts;
  }

  /** Transfers among {@code refs} with more than one settlement. */
  public int duplicateCount(Collection<TransferRef> refs) {
    int n = 0;
    for (TransferRef ref : refs) {
      List<ObservedSettlement> seen = byTransfer.get(ref);
      if (seen != null && seen.size() > 1) {
        n++;
      }
    }
    return n;
  }

  /** Waits up to {@code max} for the next settlement to arrive (returns early on any arrival). */
  public void awaitArrival(Duration max) throws InterruptedException {
    synchronized (arrivals) {
      arrivals.wait(Math.max(1, max.toMillis()));
    }
  }

  /** The error that stopped the reading thread, if one did. */
  public Throwable failure() {
    return failure;
  }

  @Override
  public void close() {
    if (running.compareAndSet(true, false)) {
      consumer.wakeup();
      try {
        thread.join(Duration.ofSeconds(10).toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
