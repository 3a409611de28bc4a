package org.tonpayouts.devnet;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.tonpayouts.devnet.chain.jetton.JettonFlavor;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.JettonWalletData;
import org.tonpayouts.ton.api.ProviderPool;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;

/**
 * The TON API client's jetton reads (issue 26) against devnet's real-code jettons, directly and
 * through a provider pool: a master's {@code get_wallet_address(owner)} gives the address devnet
 * derives from the real wallet code, and {@code get_wallet_data} a deployed wallet's balance, owner
 * and master; a wallet never paid in is not deployed (empty).
 */
class JettonReadsTest {
  private Devnet devnet;
  private TonApiClient client;

  @BeforeEach
  void start() {
    devnet = Devnet.builder().blockInterval(Duration.ofMillis(50)).start();
    client = new TonApiClient(TonApiConfig.of(devnet.apiUrl()).withRequestsPerSecond(1_000));
  }

  @AfterEach
  void stop() {
    client.close();
    devnet.close();
  }

  @ParameterizedTest
  @EnumSource(JettonFlavor.class)
  void shouldReadAnOwnersJettonWalletAndItsBalance(JettonFlavor flavor) {
    TonAddress master = devnet.deployJetton(flavor, "devnet:test");
    TonAddress owner = TestWallet.someAddress(41);
    TonAddress stranger = TestWallet.someAddress(42);
    devnet.mintJettons(master, owner, BigInteger.valueOf(2_500_000));

    TonAddress wallet = client.getJettonWalletAddress(master, owner).join();
    Optional<JettonWalletData> data = client.getJettonWalletData(wallet).join();

    assertThat(wallet).isEqualTo(devnet.jettonWallet(master, owner).address());
    assertThat(data).hasValueSatisfying(d -> {
      assertThat(d.balance()).isEqualTo(BigInteger.valueOf(2_500_000));
      assertThat(d.owner()).isEqualTo(owner);
      assertThat(d.master()).isEqualTo(master);
    });
    TonAddress strangersWallet = client.getJettonWalletAddress(master, stranger).join();
    assertThat(strangersWallet).isEqualTo(devnet.jettonWallet(master, stranger).address()).isNotEqualTo(wallet);
    assertThat(client.getJettonWalletData(strangersWallet).join()).as("never paid in: not deployed").isEmpty();

    try (ProviderPool pool = new ProviderPool(List.of(new ProviderPool.Provider("devnet", devnet.apiUrl(),
        new TonApiClient(TonApiConfig.of(devnet.apiUrl())))), ProviderPool.Settings.DEFAULT, null,
        java.time.Clock.systemUTC())) {
      assertThat(pool.getJettonWalletAddress(master, owner).join()).isEqualTo(wallet);
      assertThat(pool.getJettonWalletData(wallet).join()).isEqualTo(data);
    }
  }
}
