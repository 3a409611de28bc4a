package org.tonpayouts.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.embedded.EmbeddedKafkaBroker;
import org.tonpayouts.embedded.SharedTestInfrastructure;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.schemas.ConfirmationStatus;

/**
 * The double payout this project once had, replayed end to end on the real broker: chain-poller
 * reads from an API node that lags 150 blocks (15 s, longer than valid_until's 10 s plus the
 * 1 s margin) while streams-app reads from an up-to-date one. Every first transfer of a wallet
 * applies at once but stays invisible to the poller past its valid_until by our clocks. The old
 * rule ("our clock past valid_until + margin, and the seqno read shows it unused") called each of
 * them EXPIRED and paid it again under a new seqno. Now expiry rests on the node's own time,
 * which lags with its state: nothing expires, every transfer settles once when the node catches
 * up, and the ledger equals the chain.
 *
 * <p>The same holds for jettons, whose verdicts rest on the jetton wallets' transactions, which the
 * lagging node lists only up to its block: a jetton payout (with its commission sweep after it) is
 * only SETTLED once the node shows the receiver's acceptance, and a jetton the receiver's locked
 * jetton wallet refuses only FAILED once it shows the refusal and our re-credit; never EXPIRED or
 * paid twice.
 */
class LaggingPollerNodeTest {
  private static final int LAG_BLOCKS = 150;
  private static final Duration LAG = Duration.ofSeconds(25);

  @TempDir
  Path tmp;

  @Test
  void shouldConfirmRatherThanExpireWhatAppliedWhileThePollersNodeLagsPastValidUntil() throws Exception {
    PayoutScenario.Counts counts;
    // a broker of its own: the topics' names are fixed, and the shared broker's hold other tests' requests
    try (EmbeddedKafkaBroker kafka = EmbeddedKafkaBroker.start()) {
      counts = scenario(kafka.bootstrapServers());
    }

    assertThat(counts.poller().verdicts(ConfirmationStatus.EXPIRED)).as("nothing expired on a lagging view").isZero();
    assertThat(counts.poller().apiCalls("getAddressInformation")).as("the poller did look at the node's state")
        .isPositive();
    assertThat(counts.streams().count("ton.tx.signed")).as("one message per transfer, none re-signed")
        .isEqualTo(transfers(counts, "SETTLED") + transfers(counts, "FAILED"));
    assertThat(transfers(counts, "FAILED")).as("only the refused jetton failed").isEqualTo(1.0);
  }

  private PayoutScenario.Counts scenario(String bootstrapServers) throws Exception {
    return new PayoutScenario(bootstrapServers,
        SharedTestInfrastructure.databaseName(LaggingPollerNodeTest.class), tmp)
        .load(3, 6) // request 2 pays a jetton
        .jettons()
        .config(PayoutsConfig.TRANSFER_TTL_SECONDS_CONFIG, 10)
        .config(PayoutsConfig.TRANSFER_CLOCK_SKEW_SECONDS_CONFIG, 1)
        .pollerApi(devnet -> devnet.node("poller").apiUrl())
        .beforeLoad(devnet -> devnet.node("poller").faults().lag(LAG_BLOCKS, LAG))
        .runAndVerify(); // every transfer decided exactly once as planned; ledger = chain; TON and jettons exact
  }

  private static double transfers(PayoutScenario.Counts counts, String status) {
    var settled = counts.streams().registry().find("payout.transfers.settled").tag("status", status).counter();
    return settled == null ? 0 : settled.count();
  }
}
