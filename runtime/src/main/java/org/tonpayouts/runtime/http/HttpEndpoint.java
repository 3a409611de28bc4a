package org.tonpayouts.runtime.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The HTTP plumbing of a payout process's small endpoints (ops on {@code metrics.port}, the admin
 * API on {@code admin.port}): the JDK's own HTTP server on a few daemon threads, and one way to
 * answer. A handful of fixed paths needs no framework.
 */
public final class HttpEndpoint implements AutoCloseable {
  private final HttpServer server;
  private final ExecutorService executor;

  private HttpEndpoint(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Binds {@code port} on every interface (0 picks a free one) and serves on {@code threads} daemon
   * threads named {@code threadName}; contexts are added before {@link #start()}.
   *
   * @param key the configuration key of the port, named in the error when it cannot be bound
   */
  public static HttpEndpoint bind(int port, String key, int threads, String threadName) {
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(port), 16);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen on " + key + " " + port + ": " + e, e);
    }
    AtomicInteger count = new AtomicInteger();
    ExecutorService executor = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, threadName + "-" + count.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(executor);
    return new HttpEndpoint(server, executor);
  }

  /** Routes requests whose path starts with {@code path} to {@code handler}. */
  public HttpEndpoint context(String path, HttpHandler handler) {
    server.createContext(path, handler);
    return this;
  }

  public HttpEndpoint start() {
    server.start();
    return this;
  }

  public int port() {
    return server.getAddress().getPort();
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
