package org.tonpayouts.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.TransferKind;
import org.tonpayouts.ton.wallet.Subwallets;

/** The launcher's load shapes and the parsers behind the benchmark's figures. */
class MeasurementsTest {
  @TempDir
  Path tmp;

  private final WalletSet wallets =
      new WalletSet(new Subwallets(RunKey.random().key(), 0), Subwallets.DEFAULT_SUBWALLET_ID, 4, 10);

  @Test
  void shouldSpreadTheDemoOverTheWalletsWithEveryThirdRequestSweepingACommission() {
    DemoLoad load = DemoLoad.demo(wallets, 9, "run", false, Instant.EPOCH);

    assertThat(load.requests()).extracting(PayoutRequest::subwalletId).containsExactly(
        698983191L, 698983192L, 698983193L, 698983194L, 698983191L, 698983192L, 698983193L, 698983194L, 698983191L);
    assertThat(load.requests()).filteredOn(r -> r.transfers().size() == 2).hasSize(3)
        .allSatisfy(r -> {
          assertThat(r.transfer(0).kind()).isEqualTo(TransferKind.PAYOUT);
          assertThat(r.transfer(1).kind()).isEqualTo(TransferKind.COMMISSION_SWEEP);
          assertThat(r.transfer(1).destination()).isEqualTo(wallets.treasury().toFriendly(false, false));
        });
    assertThat(load.transferCount()).isEqualTo(12);
    assertThat(load.maxTransfersPerWallet()).as("requests 0, 4 and 8, the first with a sweep").isEqualTo(4);
    assertThat(load.expectedReceipts().values().stream().mapToLong(Long::longValue).sum())
        .isEqualTo(load.expected().stream().mapToLong(ExpectedTransfer::amountNano).sum());
  }

  @Test
  void shouldGiveEveryWalletTheSameNumberOfSingleTransfersInTheBenchLoad() {
    DemoLoad load = DemoLoad.bench(wallets, 3, "bench", false, Instant.EPOCH);

    assertThat(load.requestCount()).isEqualTo(12);
    assertThat(load.transferCount()).isEqualTo(12);
    assertThat(load.maxTransfersPerWallet()).isEqualTo(3);
    assertThat(load.requests()).allSatisfy(r -> assertThat(r.transfers()).hasSize(1));
  }

  @Test
  void shouldTakeThePeakHeapFromTheLargestHeapBeforeACollection() throws Exception {
    Path gc = Files.writeString(tmp.resolve("gc.log"), String.join("\n",
        "[0.013s][info][gc] Using G1",
        "[0.901s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 18M->5M(256M) 16.899ms",
        "[1.969s][info][gc] GC(2) Pause Young (Normal) (G1 Evacuation Pause) 121M->9M(256M) 30.689ms",
        "[2.580s][info][gc] GC(3) Pause Remark 30M->30M(256M) 1.1ms", ""));

    assertThat(PeakHeap.fromGcLog(gc)).hasValue(121L << 20);
    assertThat(PeakHeap.fromGcLog(tmp.resolve("missing.log"))).isEmpty();
    assertThat(PeakHeap.launcher()).isPositive();
  }

  @Test
  void shouldTakeNearestRankPercentiles() {
    AddedLatency latency = new AddedLatency(List.of(10L, 20L, 30L, 40L, 50L, 60L, 70L, 80L, 90L, 1000L), 0);

    assertThat(latency.percentile(50)).isEqualTo(50);
    assertThat(latency.percentile(99)).isEqualTo(1000);
    assertThat(latency.max()).isEqualTo(1000);
    assertThat(new AddedLatency(List.of(), 3).percentile(50)).isZero();
  }
}
