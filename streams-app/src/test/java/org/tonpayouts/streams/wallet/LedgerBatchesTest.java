package org.tonpayouts.streams.wallet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.ops.OutageLog;
import org.tonpayouts.streams.ledger.sql.LedgerException;

/** A batch the ledger failed is an outage whose jobs are handed back; any other failure stays the batcher's. */
class LedgerBatchesTest {
  private final LedgerBatches batches = new LedgerBatches(new OutageLog(LoggerFactory.getLogger(getClass()), "ledger",
      Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC)));
  private final List<String> ran = new ArrayList<>();
  private final List<String> handedBack = new ArrayList<>();
  private boolean ledgerAway;

  private final Consumer<List<String>> issuing = batches.guard("issuing", jobs -> {
    if (ledgerAway) {
      throw new LedgerException("could not record 2 intents: Connection refused");
    }
    ran.addAll(jobs);
  }, handedBack::addAll);

  @Test
  void shouldHandBackTheJobsOfABatchTheLedgerFailedAndCountItAsAnOutageUntilABatchWorks() {
    ledgerAway = true;
    issuing.accept(List.of("a", "b"));
    issuing.accept(List.of("c"));

    assertThat(handedBack).containsExactly("a", "b", "c");
    assertThat(ran).isEmpty();
    assertThat(batches.ledgerDown()).isTrue();

    ledgerAway = false;
    issuing.accept(List.of("a"));

    assertThat(ran).containsExactly("a");
    assertThat(handedBack).hasSize(3);
    assertThat(batches.ledgerDown()).isFalse();
  }

  @Test
  void shouldStayDownWhileAnyKindOfBatchStillFails() {
    Consumer<List<String>> verdicts = batches.guard("verdicts", jobs -> {
      throw new LedgerException("could not record verdicts: Connection refused");
    }, handedBack::addAll);
    ledgerAway = true;
    issuing.accept(List.of("a"));
    verdicts.accept(List.of("v"));
    ledgerAway = false;
    issuing.accept(List.of("b"));

    assertThat(batches.ledgerDown()).as("verdicts still fail").isTrue();
  }

  @Test
  void shouldLeaveAnythingButTheLedgerToTheBatcher() {
    Consumer<List<String>> buggy = batches.guard("rechecks", jobs -> {
      throw new IllegalStateException("a bug");
    }, handedBack::addAll);

    assertThatThrownBy(() -> buggy.accept(List.of("r"))).isInstanceOf(IllegalStateException.class);
    assertThat(handedBack).as("the batcher hands them back, and logs the bug").isEmpty();
    assertThat(batches.ledgerDown()).isFalse();
  }
}
