package org.tonpayouts.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Picks free TCP ports on 127.0.0.1 for servers that need their port before they bind. */
final class FreePorts {
  private FreePorts() {}

  /**
   * A port that was free a moment ago. Another process may take it before the server binds, so
   * callers that choose ports this way retry their start-up on a bind failure.
   */
  static int pick() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port on 127.0.0.1", e);
    }
  }
}
