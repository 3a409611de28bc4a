package org.tonpayouts.poller;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.tonpayouts.schemas.Confirmation;

/**
 * A transfer the poller published a verdict for, remembered for a while: a re-submission of any
 * of its messages gets the same verdict again (streams-app may have lost or refused it), and a
 * transaction it claimed is not claimed again by another transfer's reconciliation.
 *
 * @param hashes every message hash of the transfer known when it was decided
 * @param verdict the confirmation published
 * @param resolvedAt when it was published
 */
public record ResolvedTransfer(List<String> hashes, Confirmation verdict, Instant resolvedAt) {

  public ResolvedTransfer {
    hashes = List.copyOf(hashes);
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(resolvedAt, "resolvedAt");
  }

  public boolean knows(String hash) {
    return hashes.contains(hash);
  }

  public String transferId() {
    return verdict.transferId();
  }

  public String txHash() {
    return verdict.txHash();
  }
}
