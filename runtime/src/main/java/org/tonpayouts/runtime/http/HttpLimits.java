package org.tonpayouts.runtime.http;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.PayoutsConfig;

/**
 * How long a client may take and how many connections it may hold on a process's HTTP surfaces.
 *
 * <p>The JDK's server reads a slow client's request line and headers on a handler thread, and by
 * default without any deadline: a few clients that send half a request would hold every thread, and
 * {@code /health} with them. Its limits are system properties it reads once, when the first server
 * of the process is created ({@code sun.net.httpserver.ServerConfig}), so {@link #install()} sets
 * them before that, and {@link HttpEndpoint} gives each surface as many threads as it takes
 * connections: a connection never waits for a thread another one holds.
 *
 * @param requestTimeout the time a request may take to arrive whole, and an idle connection may stay
 * @param maxConnections open connections per surface; beyond it new ones are closed at once
 */
public record HttpLimits(Duration requestTimeout, int maxConnections) {
  private static final Logger log = LoggerFactory.getLogger(HttpLimits.class);
  /**
   * The time a handler's answer may take to be written, from the end of the request: longer than
   * the slowest admin call (a chain check waits for the TON API's retries), short enough that a
   * client that never reads its answer frees its thread.
   */
  static final Duration RESPONSE_TIMEOUT = Duration.ofSeconds(120);
  /** How often the JDK's server looks for connections past a deadline; its default (10 s) would stretch them. */
  private static final long TIMER_MILLIS = 1_000;
  private static HttpLimits installed;

  public HttpLimits {
    if (requestTimeout.toSeconds() < 1) {
      throw new IllegalArgumentException("requestTimeout must be at least 1 s, got " + requestTimeout);
    }
    if (maxConnections < 1) {
      throw new IllegalArgumentException("maxConnections must be at least 1, got " + maxConnections);
    }
  }

  /** {@code http.request.timeout.seconds} and {@code http.max.connections}. */
  public static HttpLimits of(PayoutsConfig config) {
    return new HttpLimits(config.httpRequestTimeout(), config.httpMaxConnections());
  }

  /** The defaults of the configuration keys. */
  public static HttpLimits defaults() {
    return of(new PayoutsConfig(Map.of()));
  }

  /**
   * Sets the JDK server's limits for this process, once: the first call wins (the JDK reads them
   * once), a later one with other values is logged and ignored. A property the operator set on the
   * command line ({@code -Dsun.net.httpserver.maxReqTime=...}) is kept.
   */
  public void install() {
    synchronized (HttpLimits.class) {
      if (installed != null) {
        if (!installed.equals(this)) {
          log.warn("http limits already set for this process, keeping them in_effect={} ignored={}", installed, this);
        }
        return;
      }
      Map<String, String> properties = new LinkedHashMap<>();
      properties.put("sun.net.httpserver.maxReqTime", Long.toString(requestTimeout.toSeconds()));
      properties.put("sun.net.httpserver.idleInterval", Long.toString(requestTimeout.toSeconds()));
      properties.put("sun.net.httpserver.maxRspTime", Long.toString(RESPONSE_TIMEOUT.toSeconds()));
      properties.put("sun.net.httpserver.clockTick", Long.toString(TIMER_MILLIS));
      properties.put("sun.net.httpserver.timerMillis", Long.toString(TIMER_MILLIS));
      properties.put("jdk.httpserver.maxConnections", Integer.toString(maxConnections));
      properties.forEach((name, value) -> {
        String given = System.getProperty(name);
        if (given == null) {
          System.setProperty(name, value);
        } else if (!given.equals(value)) {
          log.info("http limit set on the command line kept property={} value={} configured={}", name, given, value);
        }
      });
      installed = this;
      log.info("http limits request_timeout_s={} response_timeout_s={} max_connections={}", requestTimeout.toSeconds(),
          RESPONSE_TIMEOUT.toSeconds(), maxConnections);
    }
  }
}
