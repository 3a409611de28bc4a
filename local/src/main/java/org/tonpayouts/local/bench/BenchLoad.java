package org.tonpayouts.local.bench;

import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import org.tonpayouts.local.measure.PayoutLoad;
import org.tonpayouts.local.stack.WalletSet;
import org.tonpayouts.schemas.JettonAmount;
import org.tonpayouts.schemas.TransferKind;
import org.tonpayouts.ton.address.TonAddress;

/** The benchmark's load: single-transfer requests, every wallet busy from the start. */
public final class BenchLoad {
  /** Every benchmark transfer is 0.001 TON. */
  public static final long BENCH_AMOUNT_NANO = 1_000_000L;
  /** Every jetton benchmark transfer is 1 unit of a 6-decimal jetton (1 USDT). */
  public static final BigInteger BENCH_JETTON_UNITS = BigInteger.valueOf(1_000_000L);

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

  /**
   * The same load paying {@code master}'s jetton instead of TON ({@link #BENCH_JETTON_UNITS} each,
   * to the same recipients; intake attaches the TON each message carries).
   */
  public static PayoutLoad jettonBench(WalletSet wallets, int perWallet, String runId, TonAddress master,
      Instant createdAt) {
    if (perWallet < 1) {
      throw new IllegalArgumentException("at least one transfer per wallet is needed, got " + perWallet);
    }
    JettonAmount amount = new JettonAmount(master.toRaw(), BENCH_JETTON_UNITS);
    PayoutLoad.Builder b = new PayoutLoad.Builder(false, createdAt);
    int n = 0;
    for (int round = 0; round < perWallet; round++) {
      for (int w = 0; w < wallets.count(); w++) {
        b.add(runId + "-" + round + "-" + w, wallets.subwalletId(w),
            List.of(PayoutLoad.Leg.jetton("payout", TransferKind.PAYOUT, wallets.recipient(n++), amount)));
      }
    }
    return b.build();
  }
}
