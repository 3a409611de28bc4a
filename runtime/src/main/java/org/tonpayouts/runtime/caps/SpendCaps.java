package org.tonpayouts.runtime.caps;

import java.util.List;
import java.util.Optional;

/**
 * The rolling spend caps in force: each wallet's own, and the deployment's over all its wallets.
 * Either list may be empty (no cap of that kind).
 */
public record SpendCaps(List<SpendCap> perWallet, List<SpendCap> perDeployment) {
  /** No cap at all: the ledger checks nothing and takes no lock. */
  public static final SpendCaps NONE = new SpendCaps(List.of(), List.of());

  public SpendCaps {
    perWallet = List.copyOf(perWallet);
    perDeployment = List.copyOf(perDeployment);
  }

  public boolean any() {
    return !perWallet.isEmpty() || !perDeployment.isEmpty();
  }

  /** The longest window configured, to bound what the ledger reads. */
  public Optional<SpendCap> longest() {
    return java.util.stream.Stream.concat(perWallet.stream(), perDeployment.stream())
        .max(java.util.Comparator.comparing(SpendCap::window));
  }

  @Override
  public String toString() {
    return "wallet=[" + SpendCapList.format(perWallet) + "] deployment=[" + SpendCapList.format(perDeployment) + "]";
  }
}
