package org.tonpayouts.local.demo;

import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.tonpayouts.local.measure.PayoutLoad;
import org.tonpayouts.local.stack.WalletSet;
import org.tonpayouts.schemas.JettonAmount;
import org.tonpayouts.schemas.TransferKind;
import org.tonpayouts.ton.address.TonAddress;

/**
 * The demo's mix of payout requests: payouts, about a third followed by a commission sweep to the
 * treasury; with a jetton, every fourth request pays it instead of TON, then sweeps a TON commission.
 */
public final class DemoLoad {
  /** Demo payouts are 0.01 to 0.05 TON. */
  public static final long PAYOUT_UNIT_NANO = 10_000_000L;
  /** A commission sweep is 0.001 TON. */
  public static final long COMMISSION_NANO = 1_000_000L;
  /** Demo jetton payouts are 0.5 to 2.5 of a 6-decimal jetton (USDT): multiples of this many base units. */
  public static final long JETTON_UNIT = 500_000L;

  private DemoLoad() {}

  /** {@link #demo(WalletSet, int, String, boolean, Instant, Optional)} paying TON only. */
  public static PayoutLoad demo(WalletSet wallets, int requestCount, String runId, boolean testnet,
      Instant createdAt) {
    return demo(wallets, requestCount, runId, testnet, createdAt, Optional.empty());
  }

  /**
   * {@code requestCount} requests spread round-robin over the wallets; every third one (the first
   * included) pays a recipient and then sweeps a commission to the treasury. With {@code jetton},
   * requests 2, 6, 10, ... pay the recipient that jetton instead (a withdrawal with a comment) and
   * then sweep the commission in TON.
   *
   * @param runId makes request ids unique per run
   * @param testnet writes destinations in their testnet form
   * @param jetton the master of the jetton to pay (streams-app's {@code jettons} must have it), or empty
   */
  public static PayoutLoad demo(WalletSet wallets, int requestCount, String runId, boolean testnet,
      Instant createdAt, Optional<TonAddress> jetton) {
    if (requestCount < 1) {
      throw new IllegalArgumentException("at least one request is needed, got " + requestCount);
    }
    PayoutLoad.Builder b = new PayoutLoad.Builder(testnet, createdAt);
    for (int i = 0; i < requestCount; i++) {
      long subwallet = wallets.subwalletId(i % wallets.count());
      String requestId = runId + "-" + i;
      List<PayoutLoad.Leg> legs = new ArrayList<>();
      boolean paysJetton = jetton.isPresent() && i % 4 == 2;
      if (paysJetton) {
        legs.add(PayoutLoad.Leg.jetton("withdrawal", TransferKind.WITHDRAWAL, wallets.recipient(i),
            new JettonAmount(jetton.get().toFriendly(true, testnet), BigInteger.valueOf(JETTON_UNIT * (1 + i % 5)))));
      } else {
        legs.add(new PayoutLoad.Leg("payout", TransferKind.PAYOUT, wallets.recipient(i),
            PAYOUT_UNIT_NANO * (1 + i % 5)));
      }
      if (paysJetton || i % 3 == 0) {
        legs.add(new PayoutLoad.Leg("commission", TransferKind.COMMISSION_SWEEP, wallets.treasury(),
            COMMISSION_NANO));
      }
      b.add(requestId, subwallet, legs);
    }
    return b.build();
  }
}
