package org.tonpayouts.local.demo;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.tonpayouts.local.measure.PayoutLoad;
import org.tonpayouts.local.stack.WalletSet;
import org.tonpayouts.schemas.TransferKind;

/** The demo's mix of payout requests: payouts, about a third followed by a commission sweep to the treasury. */
public final class DemoLoad {
  /** Demo payouts are 0.01 to 0.05 TON. */
  public static final long PAYOUT_UNIT_NANO = 10_000_000L;
  /** A commission sweep is 0.001 TON. */
  public static final long COMMISSION_NANO = 1_000_000L;

  private DemoLoad() {}

  /**
   * {@code requestCount} requests spread round-robin over the wallets; every third one (the first
   * included) pays a recipient and then sweeps a commission to the treasury.
   *
   * @param runId makes request ids unique per run
   * @param testnet writes destinations in their testnet form
   */
  public static PayoutLoad demo(WalletSet wallets, int requestCount, String runId, boolean testnet,
      Instant createdAt) {
    if (requestCount < 1) {
      throw new IllegalArgumentException("at least one request is needed, got " + requestCount);
    }
    PayoutLoad.Builder b = new PayoutLoad.Builder(testnet, createdAt);
    for (int i = 0; i < requestCount; i++) {
      long subwallet = wallets.subwalletId(i % wallets.count());
      String requestId = runId + "-" + i;
      List<PayoutLoad.Leg> legs = new ArrayList<>();
      legs.add(new PayoutLoad.Leg("payout", TransferKind.PAYOUT, wallets.recipient(i),
          PAYOUT_UNIT_NANO * (1 + i % 5)));
      if (i % 3 == 0) {
        legs.add(new PayoutLoad.Leg("commission", TransferKind.COMMISSION_SWEEP, wallets.treasury(),
            COMMISSION_NANO));
      }
      b.add(requestId, subwallet, legs);
    }
    return b.build();
  }
}
