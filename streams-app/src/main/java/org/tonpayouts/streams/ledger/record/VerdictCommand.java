package org.tonpayouts.streams.ledger.record;

import java.util.Objects;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.PayoutRequest;

/**
 * A chain verdict for the ledger, as the wallet-tx processor hands it over.
 *
 * @param verdict the chain poller's confirmation
 * @param request the request the processor is paying when the verdict is about its current
 *     transfer (then a transfer that ends FAILED or RECONCILIATION_REQUIRED aborts the rest of it in
 *     the same transaction); null otherwise
 * @param origin where that request was read from; null when {@code request} is
 * @param walletAddress the paying wallet's raw address
 */
public record VerdictCommand(Confirmation verdict, PayoutRequest request, String origin, String walletAddress) {
  public VerdictCommand {
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(walletAddress, "walletAddress");
  }
}
