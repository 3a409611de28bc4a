package org.tonpayouts.streams.validation;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.schemas.PayoutRequest;

/**
 * The deployment's ceilings on money per request, checked at intake: no transfer above
 * {@code transfer.max.amount.nano} and no request whose transfers add up to more than
 * {@code request.max.total.nano}. A guard against a producer's unit mistake (TON for nanotons) or a
 * typo, which no schema can tell from a real payout.
 *
 * @param maxTransferNano largest amount of one transfer, in nanotons
 * @param maxRequestTotalNano largest sum of one request's transfers, in nanotons
 */
public record AmountLimits(long maxTransferNano, long maxRequestTotalNano) {
  private static final BigDecimal NANO_PER_TON = BigDecimal.valueOf(1_000_000_000L);

  public AmountLimits {
    if (maxTransferNano < 1 || maxRequestTotalNano < 1) {
      throw new IllegalArgumentException("amount limits must be positive, got " + maxTransferNano + " and "
          + maxRequestTotalNano);
    }
  }

  /** The limits configured for this deployment. */
  public static AmountLimits from(PayoutsConfig config) {
    return new AmountLimits(config.transferMaxAmountNano(), config.requestMaxTotalNano());
  }

  /** Every amount of {@code request} above a limit, with the limit and its key; empty when none is. */
  public List<String> problems(PayoutRequest request) {
    List<String> problems = new ArrayList<>();
    BigInteger total = BigInteger.ZERO;
    for (int i = 0; i < request.transfers().size(); i++) {
      long amount = request.transfer(i).amountNano();
      total = total.add(BigInteger.valueOf(amount));
      if (amount > maxTransferNano) {
        problems.add("$.transfers[" + i + "].amountNano: " + nano(amount) + " is above the per-transfer limit of "
            + nano(maxTransferNano) + " (" + PayoutsConfig.TRANSFER_MAX_AMOUNT_NANO_CONFIG + ")");
      }
    }
    if (total.compareTo(BigInteger.valueOf(maxRequestTotalNano)) > 0) {
      problems.add("$.transfers: the transfers add up to " + nano(total) + ", above the per-request limit of "
          + nano(maxRequestTotalNano) + " (" + PayoutsConfig.REQUEST_MAX_TOTAL_NANO_CONFIG + ")");
    }
    return problems;
  }

  /** {@code 1500000000 nanotons (1.5 TON)}. */
  private static String nano(long amount) {
    return nano(BigInteger.valueOf(amount));
  }

  private static String nano(BigInteger amount) {
    BigDecimal ton = new BigDecimal(amount).divide(NANO_PER_TON).stripTrailingZeros();
    return amount + " nanotons (" + ton.toPlainString() + " TON)";
  }
}
