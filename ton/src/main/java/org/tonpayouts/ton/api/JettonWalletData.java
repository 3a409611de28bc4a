package org.tonpayouts.ton.api;

import java.math.BigInteger;
import java.util.Objects;
import org.tonpayouts.ton.address.TonAddress;

/**
 * A deployed jetton wallet's TEP-74 {@code get_wallet_data}: its jetton balance (base units), its
 * owner and its jetton's master (the code is not kept).
 */
public record JettonWalletData(BigInteger balance, TonAddress owner, TonAddress master) {
  public JettonWalletData {
    Objects.requireNonNull(balance, "balance");
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(master, "master");
  }
}
