package org.tonpayouts.local.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.devnet.Faults;
import org.tonpayouts.local.measure.BlockClock;
import org.tonpayouts.local.measure.CpuTimes;

/** The benchmark's own clients, devnet's capacity sender and the per-wallet-loop peer, on a real devnet. */
class BenchClientsTest {
  private static final Duration BLOCK = Duration.ofMillis(100);
  private static final Supplier<CpuTimes> NO_CPU = () -> new CpuTimes(Map.of(), Optional.empty());

  private final Clock clock = Clock.systemUTC();
  private final StringWriter printed = new StringWriter();
  private final PrintWriter out = new PrintWriter(printed);
  private Devnet devnet;
  private BlockClock blocks;

  @BeforeEach
  void start() {
    devnet = Devnet.builder().blockInterval(BLOCK).start();
    blocks = BlockClock.start(devnet, clock);
  }

  @AfterEach
  void stop() {
    blocks.close();
    devnet.close();
  }

  @Test
  void shouldApplyEveryPreSignedMessageAtNoMoreThanOnePerWalletPerBlock() throws Exception {
    FreshWallets wallets = FreshWallets.create(3);

    DevnetCapacity.Result result = new DevnetCapacity(devnet, NO_CPU, clock, out, 2).measure(wallets, 4);

    assertThat(result.stoppedBecause()).isEmpty();
    assertThat(result.applied()).isEqualTo(12);
    wallets.wallets().subwalletIds().forEach(id -> assertThat(devnet.seqno(wallets.wallets().address(id)))
        .isEqualTo(4));
    assertThat(result.calls().byProcessAndMethod()).containsExactly(Map.entry("capacity sendBocReturnHash", 12L));
    // 3 wallets every 100 ms is 30/s; the first round waits for a block, so 4 rounds take over 3 blocks
    assertThat(result.perSecond()).isPositive().isLessThanOrEqualTo(30.0 * 4 / 3);
  }

  @Test
  void shouldSendAgainAMessageTheApiRefused() throws Exception {
    FreshWallets wallets = FreshWallets.create(2);
    devnet.node(DevnetCapacity.NODE).faults().apply(Faults.Settings.none().withRateLimit(0, 1)
        .withRateLimitScope(Faults.RateLimitScope.SENDS));

    DevnetCapacity.Result result = new DevnetCapacity(devnet, NO_CPU, clock, out, 4).measure(wallets, 2);

    assertThat(result.applied()).isEqualTo(4);
    assertThat(result.sendFailures()).isEqualTo(1);
    assertThat(result.calls().failures()).containsExactly(Map.entry("capacity sendBocReturnHash rate_limited", 1L));
  }

  @Test
  void shouldPayEveryTransferOfThePeerOnceWithAFreshSeqnoReadEach() throws Exception {
    FreshWallets wallets = FreshWallets.create(3);

    PeerLoop.Result result = new PeerLoop(devnet, blocks, NO_CPU, clock, out, Duration.ofMillis(50), 4)
        .run(wallets, 3, Duration.ofSeconds(30));

    assertThat(result.stoppedBecause()).isEmpty();
    assertThat(result.settled()).isEqualTo(9);
    assertThat(result.restarts()).isZero();
    wallets.wallets().subwalletIds().forEach(id -> assertThat(devnet.seqno(wallets.wallets().address(id)))
        .as("one transaction per transfer, none twice").isEqualTo(3));
    assertThat(result.calls().byProcessAndMethod()).containsEntry("peer sendBocReturnHash", 9L);
    assertThat(result.calls().byProcessAndMethod().get("peer getWalletInformation"))
        .as("a read before each transfer and at least one until its seqno moved").isGreaterThanOrEqualTo(18L);
    assertThat(result.latency().added().millis()).hasSize(9);
    assertThat(result.latency().added().unmeasured()).isZero();
    // reads every 50 ms see a block within about that; the margin covers a busy machine
    assertThat(result.latency().settlePath().percentile(50)).isBetween(-50L, 1_000L);
    assertThat(result.cycle().millis()).hasSize(9);
  }

  @Test
  void shouldLetThePeerSendAgainASendThatFailed() throws Exception {
    FreshWallets wallets = FreshWallets.create(1);
    devnet.node(DevnetCapacity.NODE).faults().apply(Faults.Settings.none().withRateLimit(0, 1)
        .withRateLimitScope(Faults.RateLimitScope.SENDS));

    PeerLoop.Result result = new PeerLoop(devnet, blocks, NO_CPU, clock, out, Duration.ofMillis(50), 4)
        .run(wallets, 2, Duration.ofSeconds(30));

    assertThat(result.settled()).isEqualTo(2);
    assertThat(result.sendFailures()).isEqualTo(1);
    assertThat(result.restarts()).as("the refused message was sent again, not left to expire").isZero();
    assertThat(devnet.seqno(wallets.wallets().address(wallets.wallets().subwalletId(0)))).isEqualTo(2);
  }
}
