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
import java.util.List;
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

  public ProcessMetrics(String application) {
    registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    registry.config().commonTags(APPLICATION_TAG, application);
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
  public void bind(KafkaStreams streams) {
    KafkaStreamsMetrics metrics = new KafkaStreamsMetrics(streams);
    metrics.bindTo(registry);
    binders.add(metrics);
  }

  /** The registry in the Prometheus text format, what {@code /metrics} answers. */
  public String scrape() {
    return registry.scrape();
  }

  @Override
  public void close() {
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
