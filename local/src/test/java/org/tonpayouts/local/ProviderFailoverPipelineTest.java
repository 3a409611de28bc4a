package org.tonpayouts.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.devnet.Faults;
import org.tonpayouts.embedded.EmbeddedKafkaBroker;
import org.tonpayouts.embedded.SharedTestInfrastructure;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.ton.api.TonApiMetrics;

/**
 * Both apps on two providers (ton.api.urls), the preferred one down for a while: half its calls
 * answer 429 and every message it takes is queued and then its connection is cut (so the same
 * message goes on to the other provider, and may reach the chain twice over). Every transfer still
 * settles exactly once with one signed message each, and the ledger equals the chain (the scenario's
 * own checks). (The provider heals after 3 s; the load is usually settled by then, so its return is
 * ProviderPoolTest's to show.)
 */
class ProviderFailoverPipelineTest {
  private static final long DOWN_FOR_MS = 3_000;

  @TempDir
  Path tmp;

  @Test
  void shouldSettleEveryTransferOnceWhileThePreferredProviderIsDown() throws Exception {
    PayoutScenario.Counts counts;
    ScheduledExecutorService healer = Executors.newSingleThreadScheduledExecutor();
    // a broker of its own: the topics' names are fixed, and the shared broker's hold other tests' requests
    try (EmbeddedKafkaBroker kafka = EmbeddedKafkaBroker.start()) {
      counts = new PayoutScenario(kafka.bootstrapServers(),
          SharedTestInfrastructure.databaseName(ProviderFailoverPipelineTest.class), tmp)
          .load(3, 6)
          .config(PayoutsConfig.TON_API_PROVIDER_FAILURES_CONFIG, 2)
          .config(PayoutsConfig.TON_API_PROVIDER_SET_ASIDE_MS_CONFIG, 500)
          .providers(devnet -> devnet.node("a").apiUrl() + "|name=a," + devnet.node("b").apiUrl() + "|name=b")
          .beforeLoad(devnet -> {
            devnet.node("a").faults().rateLimit(0.5).transportErrors(1.0, Faults.TransportError.CLOSE);
            // a fault that lasts a while, lifted on time: what the test waits for is the settlements
            healer.schedule(() -> devnet.node("a").faults().clear(), DOWN_FOR_MS, TimeUnit.MILLISECONDS);
          })
          .runAndVerify(); // every transfer SETTLED exactly once; ledger = chain; recipients paid exactly
    } finally {
      healer.shutdownNow();
    }

    MeterRegistry streams = counts.streams().registry();
    assertThat(calls(streams, "a", "failed")).as("provider a did fail streams-app's calls").isPositive();
    assertThat(calls(streams, "b", "ok")).as("provider b carried them").isPositive();
    assertThat(counts.streams().count("ton.tx.signed")).as("one message per transfer, none re-signed")
        .isEqualTo(streams.find("payout.transfers.settled").tag("status", "SETTLED").counter().count());
  }

  private static double calls(MeterRegistry registry, String provider, String outcome) {
    Counter c = registry.find(TonApiMetrics.PROVIDER_CALLS).tag("provider", provider).tag("outcome", outcome).counter();
    return c == null ? 0 : c.count();
  }
}
