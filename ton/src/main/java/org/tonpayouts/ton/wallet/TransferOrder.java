package org.tonpayouts.ton.wallet;

import java.util.Objects;
import org.tonpayouts.ton.address.TonAddress;

/**
 * One outgoing transfer of a wallet message: who gets how many nanotons, with an optional text
 * comment ({@code null} for none; long comments become snake cells) and the bounce flag.
 */
public record TransferOrder(TonAddress destination, long amountNano, String comment, boolean bounce) {
  public TransferOrder {
    Objects.requireNonNull(destination, "destination");
    if (amountNano <= 0) {
      throw new IllegalArgumentException("amount must be positive nanotons, got " + amountNano);
    }
  }
}
