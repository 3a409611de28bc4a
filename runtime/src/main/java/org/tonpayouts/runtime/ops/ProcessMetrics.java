package org.tonpayouts.runtime.ops;

import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one meter registry of a payout process: Prometheus, with the JVM's meters bound and every
 * meter tagged {@code application=<process>}. The apps' own metric classes ({@code PayoutMetrics},
 * {@code PollerMetrics}), the TON API client, Kafka Streams and HikariCP register here, and
 * {@link OpsServer} serves it as Prometheus text.
 */
public final class ProcessMetrics implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ProcessMetrics.class);
  public static final String APPLICATION_TAG = "application";

  private final PrometheusMeterRegistry registry;
  private final List<AutoCloseable> binders = new ArrayList<>();
  private final AtomicLong registrationFailures = new AtomicLong();
  /** Each bound Kafka Streams instance's binder: replaced when it is bound again. */
  private final Map<KafkaStreams, KafkaStreamsMetrics> streamsMeters = new IdentityHashMap<>();

  public ProcessMetrics(String application) {
    registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    registry.config().commonTags(APPLICATION_TAG, application);
    registry.config().meterFilter(new StateStoreTags());
    registry.config().onMeterRegistrationFailed((id, reason) -> {
      registrationFailures.incrementAndGet();
      log.warn("meter not registered name={} tags={} reason={}", id.getName(), id.getTags(), reason);
    });
    new ClassLoaderMetrics().bindTo(registry);
    new JvmMemoryMetrics().bindTo(registry);
    JvmGcMetrics gc = new JvmGcMetrics();
    gc.bindTo(registry);
    binders.add(gc);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    new FileDescriptorMetrics().bindTo(registry);
  }

  public PrometheusMeterRegistry registry() {
    return registry;
  }

  /** Binds the client metrics of a Kafka Streams instance (threads, tasks, consumers, producers). */
  public synchronized void bind(KafkaStreams streams) {
    KafkaStreamsMetrics previous = streamsMeters.remove(streams);
    if (previous != null) {
      previous.close(); // removes its meters; the fresh binder below registers what exists now
    }
    KafkaStreamsMetrics metrics = new KafkaStreamsMetrics(streams);
    metrics.bindTo(registry);
    streamsMeters.put(streams, metrics);
  }

  /**
   * Call on every state change of a bound Kafka Streams instance. Its task and state-store meters
   * exist only once it is RUNNING (after each rebalance: a restart, a task moved), and the binder
   * looks for new Kafka meters only once a minute; binding again on RUNNING serves them at once.
   * Once the instance has stopped its binder is closed (it removes the meters it registered; a few
   * may stay, reading NaN, until the process binds again).
   */
  public void onStateChange(KafkaStreams streams, KafkaStreams.State now) {
    if (now == KafkaStreams.State.RUNNING) {
      bind(streams);
    } else if (now == KafkaStreams.State.NOT_RUNNING || now == KafkaStreams.State.ERROR) {
      unbind(streams);
    }
  }

  private synchronized void unbind(KafkaStreams streams) {
    KafkaStreamsMetrics binder = streamsMeters.remove(streams);
    if (binder != null) {
      binder.close();
    }
  }

  /** How many meters the registry refused since the start (each is missing from {@code /metrics}). */
  public long registrationFailures() {
    return registrationFailures.get();
  }

  /** The registry in the Prometheus text format, what {@code /metrics} answers. */
  public String scrape() {
    return registry.scrape();
  }

  @Override
  public synchronized void close() {
    binders.addAll(streamsMeters.values());
    streamsMeters.clear();
    for (AutoCloseable binder : binders) {
      try {
        binder.close();
      } catch (Exception e) {
        log.warn("could not close a meter binder binder={} error={}", binder.getClass().getSimpleName(), e.toString());
      }
    }
    registry.close();
  }
}
