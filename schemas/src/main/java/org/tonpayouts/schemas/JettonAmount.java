package org.tonpayouts.schemas;

import com.fasterxml.jackson.annotation.JsonFormat;
import java.math.BigInteger;

/**
 * The jetton a transfer pays instead of TON: which jetton (its master contract) and how many of
 * its base units (USDT has 6 decimals: 2500000 is 2.5 USDT). The jettons a deployment pays, and
 * the TON it attaches to each, are configured ({@code jettons}); a request for any other master is
 * rejected at intake.
 *
 * @param master the jetton master's address as the producer wrote it (raw or user-friendly)
 * @param amount base units, 1 to 2^120-1 (TEP-74's {@code VarUInteger 16}); a JSON string of digits
 */
public record JettonAmount(String master, @JsonFormat(shape = JsonFormat.Shape.STRING) BigInteger amount) {

  /** Largest amount a TEP-74 transfer carries: {@code VarUInteger 16} holds 120 bits. */
  public static final BigInteger MAX_AMOUNT = BigInteger.ONE.shiftLeft(120).subtract(BigInteger.ONE);

  public JettonAmount {
    Check.nonBlank(master, "jetton.master");
    Check.present(amount, "jetton.amount");
    if (amount.signum() <= 0 || amount.compareTo(MAX_AMOUNT) > 0) {
      throw new IllegalArgumentException("jetton.amount must be 1 to 2^120-1 base units, got " + amount);
    }
  }
}
