package org.tonpayouts.local.soak;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.local.audit.ExpectedTransfer;
import org.tonpayouts.local.audit.TransferRef;
import org.tonpayouts.local.measure.ProducedRequests;
import org.tonpayouts.local.measure.SettlementWatcher;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.Topics;

/**
 * Produces a {@link SoakLoad} to {@code payout.requests} as producer services would, spread over
 * the load window on its own thread, so the chaos meets transfers in every state. A reused
 * requestId meant for another wallet waits until its original has settled.
 */
final class SoakProducer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SoakProducer.class);
  private static final Duration STEP = Duration.ofMillis(20);

  private final SoakLoad load;
  private final Duration window;
  private final SettlementWatcher watcher;
  private final KafkaProducer<String, PayoutRequest> producer;
  private final Clock clock;
  private final Thread thread;
  private final Map<String, List<TransferRef>> refsByRequest;
  private final AtomicInteger produced = new AtomicInteger();
  private final AtomicBoolean[] taken;
  private volatile long startedMillis;
  private volatile long finishedMillis;
  private volatile Throwable failure;
  private volatile boolean stopped;

  /** The load it produces. */
  SoakLoad load() {
    return load;
  }

  SoakProducer(SoakLoad load, Duration window, String bootstrapServers, SettlementWatcher watcher, Clock clock) {
    this.load = load;
    this.window = window;
    this.watcher = watcher;
    this.clock = clock;
    this.taken = new AtomicBoolean[load.plan().size()];
    for (int i = 0; i < taken.length; i++) {
      taken[i] = new AtomicBoolean();
    }
    this.refsByRequest = load.expected().stream().collect(Collectors.groupingBy(ExpectedTransfer::requestId,
        Collectors.mapping(ExpectedTransfer::ref, Collectors.toList())));
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    props.put(ProducerConfig.CLIENT_ID_CONFIG, "payouts-soak-load");
    this.producer = new KafkaProducer<>(props, Topics.PAYOUT_REQUESTS.keySerde().serializer(),
        new ProducedRequests());
    this.thread = new Thread(this::run, "soak-producer");
    thread.setDaemon(true);
  }

  void start() {
    startedMillis = clock.millis();
    thread.start();
  }

  private void run() {
    List<SoakLoad.Planned> waiting = new ArrayList<>();
    try {
      for (int i = 0; i < load.plan().size(); i++) {
        SoakLoad.Planned p = load.plan().get(i);
        long due = startedMillis + (long) (p.at() * window.toMillis());
        while (clock.millis() < due && !stopped) {
          produceSettledOriginals(waiting);
          Thread.sleep(Math.min(STEP.toMillis(), Math.max(1, due - clock.millis())));
        }
        if (stopped) {
          return;
        }
        if (p.afterOriginalSettled()) {
          waiting.add(p);
        } else {
          sendOnce(i);
        }
      }
      producer.flush();
      finishedMillis = clock.millis();
      log.info("soak load produced records={} waiting_for_originals={}", produced.get(), waiting.size());
      while (!waiting.isEmpty() && !stopped) {
        produceSettledOriginals(waiting);
        Thread.sleep(STEP.toMillis() * 10);
      }
      producer.flush();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      failure = e;
      log.error("soak producer stopped", e);
    }
  }

  private void produceSettledOriginals(List<SoakLoad.Planned> waiting) {
    waiting.removeIf(p -> {
      List<TransferRef> refs = refsByRequest.getOrDefault(p.originalId(), List.of());
      if (watcher.settledCount(refs) < refs.size()) {
        return false;
      }
      send(p);
      return true;
    });
  }

  /**
   * Produces now, ahead of its moment, the next planned request of each of {@code subwallets} (a
   * request to pay, not a copy): the same load, only earlier, so that those wallets have work at
   * once. Requests of one wallet keep their order.
   *
   * @return how many were produced early
   */
  int produceEarly(Set<Long> subwallets) {
    int n = 0;
    Set<Long> left = new HashSet<>(subwallets);
    for (int i = 0; i < load.plan().size() && !left.isEmpty(); i++) {
      SoakLoad.Planned p = load.plan().get(i);
      long wallet = p.request().subwalletId();
      if (left.contains(wallet) && !p.afterOriginalSettled() && (p.kind() == SoakLoad.Kind.PAYOUT
          || p.kind() == SoakLoad.Kind.OVER_BALANCE) && !taken[i].get()) {
        left.remove(wallet);
        if (sendOnce(i)) {
          n++;
        }
      }
    }
    return n;
  }

  /** Sends plan entry {@code i} unless it was sent already; one lock keeps each wallet's requests in order. */
  private boolean sendOnce(int i) {
    synchronized (taken) {
      if (taken[i].getAndSet(true)) {
        return false;
      }
      send(load.plan().get(i));
      return true;
    }
  }

  private void send(SoakLoad.Planned p) {
    PayoutRequest r = p.request();
    producer.send(new ProducerRecord<>(Topics.PAYOUT_REQUESTS.name(), Topics.walletKey(r.subwalletId()), r),
        (meta, e) -> {
          if (e != null) {
            failure = e;
            log.error("cannot produce request={} kind={}", r.requestId(), p.kind(), e);
          }
        });
    produced.incrementAndGet();
    log.info("soak request produced request={} subwallet={} kind={} transfers={}", r.requestId(), r.subwalletId(),
        p.kind(), r.transfers().size());
  }

  /** Records produced so far. */
  int produced() {
    return produced.get();
  }

  /** When the last record of the window was produced; 0 while it has not been. */
  long finishedMillis() {
    return finishedMillis;
  }

  boolean done() {
    return !thread.isAlive();
  }

  Throwable failure() {
    return failure;
  }

  @Override
  public void close() {
    stopped = true;
    try {
      thread.join(Duration.ofSeconds(10).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    producer.close(Duration.ofSeconds(5));
  }
}
