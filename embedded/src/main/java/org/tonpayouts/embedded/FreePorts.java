package org.tonpayouts.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Picks free TCP ports on 127.0.0.1 for servers that need their port before they bind (the
 * embedded broker, the local stack's children).
 *
 * <p>It picks below the OS's ephemeral range. A port the OS hands out for {@code bind(0)} comes
 * from that range, and so does the local port of every outgoing connection: between the pick and
 * the server's bind, one of the stack's own clients (Kafka, HTTP, JDBC) could take it, and a
 * child's start failed with "Address already in use" (once in about thirty benchmark runs).
 * Below the range only another server choosing the same port can take it.
 */
public final class FreePorts {
  /** Linux's default ephemeral range starts here; used when the range cannot be read. */
  private static final int DEFAULT_EPHEMERAL_LOW = 32768;
  /** How many ports below the ephemeral range to choose from. */
  private static final int SPAN = 10_000;
  private static final int ATTEMPTS = 50;

  private FreePorts() {}

  /**
   * A port that was free a moment ago, below the ephemeral range when one there is free. Another
   * server may still take it before ours binds, so callers retry their start-up on a bind failure.
   */
  public static int pick() {
    int high = ephemeralLow();
    int low = Math.max(1024, high - SPAN);
    for (int i = 0; i < ATTEMPTS && high > low; i++) {
      int port = ThreadLocalRandom.current().nextInt(low, high);
      if (free(port)) {
        return port;
      }
    }
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port on 127.0.0.1", e);
    }
  }

  /** The first port of the OS's ephemeral range (Linux), or the Linux default. */
  static int ephemeralLow() {
    // read as a stream: /proc files report a size of 0, and Files.readString returned one byte of it
    try (InputStream in = Files.newInputStream(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))) {
      String range = new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim();
      return Integer.parseInt(range.split("\\s+")[0]);
    } catch (IOException | RuntimeException e) {
      return DEFAULT_EPHEMERAL_LOW;
    }
  }

  private static boolean free(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
