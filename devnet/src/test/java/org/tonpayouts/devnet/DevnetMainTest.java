package org.tonpayouts.devnet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tonpayouts.devnet.chain.AccountState;
import org.tonpayouts.ton.address.TonAddress;
import picocli.CommandLine;

/** The command line starts the devnet it describes. */
class DevnetMainTest {
  @Test
  void shouldStartWithFundsAndFaultsFromTheCommandLine() {
    TonAddress wallet = TestWallet.someAddress(40);
    TonAddress user = TestWallet.someAddress(41);

    try (Devnet devnet = DevnetMain.start("--port", "0", "--block-ms", "50", "--seed", "9",
        "--fund", wallet.toFriendly(true, false) + "=2_000_000_000", "--fund-active", user.toRaw() + "=5",
        "--rate-limit-next", "1", "--rate-limit-scope", "sends", "--stale-blocks", "2", "--stale-probability", "0.5",
        "--transport-error-mode", "http_504", "--lag-blocks", "3", "--lag-ms", "60000", "--node", "up-to-date")) {
      assertThat(devnet.blockInterval().toMillis()).isEqualTo(50);
      assertThat(devnet.balance(wallet)).isEqualTo(2_000_000_000L);
      assertThat(devnet.account(user).state()).isEqualTo(AccountState.ACTIVE);
      Faults.Settings faults = devnet.faults().settings();
      assertThat(faults.rateLimitNext()).isEqualTo(1);
      assertThat(faults.rateLimitScope()).isEqualTo(Faults.RateLimitScope.SENDS);
      assertThat(faults.staleBlocks()).isEqualTo(2);
      assertThat(faults.transportError()).isEqualTo(Faults.TransportError.HTTP_504);
      assertThat(faults.lagBlocks()).isEqualTo(3);
      assertThat(faults.lagMs()).isEqualTo(60_000);
      assertThat(new Http(devnet).get("getMasterchainInfo", Map.of()).status())
          .as("the rate limit is scoped to sends").isEqualTo(200);
      assertThat(new Http(devnet.node("up-to-date")).get("getMasterchainInfo", Map.of()).status())
          .as("a node of its own, without the default node's faults").isEqualTo(200);
    }
  }

  @Test
  void shouldRefuseAMalformedFundSpec() {
    assertThatThrownBy(() -> DevnetMain.start("--port", "0", "--fund", "0:abc=5"))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("0:abc=5");
  }
}
