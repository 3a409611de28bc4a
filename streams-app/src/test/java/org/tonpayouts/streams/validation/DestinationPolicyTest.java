package org.tonpayouts.streams.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tonpayouts.streams.PayoutTestKit.FIRST_SUBWALLET;
import static org.tonpayouts.streams.PayoutTestKit.KEY;
import static org.tonpayouts.streams.PayoutTestKit.TON;
import static org.tonpayouts.streams.PayoutTestKit.recipient;
import static org.tonpayouts.streams.PayoutTestKit.request;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.schemas.TransferKind;
import org.tonpayouts.schemas.TransferRequest;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.wallet.Subwallets;

class DestinationPolicyTest {
  private static final Subwallets SUBWALLETS = new Subwallets(KEY, 0);
  private static final long LAST_SUBWALLET = FIRST_SUBWALLET + 99;

  @TempDir Path dir;

  @Test
  void shouldRejectAPayoutToOneOfOurOwnSubwalletsInEveryFormUnlessAllowed() {
    TonAddress own = SUBWALLETS.address(FIRST_SUBWALLET + 42);
    RequestRules rules = rules(Map.of());

    for (String form : List.of(own.toRaw(), own.toFriendly(true, false), own.toFriendly(false, false),
        own.toFriendly(false, true))) {
      assertThat(problems(rules, form)).as(form).anySatisfy(problem -> assertThat(problem)
          .startsWith("$.transfers[0].destination: address " + own.toRaw() + " is this deployment's own subwallet "
              + (FIRST_SUBWALLET + 42))
          .contains("destination.own.wallets.allowed=true"));
    }
    assertThat(problems(rules, SUBWALLETS.address(LAST_SUBWALLET).toRaw())).hasSize(1);
    assertThat(problems(rules, SUBWALLETS.address(LAST_SUBWALLET + 1).toRaw()))
        .as("outside the deployment's range, another key's business").isEmpty();
    assertThat(problems(rules, recipient(1).toRaw())).isEmpty();

    RequestRules allowing = rules(Map.of(PayoutsConfig.DESTINATION_OWN_WALLETS_ALLOWED_CONFIG, "true"));
    assertThat(problems(allowing, own.toRaw())).isEmpty();
  }

  @Test
  void shouldRejectADeniedAddressWhateverItsFormNamingTheLine() throws Exception {
    TonAddress denied = recipient(7);
    Path file = Files.writeString(dir.resolve("deny.txt"), "# sanctioned, OPS-77\n\n"
        + denied.toFriendly(true, false) + "   # the exchange's hot wallet\n" + recipient(8).toRaw() + "\n");
    RequestRules rules = rules(Map.of(PayoutsConfig.DESTINATION_DENY_FILE_CONFIG, file.toString()));

    assertThat(problems(rules, denied.toRaw())).containsExactly("$.transfers[0].destination: address "
        + denied.toRaw() + " is on the deny list (" + file + ", line 3)");
    assertThat(problems(rules, recipient(8).toFriendly(false, false))).singleElement().asString()
        .endsWith("line 4)");
    assertThat(problems(rules, recipient(9).toRaw())).isEmpty();
  }

  @Test
  void shouldRefuseADenyFileWithALineThatIsNoAddressOrThatCannotBeRead() throws Exception {
    Path file = Files.writeString(dir.resolve("deny.txt"), recipient(7).toRaw() + "\nnot-an-address\n");

    assertThatThrownBy(() -> rules(Map.of(PayoutsConfig.DESTINATION_DENY_FILE_CONFIG, file.toString())))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("destination.deny.file " + file + ", line 2: ");
    assertThatThrownBy(() -> rules(Map.of(PayoutsConfig.DESTINATION_DENY_FILE_CONFIG, dir.resolve("none").toString())))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("cannot read destination.deny.file " + dir.resolve("none"));
  }

  @Test
  void shouldRefuseARangeTooWideToIndexUnlessOwnWalletsAreAllowed() {
    Map<String, Object> wide = Map.of(PayoutsConfig.WALLET_SUBWALLET_MIN_CONFIG, 0L,
        PayoutsConfig.WALLET_SUBWALLET_MAX_CONFIG, DestinationPolicy.MAX_INDEXED_SUBWALLETS);

    assertThatThrownBy(() -> DestinationPolicy.from(new PayoutsConfig(wide), SUBWALLETS))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("holds " + (DestinationPolicy.MAX_INDEXED_SUBWALLETS + 1) + " ids")
        .hasMessageContaining("set destination.own.wallets.allowed=true");
    Map<String, Object> allowed = new HashMap<>(wide);
    allowed.put(PayoutsConfig.DESTINATION_OWN_WALLETS_ALLOWED_CONFIG, "true");
    assertThat(DestinationPolicy.from(new PayoutsConfig(allowed), SUBWALLETS).summary())
        .isEqualTo("own_wallets=0 denied=0");
  }

  private static RequestRules rules(Map<String, Object> overrides) {
    Map<String, Object> values = new HashMap<>(Map.of(PayoutsConfig.TON_NETWORK_CONFIG, "testnet",
        PayoutsConfig.WALLET_SUBWALLET_MIN_CONFIG, FIRST_SUBWALLET,
        PayoutsConfig.WALLET_SUBWALLET_MAX_CONFIG, LAST_SUBWALLET));
    values.putAll(overrides);
    PayoutsConfig config = new PayoutsConfig(values);
    return RequestRules.from(config, DestinationPolicy.from(config, SUBWALLETS));
  }

  private static List<String> problems(RequestRules rules, String destination) {
    return rules.problems(Long.toString(FIRST_SUBWALLET), request("r", FIRST_SUBWALLET,
        new TransferRequest("t", TransferKind.PAYOUT, destination, TON, null, null)));
  }
}
