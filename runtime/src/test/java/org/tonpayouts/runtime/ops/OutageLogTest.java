package org.tonpayouts.runtime.ops;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.tonpayouts.devnet.ManualClock;

/** A dependency that keeps failing is logged when it starts and stops failing, and once a minute between. */
class OutageLogTest {
  private final Logger logger = (Logger) LoggerFactory.getLogger("outage-log-test");
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final ManualClock clock = ManualClock.fixedAt(Instant.parse("2026-11-27T06:00:00Z"));
  private final OutageLog reads = new OutageLog(logger, "masterchain reads", Duration.ofSeconds(60), clock);

  @BeforeEach
  void capture() {
    logged.start();
    logger.addAppender(logged);
  }

  @AfterEach
  void release() {
    logger.detachAppender(logged);
  }

  @Test
  void shouldLogAnOutageOfAThousandFailedRoundsInThreeLinesAndItsEndInOne() {
    for (int round = 0; round < 1_000; round++) { // a round every 100 ms for 100 s
      reads.failed("TransportException: connection refused " + round);
      clock.advance(Duration.ofMillis(100));
    }
    reads.succeeded();
    reads.succeeded();

    assertThat(lines()).containsExactly(
        "WARN masterchain reads failing error=TransportException: connection refused 0",
        "WARN masterchain reads still failing for 60 s failures=601 (since the last line 600) failingNow=1 last:"
            + " error=TransportException: connection refused 600",
        "INFO masterchain reads working again after 100 s failures=1000 last: error=TransportException: connection"
            + " refused 999");
    assertThat(reads.down()).isFalse();
  }

  @Test
  void shouldTreatOneWalletThatKeepsFailingAmongOthersThatWorkAsOneOutage() {
    for (int round = 0; round < 20; round++) {
      reads.succeeded("subwallet=1");
      reads.failed("subwallet=2", "NotFoundException " + round);
      reads.succeeded("subwallet=3");
      clock.advance(Duration.ofSeconds(5));
    }
    assertThat(reads.down()).isTrue();
    reads.succeeded("subwallet=2");

    List<String> lines = lines();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).isEqualTo("WARN masterchain reads failing subwallet=2 error=NotFoundException 0");
    assertThat(lines.get(1)).startsWith("WARN masterchain reads still failing for 60 s failures=13")
        .contains("failingNow=1 (subwallet=2)");
    assertThat(lines.get(2)).startsWith("INFO masterchain reads working again after 100 s failures=20");
  }

  @Test
  void shouldStartAFreshOutageAfterARecovery() {
    reads.failed("first");
    reads.succeeded();
    clock.advance(Duration.ofSeconds(1));
    reads.failed("second");

    assertThat(lines()).containsExactly("WARN masterchain reads failing error=first",
        "INFO masterchain reads working again after 0 s failures=1 last: error=first",
        "WARN masterchain reads failing error=second");
  }

  private List<String> lines() {
    return logged.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.INFO))
        .map(e -> e.getLevel() + " " + e.getFormattedMessage()).toList();
  }
}
