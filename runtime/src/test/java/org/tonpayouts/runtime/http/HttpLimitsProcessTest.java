package org.tonpayouts.runtime.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.tonpayouts.runtime.PayoutsConfig;

/**
 * The HTTP limits as a payout process gets them from its configuration, in a process of its own
 * (the JDK reads them once per JVM): a client that sends half a request, or nothing, is cut off at
 * the request timeout while others are answered at once, and connections beyond the limit are
 * closed until some are freed.
 */
class HttpLimitsProcessTest {
  private static final int REQUEST_TIMEOUT_SECONDS = 2;
  private static final int MAX_CONNECTIONS = 6;
  /** The timeout, plus the JDK server's one-second timer and room for a busy machine. */
  private static final Duration CUT_OFF_WITHIN = Duration.ofSeconds(REQUEST_TIMEOUT_SECONDS + 4);

  private static Process child;
  private static int port;
  private final List<Socket> sockets = new ArrayList<>();

  @BeforeAll
  static void startServerProcess() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    ProcessBuilder builder = new ProcessBuilder(java.toString(), "-Xmx64m", "-cp", System.getProperty("java.class.path"),
        OpsServerProcess.class.getName()).redirectErrorStream(true);
    builder.environment().put(PayoutsConfig.envName(PayoutsConfig.METRICS_BIND_ADDRESS_CONFIG), "127.0.0.1");
    builder.environment().put(PayoutsConfig.envName(PayoutsConfig.HTTP_REQUEST_TIMEOUT_SECONDS_CONFIG),
        Integer.toString(REQUEST_TIMEOUT_SECONDS));
    builder.environment().put(PayoutsConfig.envName(PayoutsConfig.HTTP_MAX_CONNECTIONS_CONFIG),
        Integer.toString(MAX_CONNECTIONS));
    child = builder.start();
    BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
    for (String line = out.readLine(); line != null; line = out.readLine()) {
      if (line.startsWith("port=")) {
        port = Integer.parseInt(line.substring("port=".length()));
        break;
      }
    }
    assertThat(port).as("the server process printed its port").isPositive();
    Thread drain = new Thread(() -> out.lines().forEach(l -> { }), "ops-child-output");
    drain.setDaemon(true);
    drain.start();
  }

  @AfterAll
  static void stopServerProcess() throws Exception {
    if (child != null) {
      child.getOutputStream().close();
      if (!child.waitFor(10, TimeUnit.SECONDS)) {
        child.destroyForcibly();
      }
    }
  }

  @AfterEach
  void closeSockets() throws IOException {
    for (Socket s : sockets) {
      s.close();
    }
  }

  @Test
  void shouldCutOffClientsThatSendHalfARequestWhileAnsweringOthersAtOnce() throws Exception {
    awaitServing();
    List<Socket> slow = new ArrayList<>();
    for (int i = 0; i < MAX_CONNECTIONS - 2; i++) {
      Socket s = connect();
      OutputStream o = s.getOutputStream();
      o.write("GET /health/live HTTP/1.1\r\nHost: localhost\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII));
      o.flush();
      slow.add(s);
    }

    assertThat(get("/health/live")).isEqualTo(200);
    assertThat(slow).as("answered while the slow clients still held their connections").allSatisfy(s ->
        assertThat(isOpen(s)).isTrue());
    long started = System.nanoTime();
    for (Socket s : slow) {
      assertThat(readUntilClosed(s)).as("a half request gets no answer").isEmpty();
    }
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(CUT_OFF_WITHIN);
    assertThat(get("/health/live")).as("still serving").isEqualTo(200);
  }

  @Test
  void shouldCloseConnectionsBeyondTheLimitUntilIdleOnesAreCutOff() throws Exception {
    awaitServing();
    List<Socket> idle = new ArrayList<>();
    for (int i = 0; i < MAX_CONNECTIONS; i++) {
      idle.add(connect());
    }
    // the server accepts in its own time: wait until it holds all of them, then one more is refused
    await("the limit reached").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50)).untilAsserted(() ->
        assertThatThrownBy(() -> get("/health/live")).isInstanceOf(IOException.class));

    for (Socket s : idle) {
      assertThat(readUntilClosed(s)).as("an idle connection is closed at the timeout").isEmpty();
    }
    await("serving again").atMost(CUT_OFF_WITHIN).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
        .until(() -> get("/health/live") == 200);
  }

  private void awaitServing() {
    // connections of the previous test may still be counted until the server's timer drops them
    await("serving").atMost(CUT_OFF_WITHIN).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
        .until(() -> get("/health/live") == 200);
  }

  /**
   * The status of a GET on a new connection that the server closes after answering: a client's
   * pooled connection would bypass what is tested, and one left open would count against the limit.
   */
  private static int get(String path) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
      s.setSoTimeout(3_000);
      s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      String response = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
      if (!response.startsWith("HTTP/1.1 ")) {
        throw new IOException("closed without an answer");
      }
      return Integer.parseInt(response.substring(9, 12));
    }
  }

  private Socket connect() throws IOException {
    Socket s = new Socket();
    sockets.add(s);
    s.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
    return s;
  }

  /** Whether the server has not closed {@code s} yet (nothing to read, no end of stream). */
  private static boolean isOpen(Socket s) {
    try {
      s.setSoTimeout(1);
      return s.getInputStream().read() >= 0;
    } catch (SocketTimeoutException e) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** What the server sends before it closes {@code s}; fails past the deadline. */
  private static String readUntilClosed(Socket s) throws IOException {
    s.setSoTimeout((int) CUT_OFF_WITHIN.toMillis());
    try {
      return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
    } catch (SocketTimeoutException e) {
      throw new AssertionError("the server kept a connection open beyond " + CUT_OFF_WITHIN.toSeconds() + " s", e);
    } catch (IOException e) {
      return ""; // reset by the server: closed just as well
    }
  }
}
