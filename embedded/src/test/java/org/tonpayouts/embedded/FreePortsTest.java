package org.tonpayouts.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FreePortsTest {
  @Test
  void picksBindablePortsBelowTheEphemeralRange() throws IOException {
    int ephemeralLow = FreePorts.ephemeralLow();
    Set<Integer> picked = new HashSet<>();
    for (int i = 0; i < 20; i++) {
      int port = FreePorts.pick();
      assertThat(port).isBetween(1024, ephemeralLow - 1);
      try (ServerSocket server = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
        assertThat(server.getLocalPort()).isEqualTo(port);
      }
      picked.add(port);
    }
    assertThat(picked).as("chosen at random, not the same port every time").hasSizeGreaterThan(1);
  }

  @Test
  void skipsAPortThatIsTaken() throws IOException {
    for (int i = 0; i < 20; i++) {
      int port = FreePorts.pick();
      try (ServerSocket taken = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
        assertThat(FreePorts.pick()).isNotEqualTo(port);
      }
    }
  }
}
