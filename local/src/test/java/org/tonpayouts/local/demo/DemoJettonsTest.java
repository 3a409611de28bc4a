package org.tonpayouts.local.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.devnet.chain.jetton.JettonFlavor;
import org.tonpayouts.local.audit.ExpectedTransfer;
import org.tonpayouts.local.measure.ObservedSettlement;
import org.tonpayouts.local.measure.PayoutLoad;
import org.tonpayouts.local.measure.Settling;
import org.tonpayouts.local.stack.RunKey;
import org.tonpayouts.local.stack.WalletSet;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.wallet.Subwallets;

/**
 * The demo's jetton check against devnet's jetton wallets, off the pipeline: settlements claiming a
 * payout the jetton wallets do not show are caught; a failed transfer that moved nothing agrees.
 * ({@link DemoCommandTest} runs the agreeing case through the whole stack.)
 */
class DemoJettonsTest {
  private static final BigInteger MINTED = BigInteger.valueOf(1_000_000_000);
  private final WalletSet wallets =
      new WalletSet(new Subwallets(RunKey.random().key(), 0), Subwallets.DEFAULT_SUBWALLET_ID, 2, 10);
  private Devnet devnet;
  private TonAddress master;
  private PayoutLoad load;
  private ExpectedTransfer jettonTransfer;

  @BeforeEach
  void start() {
    devnet = Devnet.builder().blockInterval(Duration.ofMillis(100)).start();
    master = devnet.deployJetton(JettonFlavor.STABLECOIN, "https://example.org/usdt.json");
    wallets.subwalletIds().forEach(id -> devnet.mintJettons(master, wallets.address(id), MINTED));
    load = DemoLoad.demo(wallets, 4, "run", false, Instant.EPOCH, Optional.of(master));
    jettonTransfer = load.expected().stream().filter(t -> load.jettonOf(t.ref()).isPresent()).findFirst().orElseThrow();
  }

  @AfterEach
  void stop() {
    devnet.close();
  }

  @Test
  void shouldReportASettledJettonPayoutTheJettonWalletsDoNotShow() {
    DemoJettons jettons = DemoJettons.check("USDT", load, settling(SettlementStatus.SETTLED), devnet, master, wallets,
        MINTED);

    assertThat(jettons.agree()).isFalse();
    assertThat(jettons.paid()).isEqualTo(BigInteger.valueOf(1_500_000));
    assertThat(jettons.problems()).containsExactlyInAnyOrder(
        "recipient " + jettonTransfer.destination().toFriendly(false, false) + " holds 0 USDT, its settled transfers"
            + " paid 1.5",
        "subwallet " + jettonTransfer.subwalletId() + " holds 1000 USDT, 998.5 expected (minted 1000, paid 1.5)");
    assertThat(jettons.lines()).first().asString()
        .isEqualTo("USDT            1 USDT transfer settled, 1.5 USDT paid to 1 recipient");
    assertThat(jettons.lines()).hasSize(3).last().asString().startsWith("USDT balance problem: subwallet ");
  }

  @Test
  void shouldAgreeWhenAFailedJettonTransferMovedNothing() {
    DemoJettons jettons = DemoJettons.check("USDT", load, settling(SettlementStatus.FAILED), devnet, master, wallets,
        MINTED);

    assertThat(jettons.agree()).as("%s", jettons.problems()).isTrue();
    assertThat(jettons.lines()).containsExactly(
        "USDT            0 USDT transfers settled, 1 failed, 0 USDT paid to 0 recipients",
        "USDT balances   devnet agrees: the recipients' jetton wallets hold what was paid, the paying wallets' are"
            + " down by as much");
  }

  private Settling settling(SettlementStatus status) {
    ExpectedTransfer t = jettonTransfer;
    boolean settled = status == SettlementStatus.SETTLED;
    Settlement s = Settlement.of(t.requestId(), t.transferId(), t.transferIndex(), t.subwalletId(),
        load.requests().get(2).transfer(0).kind(), t.destination().toFriendly(false, false), 50_000_000L, status,
        settled ? "ab".repeat(32) : null, settled ? 1L : null, 0L, null, null, settled ? null : "refused",
        Instant.EPOCH, Instant.EPOCH).withJetton(load.jettonOf(t.ref()).orElseThrow(), null);
    return new Settling(0, 0, Map.of(status, 1), 0, 0, List.of(new ObservedSettlement(s, 0, 0)), Optional.empty());
  }
}
