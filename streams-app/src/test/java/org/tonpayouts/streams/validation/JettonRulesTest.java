package org.tonpayouts.streams.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tonpayouts.streams.PayoutTestKit.FIRST_SUBWALLET;
import static org.tonpayouts.streams.PayoutTestKit.TON;
import static org.tonpayouts.streams.PayoutTestKit.recipient;
import static org.tonpayouts.streams.PayoutTestKit.request;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.schemas.JettonAmount;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.TransferKind;
import org.tonpayouts.schemas.TransferRequest;
import org.tonpayouts.ton.address.TonAddress;

/** Intake of jetton transfers: only the configured jettons, within their limits, with their TON attached. */
class JettonRulesTest {
  private static final String KEY = Long.toString(FIRST_SUBWALLET);
  private static final TonAddress USDT = TonAddress.parse("0:" + "b1".repeat(32));
  private static final TonAddress OTHER = TonAddress.parse("0:" + "c2".repeat(32));
  private final RequestRules rules = RequestRules.from(new PayoutsConfig(Map.of(
      PayoutsConfig.TON_NETWORK_CONFIG, "mainnet",
      PayoutsConfig.WALLET_SUBWALLET_MIN_CONFIG, FIRST_SUBWALLET,
      PayoutsConfig.JETTONS_CONFIG, "USDT master=" + USDT.toFriendly(true, false) + " decimals=6"
          + " max.transfer=1000000000 max.request=1500000000 attach.nano=60000000 forward.nano=5")),
      DestinationPolicy.none());

  private static TransferRequest jetton(String id, TonAddress master, long amount) {
    return TransferRequest.ofJetton(id, TransferKind.WITHDRAWAL, recipient(1).toFriendly(false, false),
        new JettonAmount(master.toRaw(), BigInteger.valueOf(amount)), "order 77");
  }

  @Test
  void shouldAcceptAConfiguredJettonInAnySpellingAndAttachItsTon() {
    PayoutRequest request = request("r", FIRST_SUBWALLET, jetton("j", USDT, 2_500_000),
        new TransferRequest("fee", TransferKind.COMMISSION_SWEEP, recipient(2).toRaw(), TON / 10, null, null));

    assertThat(rules.problems(KEY, request)).isEmpty();
    PayoutRequest accepted = rules.accepted(request);
    assertThat(accepted.transfer(0).amountNano()).as("attach.nano").isEqualTo(60_000_000L);
    assertThat(accepted.transfer(0).jetton()).isEqualTo(request.transfer(0).jetton());
    assertThat(accepted.transfer(1)).as("a TON transfer is the producer's").isEqualTo(request.transfer(1));
  }

  @Test
  void shouldRejectAJettonThisDeploymentDoesNotPay() {
    List<String> problems = rules.problems(KEY, request("r", FIRST_SUBWALLET, jetton("j", OTHER, 1)));

    assertThat(problems).singleElement().asString()
        .startsWith("$.transfers[0].jetton.master: " + OTHER.toRaw() + " is not a jetton this deployment pays")
        .contains("USDT " + USDT.toFriendly(true, false));
  }

  @Test
  void shouldRejectAJettonAmountOverItsLimitsPerTransferAndPerRequest() {
    assertThat(rules.problems(KEY, request("r", FIRST_SUBWALLET, jetton("j", USDT, 1_000_000_001L))))
        .containsExactly("$.transfers[0].jetton.amount: 1000.000001 USDT (1000000001 base units) is above the"
            + " per-transfer limit of 1000 USDT (1000000000 base units) (jettons: USDT max.transfer)");
    assertThat(rules.problems(KEY, request("r", FIRST_SUBWALLET, jetton("a", USDT, 800_000_000L),
        jetton("b", USDT, 800_000_000L)))).containsExactly("$.transfers: the request's USDT transfers add up to 1600"
        + " USDT (1600000000 base units), above the per-request limit of 1500 USDT (1500000000 base units)"
        + " (jettons: USDT max.request)");
  }

  @Test
  void shouldRejectEveryJettonOnADeploymentThatPaysTonOnly() {
    RequestRules tonOnly = RequestRules.from(new PayoutsConfig(Map.of(PayoutsConfig.TON_NETWORK_CONFIG, "mainnet",
        PayoutsConfig.WALLET_SUBWALLET_MIN_CONFIG, FIRST_SUBWALLET)), DestinationPolicy.none());

    assertThat(tonOnly.problems(KEY, request("r", FIRST_SUBWALLET, jetton("j", USDT, 1))))
        .singleElement().asString().contains("(it pays TON only;");
  }
}
