package org.tonpayouts.streams.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.tonpayouts.streams.ledger.LedgerFixture.hash;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.tonpayouts.streams.ledger.record.Intent;
import org.tonpayouts.streams.ledger.record.Sends;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.LedgerStatus;
import org.tonpayouts.streams.send.SendLog;

/**
 * The {@link SendLog} on a real PostgreSQL: acknowledged sends wait for their message's verdict
 * and go with it; without one they reach the ledger on their own after the hold, or at close. (In
 * the ledger's test package for its fixture.)
 */
class SendLogTest {
  private static final Duration LONG = Duration.ofHours(1);
  @RegisterExtension
  static final LedgerFixture db = new LedgerFixture(SendLogTest.class);
  private final Ledger ledger = db.ledger;

  private Intent record(String requestId, long seqno) {
    Intent intent = db.intent(requestId, 1, seqno, requestId);
    assertThat(ledger.intents().record(intent).recorded()).isTrue();
    return intent;
  }

  private LedgerRow row(Intent intent) {
    return ledger.queries().findByMessageHash(intent.messageHash()).orElseThrow();
  }

  @Test
  void shouldHandOverEveryHeldSendOfAMessageForItsVerdict() {
    Intent intent = record("req-1", 7);
    try (SendLog log = new SendLog(ledger, db.clock, LONG)) {
      Instant first = db.clock.instant();
      log.sent(intent.messageHash());
      db.clock.advance(Duration.ofSeconds(3));
      log.sent(intent.messageHash()); // a re-send

      Map<String, Sends> taken = log.take(List.of(intent.messageHash(), hash("no sends")));

      assertThat(taken).containsExactly(Map.entry(intent.messageHash(), new Sends(first, 2)));
      assertThat(log.held()).isZero();
      assertThat(row(intent).status()).as("nothing written while held").isEqualTo(LedgerStatus.SIGNED);

      log.giveBack(taken); // the verdict's transaction failed
      assertThat(log.take(List.of(intent.messageHash()))).isEqualTo(taken);
    }
  }

  @Test
  void shouldWriteSendsWithoutAVerdictAfterTheHold() {
    Intent intent = record("req-1", 7);
    Instant sent = db.clock.instant();
    try (SendLog log = new SendLog(ledger, db.clock, Duration.ofMillis(50))) {
      log.sent(intent.messageHash());

      await("written on its own").atMost(Duration.ofSeconds(10)).until(() -> row(intent).sendCount() == 1);
      assertThat(log.held()).isZero();
    }
    assertThat(row(intent).status()).isEqualTo(LedgerStatus.SENT);
    assertThat(row(intent).sentAt()).isEqualTo(sent);
  }

  @Test
  void shouldWriteWhatItHoldsWhenClosed() {
    Intent intent = record("req-1", 7);
    SendLog log = new SendLog(ledger, db.clock, LONG);
    log.sent(intent.messageHash());
    assertThat(row(intent).sendCount()).isZero();

    log.close();

    assertThat(row(intent).status()).isEqualTo(LedgerStatus.SENT);
    assertThat(row(intent).sendCount()).isEqualTo(1);
  }
}
