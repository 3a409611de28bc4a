package org.tonpayouts.devnet;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.BlockId;
import org.tonpayouts.ton.api.BlockTransactions;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;
import org.tonpayouts.ton.wallet.TransferOrder;

/**
 * What reading one busy block costs a block follower: a block of {@value #WALLETS} payouts (one
 * wallet transaction and one delivery each) read page by page with the project's client, at
 * several page sizes: requests, wall time and CPU (client and devnet together, one process) per
 * transaction. Run with {@code -Dgroups=benchmark}.
 */
@Tag("benchmark")
class BlockReadsBenchmark {
  private static final Logger log = LoggerFactory.getLogger(BlockReadsBenchmark.class);
  private static final int WALLETS = 1000;
  private static final int ROUNDS = 10;

  @Test
  void shouldReadABusyBlockInFewRequests() {
    TestWallet keyOwner = new TestWallet(60, 0);
    try (Devnet devnet = Devnet.builder().blockInterval(Duration.ZERO).start();
         TonApiClient client = new TonApiClient(TonApiConfig.of(devnet.apiUrl()).withRequestsPerSecond(10_000))) {
      Http http = new Http(devnet);
      for (int i = 0; i < WALLETS; i++) {
        devnet.fund(keyOwner.subwallets.address(i), 1_000_000_000L);
        byte[] user = new byte[32];
        user[0] = (byte) 0xCD;
        user[30] = (byte) (i >> 8);
        user[31] = (byte) i;
        String boc = keyOwner.signer.sign(i, 0, Instant.now().plusSeconds(120),
            List.of(new TransferOrder(TonAddress.of(0, user), 1_000_000L, "payout " + i, false))).boc();
        assertThat(http.post("sendBoc", Map.of("boc", boc)).status()).isEqualTo(200);
      }
      devnet.produceBlock();
      BlockId block = client.getShards(devnet.masterchainSeqno()).join().get(0);
      int transactions = readAll(client, block, 256); // warm-up; also the expected size
      assertThat(transactions).isEqualTo(2 * WALLETS);

      for (int count : new int[] {256, 1024, BlockTransactions.MAX_COUNT}) {
        long requestsBefore = client.requestsSent();
        long cpuBefore = processCpuNanos();
        long start = System.nanoTime();
        for (int r = 0; r < ROUNDS; r++) {
          assertThat(readAll(client, block, count)).isEqualTo(transactions);
        }
        double wallMs = (System.nanoTime() - start) / 1e6 / ROUNDS;
        double cpuUsPerTx = (processCpuNanos() - cpuBefore) / 1e3 / ROUNDS / transactions;
        long requests = (client.requestsSent() - requestsBefore) / ROUNDS;
        log.info("benchmark blockTransactions={} count={} requestsPerBlock={} wallMsPerBlock={} cpuMicrosPerTransaction={}",
            transactions, count, requests, String.format("%.1f", wallMs), String.format("%.1f", cpuUsPerTx));
      }
    }
  }

  private static int readAll(TonApiClient client, BlockId block, int count) {
    int read = 0;
    BlockTransactions.After after = null;
    while (true) {
      BlockTransactions page = client.getBlockTransactions(block, after, count).join();
      read += page.transactions().size();
      if (page.next().isEmpty()) {
        return read;
      }
      after = page.next().get();
    }
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }
}
