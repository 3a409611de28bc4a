package org.tonpayouts.ton.network;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TonNetworkTest {

  @Test
  void shouldKnowEachNetworkByNameAndByGlobalId() {
    assertThat(TonNetwork.byName(" MainNet ")).contains(TonNetwork.MAINNET);
    assertThat(TonNetwork.byName("testnet")).contains(TonNetwork.TESTNET);
    assertThat(TonNetwork.byName("devnet")).contains(TonNetwork.DEVNET);
    assertThat(TonNetwork.byName("main")).isEmpty();
    assertThat(TonNetwork.byName(null)).isEmpty();
    assertThat(TonNetwork.ofGlobalId(-239)).contains(TonNetwork.MAINNET);
    assertThat(TonNetwork.ofGlobalId(-3)).contains(TonNetwork.TESTNET);
    assertThat(TonNetwork.ofGlobalId(TonNetwork.DEVNET_GLOBAL_ID)).contains(TonNetwork.DEVNET);
    assertThat(TonNetwork.ofGlobalId(7)).isEmpty();
  }

  @Test
  void shouldGiveDevnetAnIdOfNoPublicNetwork() {
    assertThat(TonNetwork.DEVNET.globalId()).isNotIn(TonNetwork.MAINNET.globalId(), TonNetwork.TESTNET.globalId());
  }

  @Test
  void shouldDescribeAGlobalIdWithItsNetwork() {
    assertThat(TonNetwork.describeGlobalId(-239)).isEqualTo("-239 (mainnet)");
    assertThat(TonNetwork.describeGlobalId(7)).isEqualTo("7 (no network this service knows)");
  }

  @Test
  void shouldPayTestnetFlaggedAddressesEverywhereButMainnet() {
    assertThat(TonNetwork.MAINNET.paysTestnetFlaggedAddresses()).isFalse();
    assertThat(TonNetwork.TESTNET.paysTestnetFlaggedAddresses()).isTrue();
    assertThat(TonNetwork.DEVNET.paysTestnetFlaggedAddresses()).isTrue();
  }
}
