package org.tonpayouts.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.tonpayouts.ton.network.TonNetwork;

/** ton.network: which network the deployment pays on, and how ton.testnet follows it. */
class PayoutsConfigNetworkTest {

  private static PayoutsConfig config(Map<String, String> values) {
    return new PayoutsConfig(values);
  }

  @Test
  void shouldReadTheNetworkFromTheFileOrTheEnvironmentInAnyCase() {
    assertThat(config(Map.of(PayoutsConfig.TON_NETWORK_CONFIG, "Mainnet")).requiredTonNetwork())
        .isEqualTo(TonNetwork.MAINNET);
    assertThat(PayoutsConfig.load(Optional.empty(), Map.of("PAYOUTS_TON_NETWORK", "testnet")).requiredTonNetwork())
        .isEqualTo(TonNetwork.TESTNET);
  }

  @Test
  void shouldRefuseAnUnknownNetworkNamingTheValues() {
    assertThatThrownBy(() -> config(Map.of(PayoutsConfig.TON_NETWORK_CONFIG, "main")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("main").hasMessageContaining("ton.network")
        .hasMessageContaining("must be mainnet, testnet or devnet");
  }

  @Test
  void shouldLeaveItUnsetByDefaultAndSayWhatToSetWhenRequired() {
    PayoutsConfig defaults = config(Map.of());

    assertThat(defaults.tonNetwork()).isEmpty();
    assertThatThrownBy(defaults::requiredTonNetwork).isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("ton.network is not set: set it to mainnet, testnet or devnet, the network"
            + " ton.api.url (http://127.0.0.1:8081) serves")
        .hasMessageNotContaining("ton.testnet");
  }

  @Test
  void shouldShowTestnetFormsOnTestnetAlwaysAndOnDevnetWhenAsked() {
    assertThat(config(Map.of(PayoutsConfig.TON_NETWORK_CONFIG, "testnet")).testnet()).isTrue();
    assertThat(config(Map.of(PayoutsConfig.TON_NETWORK_CONFIG, "mainnet")).testnet()).isFalse();
    assertThat(config(Map.of(PayoutsConfig.TON_NETWORK_CONFIG, "devnet")).testnet()).isFalse();
    assertThat(config(Map.of(PayoutsConfig.TON_NETWORK_CONFIG, "devnet", PayoutsConfig.TON_TESTNET_CONFIG, "true"))
        .testnet()).isTrue();
  }

  @Test
  void shouldRefuseTestnetFormsOnMainnet() {
    assertThatThrownBy(() -> config(Map.of(PayoutsConfig.TON_NETWORK_CONFIG, "mainnet",
        PayoutsConfig.TON_TESTNET_CONFIG, "true")))
        .isInstanceOf(ConfigException.class)
        .hasMessage("ton.testnet=true shows addresses in their testnet form, but ton.network=mainnet pays on mainnet,"
            + " where intake refuses testnet-flagged addresses: remove ton.testnet (on mainnet and testnet the form"
            + " follows ton.network)");
  }
}
