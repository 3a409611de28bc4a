package org.tonpayouts.runtime.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.StartupException;

/**
 * The HTTP plumbing of a payout process's small endpoints (ops on {@code metrics.port}, the admin
 * API on {@code admin.port}): the JDK's own HTTP(S) server on the configured address, within
 * {@link HttpLimits}, and one way to answer. A handful of fixed paths needs no framework.
 */
public final class HttpEndpoint implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(HttpEndpoint.class);
  /** Connections waiting to be accepted; beyond {@link HttpLimits#maxConnections()} they are closed anyway. */
  private static final int BACKLOG = 50;

  private final HttpServer server;
  private final ThreadPoolExecutor executor;
  private final String name;

  private HttpEndpoint(HttpServer server, ThreadPoolExecutor executor, String name) {
    this.server = server;
    this.executor = executor;
    this.name = name;
  }

  /**
   * Listens on {@code binding} (HTTPS when {@code tls} is given), with {@code limits} installed for
   * the process first; requests are served on up to {@link HttpLimits#maxConnections()} daemon
   * threads named {@code name}, started on demand. Contexts are added before {@link #start()}.
   *
   * @throws StartupException naming the address and port keys when it cannot listen
   */
  public static HttpEndpoint bind(HttpBinding binding, HttpLimits limits, Optional<ServerTls> tls, String name) {
    limits.install();
    HttpServer server;
    try {
      if (tls.isPresent()) {
        HttpsServer https = HttpsServer.create(binding.socketAddress(), BACKLOG);
        ServerTls serverTls = tls.get();
        https.setHttpsConfigurator(new HttpsConfigurator(serverTls.context()) {
          @Override
          public void configure(HttpsParameters params) {
            params.setSSLParameters(serverTls.parameters());
          }
        });
        server = https;
      } else {
        server = HttpServer.create(binding.socketAddress(), BACKLOG);
      }
    } catch (IOException e) {
      throw new StartupException("cannot listen on " + binding.addressKey() + " " + binding.address() + " "
          + binding.portKey() + " " + binding.port() + ": " + e + " (another process on the port, or not an address"
          + " of this machine)", e);
    }
    AtomicInteger count = new AtomicInteger();
    // as many threads as connections: the JDK's server reads a request on its handler thread, so a
    // client that sends slowly holds one until the request timeout, never one another client needs
    ThreadPoolExecutor executor = new ThreadPoolExecutor(limits.maxConnections(), limits.maxConnections(), 30,
        TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
          Thread t = new Thread(r, name + "-" + count.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
    executor.allowCoreThreadTimeOut(true);
    server.setExecutor(executor);
    return new HttpEndpoint(server, executor, name);
  }

  /**
   * Routes requests whose path starts with {@code path} to {@code handler}. A handler that throws
   * is answered 500 with a short JSON error; the exception goes to the log, never to the client.
   */
  public HttpEndpoint context(String path, HttpHandler handler) {
    server.createContext(path, exchange -> {
      try {
        handler.handle(exchange);
      } catch (IOException e) {
        // the client went away or the connection was cut at its deadline: nothing to answer
        log.debug("http exchange ended endpoint={} error={}", name, e.toString());
        exchange.close();
      } catch (RuntimeException e) {
        log.error("http handler failed endpoint={} method={} path={}", name, exchange.getRequestMethod(),
            exchange.getRequestURI().getRawPath(), e);
        failed(exchange);
      }
    });
    return this;
  }

  private static void failed(HttpExchange exchange) {
    try {
      respond(exchange, 500, "application/json", "{\"status\":500,\"error\":\"internal error; see the log\"}");
    } catch (IOException | RuntimeException e) {
      exchange.close(); // headers were already sent: all that is left is to end the exchange
    }
  }

  public HttpEndpoint start() {
    server.start();
    return this;
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** The address and port it listens on. */
  public java.net.InetSocketAddress address() {
    return server.getAddress();
  }

  /** Answers with {@code body} as UTF-8 (no body for HEAD) and closes the exchange. */
  public static void respond(HttpExchange exchange, int status, String contentType, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", contentType);
    exchange.getResponseHeaders().set("Cache-Control", "no-store");
    boolean head = "HEAD".equalsIgnoreCase(exchange.getRequestMethod());
    exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      if (!head) {
        out.write(bytes);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
