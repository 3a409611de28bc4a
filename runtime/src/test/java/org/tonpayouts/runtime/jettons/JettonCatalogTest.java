package org.tonpayouts.runtime.jettons;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.ton.address.TonAddress;

class JettonCatalogTest {
  private static final String USDT = "EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs";
  private static final String RAW = "0:" + "ab".repeat(32);

  @Test
  void shouldReadEntriesWithDefaultsAndFindThemByMasterInAnySpelling() {
    JettonCatalog catalog = JettonCatalog.parse("jettons",
        " USDT master=" + USDT + " decimals=6 max.transfer=1000 ; NOT master=" + RAW + " decimals=9 max.transfer=5"
            + " max.request=7 attach.nano=80000000 forward.nano=0");

    JettonSettings usdt = catalog.byMaster(TonAddress.parse(TonAddress.parse(USDT).toRaw())).orElseThrow();
    assertThat(usdt.symbol()).isEqualTo("USDT");
    assertThat(usdt.attachNano()).isEqualTo(JettonCatalog.DEFAULT_ATTACH_NANO);
    assertThat(usdt.forwardTonNano()).isEqualTo(JettonCatalog.DEFAULT_FORWARD_NANO);
    assertThat(usdt.maxPerRequest()).as("4 x max.transfer").isEqualTo(BigInteger.valueOf(4000));
    JettonSettings not = catalog.byMaster(TonAddress.parse(RAW)).orElseThrow();
    assertThat(not.maxPerRequest()).isEqualTo(BigInteger.valueOf(7));
    assertThat(not.forwardTonNano()).isZero();
    assertThat(not.describe(BigInteger.valueOf(1_500_000_000L))).isEqualTo("1.5 NOT (1500000000 base units)");
    assertThat(JettonCatalog.parse("jettons", " ").isEmpty()).isTrue();
  }

  @Test
  void shouldRefuseAnEntryNamingTheKeyTheEntryAndWhy() {
    assertThatThrownBy(() -> JettonCatalog.parse("jettons", "USDT master=" + USDT + " decimals=6"))
        .hasMessage("jettons: entry 'USDT master=" + USDT + " decimals=6': max.transfer is required");
    assertThatThrownBy(() -> JettonCatalog.parse("jettons", "USDT master=nope decimals=6 max.transfer=1"))
        .hasMessageStartingWith("jettons: entry 'USDT master=nope decimals=6 max.transfer=1': master: ");
    assertThatThrownBy(() -> JettonCatalog.parse("jettons", "USDT master=" + RAW + " decimals=6 max.transfer=1"
        + " colour=green")).hasMessageContaining("'colour=green' is not one of");
    assertThatThrownBy(() -> JettonCatalog.parse("jettons", "USDT master=" + RAW + " decimals=6 max.transfer=1"
        + " attach.nano=5 forward.nano=5")).hasMessageContaining("attach.nano (5) must be above forward.nano (5)");
    assertThatThrownBy(() -> JettonCatalog.parse("jettons", "A master=" + RAW + " decimals=6 max.transfer=1;"
        + " B master=" + TonAddress.parse(RAW).toFriendly(true, false) + " decimals=6 max.transfer=1"))
        .hasMessageContaining("the master " + RAW + " is given twice");
  }

  @Test
  void shouldRefuseABadListWhenTheConfigurationIsRead() {
    assertThatThrownBy(() -> new PayoutsConfig(Map.of(PayoutsConfig.JETTONS_CONFIG, "USDT decimals=6")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("master is required");
  }
}
