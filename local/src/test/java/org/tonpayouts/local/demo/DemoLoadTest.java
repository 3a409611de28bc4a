package org.tonpayouts.local.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.tonpayouts.local.audit.ExpectedTransfer;
import org.tonpayouts.local.measure.PayoutLoad;
import org.tonpayouts.local.stack.RunKey;
import org.tonpayouts.local.stack.WalletSet;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.TransferKind;
import org.tonpayouts.ton.wallet.Subwallets;

/** The demo's load shape. */
class DemoLoadTest {
  private final WalletSet wallets =
      new WalletSet(new Subwallets(RunKey.random().key(), 0), Subwallets.DEFAULT_SUBWALLET_ID, 4, 10);

  @Test
  void shouldSpreadTheDemoOverTheWalletsWithEveryThirdRequestSweepingACommission() {
    PayoutLoad load = DemoLoad.demo(wallets, 9, "run", false, Instant.EPOCH);

    assertThat(load.requests()).extracting(PayoutRequest::subwalletId).containsExactly(
        698983191L, 698983192L, 698983193L, 698983194L, 698983191L, 698983192L, 698983193L, 698983194L, 698983191L);
    assertThat(load.requests()).filteredOn(r -> r.transfers().size() == 2).hasSize(3)
        .allSatisfy(r -> {
          assertThat(r.transfer(0).kind()).isEqualTo(TransferKind.PAYOUT);
          assertThat(r.transfer(1).kind()).isEqualTo(TransferKind.COMMISSION_SWEEP);
          assertThat(r.transfer(1).destination()).isEqualTo(wallets.treasury().toFriendly(false, false));
        });
    assertThat(load.transferCount()).isEqualTo(12);
    assertThat(load.maxTransfersPerWallet()).as("requests 0, 4 and 8, the first with a sweep").isEqualTo(4);
    assertThat(load.expectedReceipts().values().stream().mapToLong(Long::longValue).sum())
        .isEqualTo(load.expected().stream().mapToLong(ExpectedTransfer::amountNano).sum());
  }
}
