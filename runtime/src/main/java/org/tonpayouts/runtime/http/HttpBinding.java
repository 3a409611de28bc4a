package org.tonpayouts.runtime.http;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Objects;
import org.tonpayouts.runtime.StartupException;

/**
 * Where one HTTP surface listens: an address of this machine and a port, with the configuration
 * keys that set them, so that a failure to listen names what to change.
 *
 * @param address an IP literal or a host name of this machine ({@code 0.0.0.0}: every IPv4 interface)
 * @param port the port; 0 picks a free one (tests)
 */
public record HttpBinding(String address, int port, String addressKey, String portKey) {
  public HttpBinding {
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(addressKey, "addressKey");
    Objects.requireNonNull(portKey, "portKey");
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException(portKey + " out of range: " + port);
    }
  }

  /** A loopback binding on {@code port}, for tests and for surfaces that serve this host only. */
  public static HttpBinding loopback(int port, String portKey) {
    return new HttpBinding("127.0.0.1", port, "(loopback)", portKey);
  }

  /**
   * The socket address to bind.
   *
   * @throws StartupException when the address is no name or address of this machine's resolver
   */
  public InetSocketAddress socketAddress() {
    try {
      return new InetSocketAddress(InetAddress.getByName(address), port);
    } catch (UnknownHostException e) {
      throw new StartupException(addressKey + " " + address + " is not an address of this machine: use an IP"
          + " literal (127.0.0.1 for this host only, 0.0.0.0 for every interface)", e);
    }
  }

  /** Whether only this machine can connect. */
  public boolean isLoopback() {
    return socketAddress().getAddress().isLoopbackAddress();
  }

  /** {@code address:port} as a log value. */
  public String describe() {
    return (address.contains(":") ? "[" + address + "]" : address) + ":" + port;
  }
}
