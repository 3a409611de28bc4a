package org.tonpayouts.runtime.ops;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.StartupException;
import org.tonpayouts.ton.api.TonApi;
import org.tonpayouts.ton.network.TonNetwork;

/**
 * The TON API node's network against {@code ton.network}. A signed message names no network: a
 * key with wallets on mainnet and testnet would sign for whichever network {@code ton.api.url}
 * reaches, and a testnet message could be replayed on mainnet. So before a process signs or reads
 * anything it asks the node for its global id (configuration parameter 19) and refuses to start
 * on any other than the configured network's, naming both.
 */
public final class NodeNetwork {
  private final TonApi api;
  private final URI url;
  private final TonNetwork expected;
  private final Duration timeout;
  private final String setting;

  /**
   * @param url the API's base URL, named in every message
   * @param expected the configured network ({@code ton.network})
   * @param timeout how long one read may take, the client's retries included
   */
  public NodeNetwork(TonApi api, URI url, TonNetwork expected, Duration timeout) {
    this(api, url, expected, timeout, PayoutsConfig.TON_API_URL_CONFIG);
  }

  /**
   * @param setting what the operator changes to point the service elsewhere, in the mismatch hint:
   *     {@code ton.api.url}, or one provider of {@code ton.api.urls}
   */
  public NodeNetwork(TonApi api, URI url, TonNetwork expected, Duration timeout, String setting) {
    this.api = Objects.requireNonNull(api, "api");
    this.url = Objects.requireNonNull(url, "url");
    this.expected = Objects.requireNonNull(expected, "expected");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    this.setting = Objects.requireNonNull(setting, "setting");
  }

  /**
   * The node's global id, read once.
   *
   * @throws NodeNetworkException when the node cannot be reached or gives no global id
   */
  public int readGlobalId() {
    try {
      return api.getGlobalId().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new NodeNetworkException("TON API " + url + " did not answer getConfigParam (parameter 19, the"
          + " network's global id) within " + timeout.toMillis() + " ms", e);
    } catch (ExecutionException e) {
      throw new NodeNetworkException("cannot read the network's global id (getConfigParam, parameter 19) from TON"
          + " API " + url + ": " + CheckResult.describe(e) + ". The processes check it against "
          + PayoutsConfig.TON_NETWORK_CONFIG + " before they start", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new NodeNetworkException("interrupted while reading the global id of TON API " + url, e);
    }
  }

  /**
   * The start-up check: returns the configured network when the node reports its global id;
   * asks again while the node answers "not now" ({@link StartupPatience}).
   *
   * @throws NodeNetworkException naming both networks and ids on a mismatch, or the URL and the
   *     cause when the node cannot be read
   */
  public TonNetwork verify() {
    int actual = StartupPatience.read(this::readGlobalId, "global id", url);
    if (actual != expected.globalId()) {
      throw new NodeNetworkException("TON API " + url + " serves the network with global id "
          + TonNetwork.describeGlobalId(actual) + ", but " + PayoutsConfig.TON_NETWORK_CONFIG + "=" + expected
          + " expects global id " + TonNetwork.describeGlobalId(expected.globalId()) + ". Point "
          + setting + " at a " + expected + " node, or set " + PayoutsConfig.TON_NETWORK_CONFIG
          + " to the network you mean to pay on.", null);
    }
    return expected;
  }

  /** The node could not be read, or serves another network; the message names the URL and both networks. */
  public static final class NodeNetworkException extends StartupException {
    public NodeNetworkException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
