package org.tonpayouts.runtime.jettons;

import java.math.BigInteger;
import java.util.Objects;
import org.tonpayouts.ton.address.TonAddress;

/**
 * One jetton this deployment pays, as configured ({@code jettons}).
 *
 * @param symbol the name operators and logs use (USDT); not checked against the jetton's metadata
 * @param master the jetton's master contract: a request must name it (any spelling) to pay this jetton
 * @param decimals the jetton's decimals, to show amounts (USDT: 6); amounts are always base units
 * @param attachNano TON the wallet's message carries to our jetton wallet: pays the jetton wallets'
 *     gas and forwarding; the unused part comes back to the subwallet as {@code excesses}
 * @param forwardTonNano TON the receiver's jetton wallet forwards to the recipient with the transfer
 *     notification (and the comment); 0: no notification
 * @param maxPerTransfer the largest amount of one transfer, in base units
 * @param maxPerRequest the largest sum of this jetton's transfers in one request, in base units
 */
public record JettonSettings(String symbol, TonAddress master, int decimals, long attachNano, long forwardTonNano,
                             BigInteger maxPerTransfer, BigInteger maxPerRequest) {

  public JettonSettings {
    Objects.requireNonNull(symbol, "symbol");
    Objects.requireNonNull(master, "master");
    Objects.requireNonNull(maxPerTransfer, "maxPerTransfer");
    Objects.requireNonNull(maxPerRequest, "maxPerRequest");
    if (decimals < 0 || decimals > 255) {
      throw new IllegalArgumentException("decimals must be 0 to 255, got " + decimals);
    }
    if (forwardTonNano < 0) {
      throw new IllegalArgumentException("forward.nano must not be negative, got " + forwardTonNano);
    }
    if (attachNano <= forwardTonNano) {
      throw new IllegalArgumentException("attach.nano (" + attachNano + ") must be above forward.nano (" + forwardTonNano
          + "): the attached TON pays the forwarded TON and both jetton wallets' fees (0.05 TON is usual)");
    }
    if (maxPerTransfer.signum() <= 0 || maxPerRequest.signum() <= 0) {
      throw new IllegalArgumentException("max.transfer and max.request must be positive base units");
    }
  }

  /** {@code amount} base units as the jetton shows them: {@code 2.5 USDT (2500000)}. */
  public String describe(BigInteger amount) {
    return new java.math.BigDecimal(amount, decimals).stripTrailingZeros().toPlainString() + " " + symbol + " ("
        + amount + " base units)";
  }
}
