package org.tonpayouts.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free TCP ports for the children's metrics endpoints. */
final class LocalPorts {
  private LocalPorts() {}

  /** A port that was free a moment ago (the child binds it a few seconds later; a clash fails its start). */
  static int free() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port on 127.0.0.1", e);
    }
  }
}
