package org.tonpayouts.devnet.api;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.tonpayouts.devnet.Faults;
import org.tonpayouts.devnet.chain.Chain;

/**
 * The API nodes devnet serves over its one chain, each with its own {@link Faults}: the default
 * node under {@code /api/v2/}, named ones under {@code /node/<name>/api/v2/}. Like toncenter's
 * load-balanced backends, they share the chain and the mempool but not their view of it: one node
 * can lag while another is up to date. Thread-safe.
 */
final class ApiNodes {
  /** The name of the node under {@code /api/v2/} (also reachable as {@code /node/default/api/v2/}). */
  static final String DEFAULT = "default";
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

  /** One node: its fault settings and the methods that answer with them. */
  record Node(String name, Faults faults, ToncenterMethods methods) {}

  private final Chain chain;
  private final long seed;
  private final Map<String, Node> nodes = new LinkedHashMap<>();

  ApiNodes(Chain chain, Faults defaultFaults, long seed) {
    this.chain = Objects.requireNonNull(chain, "chain");
    this.seed = seed;
    nodes.put(DEFAULT, new Node(DEFAULT, defaultFaults, new ToncenterMethods(chain, defaultFaults)));
  }

  Node defaultNode() {
    return find(DEFAULT);
  }

  /** The node called {@code name}, or {@code null} when there is none. */
  synchronized Node find(String name) {
    return nodes.get(name);
  }

  /**
   * The node called {@code name}, created without faults on first use (its fault decisions are
   * seeded from the devnet seed and the name, its lag measured on the chain's clock).
   */
  synchronized Node getOrCreate(String name) {
    Node node = nodes.get(name);
    if (node != null) {
      return node;
    }
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("a node name is 1 to 64 letters, digits, '.', '_' or '-', got '" + name + "'");
    }
    Faults faults = new Faults(seed * 31 + name.hashCode(), chain.clock());
    node = new Node(name, faults, new ToncenterMethods(chain, faults));
    nodes.put(name, node);
    return node;
  }

  /** Every node, the default one first, then in creation order. */
  synchronized List<Node> all() {
    return new ArrayList<>(nodes.values());
  }

  /** Where a node's toncenter API is, relative to the server's base URL. */
  static String apiPath(String name) {
    return DEFAULT.equals(name) ? "/api/v2/" : "/node/" + name + "/api/v2/";
  }
}
