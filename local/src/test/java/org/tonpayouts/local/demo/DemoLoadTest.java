package org.tonpayouts.local.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.tonpayouts.local.audit.ExpectedTransfer;
import org.tonpayouts.local.measure.PayoutLoad;
import org.tonpayouts.local.stack.RunKey;
import org.tonpayouts.local.stack.WalletSet;
import org.tonpayouts.schemas.JettonAmount;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.TransferKind;
import org.tonpayouts.ton.address.TonAddress;
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

  @Test
  void shouldPayTheJettonInEveryFourthRequestThenSweepACommissionInTon() {
    TonAddress master = new Subwallets(RunKey.random().key(), 0).address(77);
    PayoutLoad load = DemoLoad.demo(wallets, 9, "run", false, Instant.EPOCH, Optional.of(master));

    assertThat(load.jettonTransferCount()).as("requests 2 and 6").isEqualTo(2);
    assertThat(load.requests()).filteredOn(r -> r.transfer(0).paysJetton())
        .extracting(PayoutRequest::requestId).containsExactly("run-2", "run-6");
    assertThat(load.requests()).filteredOn(r -> r.transfer(0).paysJetton()).allSatisfy(r -> {
      assertThat(r.transfers()).hasSize(2);
      assertThat(r.transfer(0).kind()).isEqualTo(TransferKind.WITHDRAWAL);
      assertThat(r.transfer(0).comment()).isEqualTo(r.requestId() + " withdrawal");
      assertThat(TonAddress.parse(r.transfer(0).jetton().master())).isEqualTo(master);
      assertThat(r.transfer(1).kind()).isEqualTo(TransferKind.COMMISSION_SWEEP);
      assertThat(r.transfer(1).paysJetton()).isFalse();
      assertThat(r.transfer(1).amountNano()).isEqualTo(DemoLoad.COMMISSION_NANO);
    });
    assertThat(load.requests().get(2).transfer(0).jetton())
        .isEqualTo(new JettonAmount(master.toFriendly(true, false), BigInteger.valueOf(3 * DemoLoad.JETTON_UNIT)));
    assertThat(load.transferCount()).as("9 payouts, sweeps after requests 0, 2, 3, 6").isEqualTo(13);
    assertThat(load.expectedJettonReceipts()).containsOnly(
        org.assertj.core.api.Assertions.entry(wallets.recipient(2), BigInteger.valueOf(3 * DemoLoad.JETTON_UNIT)),
        org.assertj.core.api.Assertions.entry(wallets.recipient(6), BigInteger.valueOf(2 * DemoLoad.JETTON_UNIT)));
    assertThat(load.expectedReceipts()).as("TON only").doesNotContainKey(wallets.recipient(2));
  }
}
