package org.tonpayouts.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.devnet.HostileProxy;
import org.tonpayouts.embedded.EmbeddedKafkaBroker;
import org.tonpayouts.embedded.SharedTestInfrastructure;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.schemas.ConfirmationStatus;

/**
 * chain-poller, whose verdicts settle transfers, reads through a TON API node gone bad: the first
 * 10 calls after the load is produced get an endless body, a 1 GiB Content-Length, endless nesting,
 * a slow drip or a captive portal's page, two of each. Each fails its call alone; the poller keeps
 * running and, once the node behaves, every transfer settles exactly once with ledger = chain (the
 * scenario's own checks), and nothing was called expired on the strength of a bad answer.
 */
class HostilePollerNodeTest {
  private static final int SPOILED_CALLS = 10;

  @TempDir
  Path tmp;

  @Test
  void shouldSettleEveryTransferOnceThePollersNodeBehavesAgain() throws Exception {
    AtomicReference<HostileProxy> node = new AtomicReference<>();
    PayoutScenario.Counts counts;
    // a broker of its own: the topics' names are fixed, and the shared broker's hold other tests' requests
    try (EmbeddedKafkaBroker kafka = EmbeddedKafkaBroker.start()) {
      counts = new PayoutScenario(kafka.bootstrapServers(),
          SharedTestInfrastructure.databaseName(HostilePollerNodeTest.class), tmp)
          .load(3, 6)
          // a short call timeout so the slow drips cost seconds, not minutes
          .config(PayoutsConfig.TON_API_TIMEOUT_MS_CONFIG, 1_000)
          .config(PayoutsConfig.TON_API_MAX_RESPONSE_BYTES_CONFIG, 1024 * 1024)
          .pollerApi(devnet -> {
            node.set(HostileProxy.start(devnet.baseUrl()));
            return node.get().baseUrl();
          })
          .beforeLoad(devnet -> node.get().spoilNext(SPOILED_CALLS, HostileProxy.Answer.values()))
          .runAndVerify(); // every transfer SETTLED exactly once; ledger = chain; recipients paid exactly
    } finally {
      if (node.get() != null) {
        node.get().close();
      }
    }

    assertThat(node.get().hostileAnswers()).as("every spoiled call reached the poller").isEqualTo(SPOILED_CALLS);
    assertThat(node.get().forwarded()).as("and it went on reading once the node behaved").isPositive();
    assertThat(counts.poller().verdicts(ConfirmationStatus.EXPIRED)).as("no verdict from a bad answer").isZero();
  }
}
