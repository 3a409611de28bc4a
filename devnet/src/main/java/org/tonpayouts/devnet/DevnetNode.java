package org.tonpayouts.devnet;

import java.net.URI;
import java.util.Objects;

/**
 * One API node of a {@link Devnet}: the same chain and mempool as every other node, served under
 * its own URL with its own {@link Faults}. A test points one service at an up-to-date node and
 * another at a lagging one, as happens behind a load-balanced toncenter. Get one with
 * {@link Devnet#node(String)}.
 */
public final class DevnetNode {
  private final String name;
  private final URI apiUrl;
  private final Faults faults;

  DevnetNode(String name, URI apiUrl, Faults faults) {
    this.name = Objects.requireNonNull(name, "name");
    this.apiUrl = Objects.requireNonNull(apiUrl, "apiUrl");
    this.faults = Objects.requireNonNull(faults, "faults");
  }

  public String name() {
    return name;
  }

  /** {@code <baseUrl>/node/<name>/api/v2/} ({@code <baseUrl>/api/v2/} for the default node): the toncenter base URL. */
  public URI apiUrl() {
    return apiUrl;
  }

  /** This node's live fault settings (changes apply to its next request). */
  public Faults faults() {
    return faults;
  }

  @Override
  public String toString() {
    return "DevnetNode[name=" + name + ", apiUrl=" + apiUrl + "]";
  }
}
