package org.tonpayouts.devnet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.wallet.TransferOrder;

/**
 * How many wallet messages devnet takes per second over HTTP and how long a block of them takes to
 * build: devnet must never be what limits a payout benchmark. Run with {@code -Dgroups=benchmark}.
 */
@Tag("benchmark")
class DevnetThroughputBenchmark {
  private static final Logger log = LoggerFactory.getLogger(DevnetThroughputBenchmark.class);
  private static final int WALLETS = 2000;
  private static final int CLIENT_THREADS = 8;

  @Test
  void shouldTakeThousandsOfMessagesPerBlock() throws Exception {
    TestWallet keyOwner = new TestWallet(50, 0);
    TonAddress user = TestWallet.someAddress(50);
    try (Devnet devnet = Devnet.builder().blockInterval(Duration.ofMillis(400)).start()) {
      List<String> bocs = new ArrayList<>();
      for (int i = 0; i < WALLETS; i++) {
        devnet.fund(keyOwner.subwallets.address(i), 1_000_000_000L);
        bocs.add(keyOwner.signer.sign(i, 0, Instant.now().plusSeconds(120),
            List.of(new TransferOrder(user, 1_000_000L, "bench " + i, false))).boc());
      }
      Http http = new Http(devnet);
      http.get("getMasterchainInfo", Map.of()); // connection and JIT warm-up
      ExecutorService pool = Executors.newFixedThreadPool(CLIENT_THREADS);
      long start = System.nanoTime();
      List<Future<Integer>> sends = new ArrayList<>();
      for (String boc : bocs) {
        sends.add(pool.submit(() -> http.post("sendBoc", Map.of("boc", boc)).status()));
      }
      for (Future<Integer> f : sends) {
        assertThat(f.get()).isEqualTo(200);
      }
      double sendSeconds = (System.nanoTime() - start) / 1e9;
      await().atMost(Duration.ofSeconds(30)).until(() -> devnet.stats().applied() == WALLETS);
      double allSeconds = (System.nanoTime() - start) / 1e9;
      pool.shutdownNow();
      log.info("benchmark wallets={} clientThreads={} sendsPerSecond={} sendSeconds={} appliedSeconds={}",
          WALLETS, CLIENT_THREADS, Math.round(WALLETS / sendSeconds), String.format("%.2f", sendSeconds),
          String.format("%.2f", allSeconds));
      assertThat(devnet.balance(user)).isEqualTo(WALLETS * 1_000_000L);
    }
  }
}
