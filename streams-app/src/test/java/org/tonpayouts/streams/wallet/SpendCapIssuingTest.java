package org.tonpayouts.streams.wallet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tonpayouts.streams.PayoutTestKit.FIRST_SUBWALLET;
import static org.tonpayouts.streams.PayoutTestKit.TON;
import static org.tonpayouts.streams.PayoutTestKit.recipient;
import static org.tonpayouts.streams.PayoutTestKit.request;
import static org.tonpayouts.streams.PayoutTestKit.transfer;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.schemas.Submission;
import org.tonpayouts.ton.address.TonAddress;

/**
 * A rolling spend cap in the wallet processor, against devnet and a real ledger: a transfer that
 * would take the window over the cap is not signed; it waits, the wallet's later transfers behind
 * it, and is signed by itself once the window has moved on; nothing is lost or paid twice.
 */
class SpendCapIssuingTest {
  private WalletTxHarness h;

  @AfterEach
  void close() {
    if (h != null) {
      h.close();
    }
  }

  @Test
  void shouldHoldATransferOverTheWalletCapAndSignItByItselfOnceTheWindowMoves() throws Exception {
    h = new WalletTxHarness(SpendCapIssuingTest.class, Map.of(PayoutsConfig.SPEND_CAP_WALLET_CONFIG, "1m:" + 3 * TON));
    long id = FIRST_SUBWALLET + 40;
    TonAddress wallet = h.fund(id, 10 * TON);
    h.send(request("cap-1", id, transfer("t", recipient(40), 2 * TON)));
    h.send(request("cap-2", id, transfer("t", recipient(41), 2 * TON)));
    h.send(request("cap-3", id, transfer("t", recipient(42), TON / 2)));

    Submission first = h.issueOne();
    h.block();
    h.pipe(h.verdict(first));
    assertThat(h.issue()).as("2 + 2 TON would take the minute over 3 TON: nothing signed").isEmpty();
    later(Duration.ofSeconds(30));
    assertThat(h.issue()).as("half a minute on, the first spend still counts").isEmpty();
    assertThat(h.ledger.holds().waiting(10)).singleElement().satisfies(hold -> {
      assertThat(hold.requestId()).isEqualTo("cap-2");
      assertThat(hold.capScope()).isEqualTo("WALLET");
    });
    assertThat(h.ledger.queries().attempts("cap-2", "t")).isEmpty();
    assertThat(h.ledger.queries().attempts("cap-3", "t")).as("0.5 TON would fit, but waits behind cap-2").isEmpty();

    later(Duration.ofSeconds(32)); // past 61/60 of the window since the first spend
    Submission second = h.issueOne();
    assertThat(second.requestId()).isEqualTo("cap-2");
    h.block();
    h.pipe(h.verdict(second));
    Submission third = h.issueOne(); // 2 + 0.5 TON in the minute: within the cap
    assertThat(third.requestId()).isEqualTo("cap-3");
    h.block();
    h.pipe(h.verdict(third));
    h.issue();

    Map<String, SettlementStatus> outcomes = new HashMap<>();
    for (Settlement s : h.settlements.readValuesToList()) {
      assertThat(outcomes.put(s.requestId(), s.status())).as("one settlement per transfer").isNull();
    }
    assertThat(outcomes).containsOnly(Map.entry("cap-1", SettlementStatus.SETTLED),
        Map.entry("cap-2", SettlementStatus.SETTLED), Map.entry("cap-3", SettlementStatus.SETTLED));
    assertThat(h.paymentsTo(wallet, recipient(41))).as("paid once").isEqualTo(List.of(2 * TON));
    assertThat(h.ledger.holds().waiting(10)).isEmpty();
    assertThat(h.ledger.audit().forRequest("cap-2")).extracting(e -> e.event().name())
        .containsOnlyOnce("SPEND_CAP_HELD").containsOnlyOnce("SPEND_CAP_RELEASED");
  }

  /** Time passes for the chain and the ledger (the test's clock) and for the processor (the driver's). */
  private void later(Duration by) {
    h.advance(by);
    h.step(by);
  }
}
