package org.tonpayouts.local.measure;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
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
import org.tonpayouts.local.audit.TransferRef;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.schemas.Topics;

/**
 * Reads {@code payout.settlements} as a downstream consumer would (read_committed) on a background
 * thread and remembers every settlement with the time it arrived.
 *
 * <p>Given the transfers a load expects, it also keeps their tally as settlements arrive: how many
 * settled, by status, and duplicates, plus the first settlement of each in arrival order. That is
 * constant work per settlement, so a launcher waiting for a large load reads its progress without
 * rescanning every transfer (which would cost the benchmark CPU that grows with the load).
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
  private final Set<TransferRef> expected;
  private final Object tallyLock = new Object();
  private final Map<SettlementStatus, Integer> firstStatusCounts = new EnumMap<>(SettlementStatus.class);
  private final List<ObservedSettlement> firstArrivals = new ArrayList<>();
  private int duplicates;
  private volatile Throwable failure;

  private SettlementWatcher(KafkaConsumer<String, Settlement> consumer, Clock clock, Set<TransferRef> expected) {
    this.consumer = consumer;
    this.clock = clock;
    this.expected = expected;
    for (SettlementStatus s : SettlementStatus.values()) {
      firstStatusCounts.put(s, 0);
    }
    this.thread = new Thread(this::run, "settlement-watcher");
    thread.setDaemon(true);
  }

  /** Starts reading every partition of {@code payout.settlements} from its beginning. */
  public static SettlementWatcher start(String bootstrapServers, Clock clock) {
    return start(bootstrapServers, clock, Set.of(), false);
  }

  /**
   * Starts reading every partition of {@code payout.settlements} from its current end (what is
   * committed now), keeping the {@link #tally()} of {@code expected}. Start it before producing the
   * load it waits for: nothing of that load is missed, and nothing of earlier loads is read again.
   */
  public static SettlementWatcher fromNow(String bootstrapServers, Clock clock, Collection<TransferRef> expected) {
    return start(bootstrapServers, clock, Set.copyOf(expected), true);
  }

  private static SettlementWatcher start(String bootstrapServers, Clock clock, Set<TransferRef> expected,
      boolean fromEnd) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString().toLowerCase());
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    // the broker answers a held fetch as soon as a transaction commits records: a long wait costs
    // no latency, while a 10 ms one asked the broker 100 times a second during the measured load
    props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 500);
    props.put(ConsumerConfig.CLIENT_ID_CONFIG, "payouts-settlement-watcher");
    KafkaConsumer<String, Settlement> consumer = new KafkaConsumer<>(props,
        Topics.PAYOUT_SETTLEMENTS.keySerde().deserializer(), Topics.PAYOUT_SETTLEMENTS.valueSerde().deserializer());
    List<TopicPartition> partitions = new ArrayList<>();
    consumer.partitionsFor(Topics.PAYOUT_SETTLEMENTS.name())
        .forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
    consumer.assign(partitions);
    if (fromEnd) {
      consumer.seekToEnd(partitions);
      // seeks are lazy: resolve the end offsets now, before the caller produces anything
      partitions.forEach(consumer::position);
    } else {
      consumer.seekToBeginning(partitions);
    }
    SettlementWatcher watcher = new SettlementWatcher(consumer, clock, expected);
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
          ObservedSettlement seen = new ObservedSettlement(record.value(), clock.millis(), record.timestamp());
          List<ObservedSettlement> all = byTransfer.computeIfAbsent(seen.ref(), r -> new CopyOnWriteArrayList<>());
          all.add(seen);
          count(seen, all.size());
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

  /** Adds one settlement of an expected transfer to the tally: constant work. */
  private void count(ObservedSettlement seen, int nth) {
    if (!expected.contains(seen.ref())) {
      return;
    }
    synchronized (tallyLock) {
      if (nth == 1) {
        firstStatusCounts.merge(seen.settlement().status(), 1, Integer::sum);
        firstArrivals.add(seen);
      } else if (nth == 2) {
        duplicates++;
      }
    }
  }

  /**
   * How the expected transfers stand (constant time).
   *
   * @param expected transfers the load expects
   * @param settled of them, those with at least one settlement
   * @param statusCounts of them, how many have each status as their first settlement
   * @param duplicates of them, those with more than one settlement
   */
  public record Tally(int expected, int settled, Map<SettlementStatus, Integer> statusCounts, int duplicates) {
    public int missing() {
      return expected - settled;
    }
  }

  /** The tally of the expected transfers ({@link #fromNow}); all zero without any. */
  public Tally tally() {
    synchronized (tallyLock) {
      return new Tally(expected.size(), firstArrivals.size(), new EnumMap<>(firstStatusCounts), duplicates);
    }
  }

  /** The first settlement of each expected transfer that has one, in arrival order. */
  public List<ObservedSettlement> firstArrivals() {
    synchronized (tallyLock) {
      return List.copyOf(firstArrivals);
    }
  }

  /** Every settlement seen for {@code ref}, in arrival order (more than one would break an invariant). */
  public List<ObservedSettlement> settlements(TransferRef ref) {
    return List.copyOf(byTransfer.getOrDefault(ref, List.of()));
  }

  /** How many of {@code refs} have at least one settlement (looks at every ref: for tests, not a waiting loop). */
  public int settledCount(Collection<TransferRef> refs) {
    int n = 0;
    for (TransferRef ref : refs) {
      if (byTransfer.containsKey(ref)) {
        n++;
      }
    }
    return n;
  }

  /** For each status, how many of {@code refs} have that (first) settlement (looks at every ref). */
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

  /** Transfers among {@code refs} with more than one settlement (looks at every ref). */
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
