package org.tonpayouts.local.bench;

import java.time.Instant;
import java.util.List;
import org.tonpayouts.local.measure.PayoutLoad;
import org.tonpayouts.local.stack.WalletSet;
import org.tonpayouts.schemas.TransferKind;

/** The benchmark's load: single-transfer requests, every wallet busy from the start. */
public final class BenchLoad {
  /** Every benchmark transfer is 0.001 TON. */
  public static final long BENCH_AMOUNT_NANO = 1_000_000L;

  private BenchLoad() {}

  /**
   * {@code perWallet} single-transfer requests for every wallet, produced in rounds (one request per
   * wallet, then the next), so every wallet has work from the start.
   */
  public static PayoutLoad bench(WalletSet wallets, int perWallet, String runId, boolean testnet, Instant createdAt) {
    if (perWallet < 1) {
      throw new IllegalArgumentException("at least one transfer per wallet is needed, got " + perWallet);
    }
    PayoutLoad.Builder b = new PayoutLoad.Builder(testnet, createdAt);
    int n = 0;
    for (int round = 0; round < perWallet; round++) {
      for (int w = 0; w < wallets.count(); w++) {
        b.add(runId + "-" + round + "-" + w, wallets.subwalletId(w),
            List.of(new PayoutLoad.Leg("payout", TransferKind.PAYOUT, wallets.recipient(n++), BENCH_AMOUNT_NANO)));
      }
    }
    return b.build();
  }
}
