package org.tonpayouts.devnet;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TON API node gone bad, in front of a good one (devnet): the next calls it is told to spoil get a
 * hostile answer (an endless body, a huge Content-Length, endless nesting, a slow drip, an HTML page),
 * every other call is forwarded as it came. What a faulty node, a captive portal or someone on the
 * path could send; tests use it to show the client fails each such call alone and in bounded time
 * and memory, and that a pipeline reading through it settles once it behaves.
 */
public final class HostileProxy implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(HostileProxy.class);
  private static final byte[] CHUNK = filled(64 * 1024, (byte) 'A');
  private static final Duration DRIP_INTERVAL = Duration.ofMillis(50);
  private static final Duration DRIP_LIMIT = Duration.ofSeconds(60);

  /** How a spoiled call is answered. */
  public enum Answer {
    /** 200, application/json, a string that never ends (up to {@link #endlessBytes}), chunked, no length. */
    ENDLESS_BODY,
    /** 200 with a Content-Length of 1 GiB; a few bytes follow, then the connection closes. */
    HUGE_CONTENT_LENGTH,
    /** 200, application/json, 100,000 nested arrays (about 200 KB). */
    ENDLESS_NESTING,
    /** 200, application/json, the envelope's start, then one byte every 50 ms for up to a minute. */
    SLOW_DRIP,
    /** 200, text/html: a captive portal's sign-in page. */
    HTML_PAGE
  }

  private final URI target;
  private final HttpServer server;
  private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "hostile-proxy");
    t.setDaemon(true);
    return t;
  });
  private final HttpClient forwarder = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final Deque<Answer> spoiled = new ArrayDeque<>();
  private final AtomicLong hostileAnswers = new AtomicLong();
  private final AtomicLong forwarded = new AtomicLong();
  private final AtomicLong hostileBytesWritten = new AtomicLong();
  private final long endlessBytes;
  private volatile boolean closed;

  private HostileProxy(URI target, long endlessBytes) throws IOException {
    this.target = target;
    this.endlessBytes = endlessBytes;
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  /** A proxy on a loopback port forwarding to {@code target} (e.g. devnet's base URL); endless bodies stop at 256 MiB. */
  public static HostileProxy start(URI target) {
    return start(target, 256L * 1024 * 1024);
  }

  /** As {@link #start(URI)}, an endless body being {@code endlessBytes} long. */
  public static HostileProxy start(URI target, long endlessBytes) {
    try {
      return new HostileProxy(Objects.requireNonNull(target, "target"), endlessBytes);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the hostile proxy", e);
    }
  }

  /** {@code http://127.0.0.1:port}, to configure a client with. */
  public URI baseUrl() {
    return URI.create("http://" + server.getAddress().getAddress().getHostAddress() + ":" + server.getAddress().getPort());
  }

  /** Spoils the next {@code calls} calls, answering them with {@code answers} in turn. */
  public synchronized HostileProxy spoilNext(int calls, Answer... answers) {
    List<Answer> rotation = Arrays.asList(answers);
    for (int i = 0; i < calls; i++) {
      spoiled.addLast(rotation.get(i % rotation.size()));
    }
    return this;
  }

  /** Calls still to be spoiled. */
  public synchronized int spoiledLeft() {
    return spoiled.size();
  }

  /** Calls answered with a hostile answer so far. */
  public long hostileAnswers() {
    return hostileAnswers.get();
  }

  /** Calls forwarded to the good node so far. */
  public long forwarded() {
    return forwarded.get();
  }

  /** Bytes of hostile bodies the proxy got onto the wire before the client hung up. */
  public long hostileBytesWritten() {
    return hostileBytesWritten.get();
  }

  private synchronized Answer nextSpoiled() {
    return spoiled.pollFirst();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      Answer answer = nextSpoiled();
      if (answer == null) {
        forward(exchange);
        return;
      }
      hostileAnswers.incrementAndGet();
      log.info("hostile answer path={} answer={}", exchange.getRequestURI().getPath(), answer);
      exchange.getRequestBody().readAllBytes();
      try {
        hostile(exchange, answer);
      } catch (IOException e) {
        // the client hung up, as it should
      }
    }
  }

  private void hostile(HttpExchange exchange, Answer answer) throws IOException {
    switch (answer) {
      case ENDLESS_BODY -> {
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        write(out, "{\"ok\":true,\"result\":\"".getBytes(StandardCharsets.US_ASCII));
        for (long sent = 0; sent < endlessBytes && !closed; sent += CHUNK.length) {
          write(out, CHUNK);
        }
        write(out, "\"}".getBytes(StandardCharsets.US_ASCII));
      }
      case HUGE_CONTENT_LENGTH -> {
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, 1L << 30);
        write(exchange.getResponseBody(), "{\"ok\":true,\"result\":\"".getBytes(StandardCharsets.US_ASCII));
        throw new IOException("the rest never comes"); // closes the connection
      }
      case ENDLESS_NESTING -> {
        int depth = 100_000;
        byte[] body = ("{\"ok\":true,\"result\":" + "[".repeat(depth) + "]".repeat(depth) + "}")
            .getBytes(StandardCharsets.US_ASCII);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        write(exchange.getResponseBody(), body);
      }
      case SLOW_DRIP -> {
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        write(out, "{\"ok\":true,\"result\":".getBytes(StandardCharsets.US_ASCII));
        long until = System.nanoTime() + DRIP_LIMIT.toNanos();
        while (System.nanoTime() < until && !closed) {
          write(out, new byte[] {' '});
          out.flush();
          try {
            TimeUnit.MILLISECONDS.sleep(DRIP_INTERVAL.toMillis()); // the drip itself, not a wait for anything
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
          }
        }
      }
      case HTML_PAGE -> {
        byte[] page = ("<!DOCTYPE html><html><head><title>Sign in to the guest network</title></head>"
            + "<body><form action=\"/login\"><input name=\"room\"></form></body></html>").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
        exchange.sendResponseHeaders(200, page.length);
        write(exchange.getResponseBody(), page);
      }
    }
  }

  private void write(OutputStream out, byte[] bytes) throws IOException {
    out.write(bytes);
    hostileBytesWritten.addAndGet(bytes.length);
  }

  private void forward(HttpExchange exchange) throws IOException {
    forwarded.incrementAndGet();
    byte[] body = exchange.getRequestBody().readAllBytes();
    URI uri = target.resolve(exchange.getRequestURI().getRawPath()
        + (exchange.getRequestURI().getRawQuery() == null ? "" : "?" + exchange.getRequestURI().getRawQuery()));
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
        .method(exchange.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(body));
    for (String header : List.of("Content-Type", "Accept", "X-API-Key")) {
      String value = exchange.getRequestHeaders().getFirst(header);
      if (value != null) {
        request.header(header, value);
      }
    }
    HttpResponse<byte[]> answer;
    try {
      answer = forwarder.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while forwarding", e);
    }
    answer.headers().firstValue("Content-Type").ifPresent(t -> exchange.getResponseHeaders().set("Content-Type", t));
    answer.headers().firstValue("Retry-After").ifPresent(t -> exchange.getResponseHeaders().set("Retry-After", t));
    exchange.sendResponseHeaders(answer.statusCode(), answer.body().length == 0 ? -1 : answer.body().length);
    exchange.getResponseBody().write(answer.body());
  }

  private static byte[] filled(int length, byte value) {
    byte[] bytes = new byte[length];
    Arrays.fill(bytes, value);
    return bytes;
  }

  @Override
  public void close() {
    closed = true;
    server.stop(0);
    executor.shutdownNow();
  }
}
