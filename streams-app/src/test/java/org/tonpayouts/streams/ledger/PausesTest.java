package org.tonpayouts.streams.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.tonpayouts.streams.ledger.LedgerFixture.OTHER_WALLET;
import static org.tonpayouts.streams.ledger.LedgerFixture.SUBWALLET;
import static org.tonpayouts.streams.ledger.LedgerFixture.WALLET;
import static org.tonpayouts.streams.ledger.LedgerFixture.hash;
import static org.tonpayouts.streams.ledger.LedgerFixture.request;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.operator.PauseChange;
import org.tonpayouts.streams.ledger.record.Intent;
import org.tonpayouts.streams.ledger.record.RecordResult;
import org.tonpayouts.streams.ledger.record.RecordResult.Refusal;
import org.tonpayouts.streams.ledger.record.RecordResult.Refused;
import org.tonpayouts.streams.ledger.record.VerdictResult;
import org.tonpayouts.streams.ledger.sql.Pause;
import org.tonpayouts.streams.ledger.sql.PauseGate;
import org.tonpayouts.streams.ledger.sql.TransferStatus;

/**
 * The pause switch in the ledger, on a real PostgreSQL: while a pause covers a wallet no new intent
 * of it is recorded (nothing of the request registered either, so it waits as if never tried), its
 * messages recorded before still settle, a lifted pause lets the same intent through, a pause set
 * while an intent is being recorded waits for it, and every pause and lift is kept and audited.
 */
class PausesTest {
  private static final long OTHER_SUBWALLET = SUBWALLET + 1;

  @RegisterExtension
  static final LedgerFixture db = new LedgerFixture(PausesTest.class);
  private final Ledger ledger = db.ledger;

  private Intent intentOf(String requestId, long subwallet, String wallet, long seqno) {
    return db.intent(request(requestId, subwallet, 1, 1_500_000_000L), 0, 1, wallet, seqno, requestId + "-1");
  }

  private static Refused refused(RecordResult result) {
    assertThat(result).isInstanceOf(Refused.class);
    return (Refused) result;
  }

  @Test
  void shouldRefuseANewIntentWhilePausedAndRecordTheSameAfterResume() throws SQLException {
    assertThat(ledger.pauses().pause(SUBWALLET, "alice", "INC-7 drain suspected"))
        .isInstanceOf(PauseChange.Changed.class);
    Intent intent = intentOf("req-1", SUBWALLET, WALLET, 5);

    Refused refusal = refused(ledger.intents().record(intent));

    assertThat(refusal.refusal()).isEqualTo(Refusal.PAUSED);
    assertThat(refusal.detail()).contains("subwallet " + SUBWALLET + " paused by alice").contains("INC-7 drain suspected")
        .contains("not recorded, not sent");
    assertThat(db.queryLong("select count(*) from ton_transactions")).isZero();
    assertThat(db.queryLong("select count(*) from payout_requests")).isZero();

    assertThat(ledger.pauses().resume(SUBWALLET, "bob", "INC-7 closed")).isInstanceOf(PauseChange.Changed.class);

    assertThat(ledger.intents().record(intent)).isInstanceOf(RecordResult.Recorded.class);
    assertThat(db.queryLong("select count(*) from ton_transactions")).isEqualTo(1);
  }

  @Test
  void shouldCoverEveryWalletWhenTheDeploymentIsPausedAndOnlyItsOwnWhenAWalletIs() {
    ledger.pauses().pause(OTHER_SUBWALLET, "alice", "wallet B under review");

    List<RecordResult> walletPaused = ledger.intents().record(List.of(intentOf("a-1", SUBWALLET, WALLET, 1),
        intentOf("b-1", OTHER_SUBWALLET, OTHER_WALLET, 1)));
    ledger.pauses().pause(null, "carol", "INC-8 stop everything");
    RecordResult deploymentPaused = ledger.intents().record(intentOf("a-2", SUBWALLET, WALLET, 2));

    assertThat(walletPaused.get(0)).isInstanceOf(RecordResult.Recorded.class);
    assertThat(refused(walletPaused.get(1)).detail()).contains("subwallet " + OTHER_SUBWALLET + " paused by alice");
    assertThat(refused(deploymentPaused).refusal()).isEqualTo(Refusal.PAUSED);
    assertThat(refused(deploymentPaused).detail()).contains("the deployment paused by carol");

    // lifting the deployment's pause leaves the wallet's own
    ledger.pauses().resume(null, "carol", "INC-8 closed");
    assertThat(ledger.intents().record(intentOf("a-2", SUBWALLET, WALLET, 2))).isInstanceOf(RecordResult.Recorded.class);
    assertThat(refused(ledger.intents().record(intentOf("b-1", OTHER_SUBWALLET, OTHER_WALLET, 1))).detail())
        .contains("paused by alice");
  }

  @Test
  void shouldSettleAMessageRecordedBeforeThePauseAndRefuseItsNextAttempt() throws SQLException {
    Intent inFlight = intentOf("r-flight", SUBWALLET, WALLET, 3);
    Intent expiring = intentOf("r-expiring", OTHER_SUBWALLET, OTHER_WALLET, 9);
    assertThat(ledger.intents().record(List.of(inFlight, expiring))).allMatch(RecordResult::recorded);
    ledger.pauses().pause(null, "alice", "INC-9");

    assertThat(ledger.transitions().confirm(inFlight.messageHash(), hash("tx-1"), 42L, 1_700L, 2_000L))
        .isInstanceOf(VerdictResult.Applied.class);
    assertThat(ledger.transitions().expire(expiring.messageHash(), LedgerFixture.provenExpiry(expiring)))
        .isInstanceOf(VerdictResult.Applied.class);
    Intent secondAttempt = db.intent(expiring.request(), 0, 2, OTHER_WALLET, 9, "r-expiring-2");

    assertThat(ledger.queries().transfer("r-flight", "t-0").orElseThrow().status()).isEqualTo(TransferStatus.SETTLED);
    assertThat(refused(ledger.intents().record(secondAttempt)).refusal()).isEqualTo(Refusal.PAUSED);
    assertThat(db.queryLong("select count(*) from ton_transactions where request_id = 'r-expiring'")).isEqualTo(1);
  }

  @Test
  void shouldAuditPauseAndResumeWithTheOperatorAndKeepEveryPause() {
    PauseChange paused = ledger.pauses().pause(SUBWALLET, "alice", "INC-10");
    PauseChange again = ledger.pauses().pause(SUBWALLET, "mallory", "again");
    PauseChange resumed = ledger.pauses().resume(SUBWALLET, "bob", "INC-10 closed");
    PauseChange resumedAgain = ledger.pauses().resume(SUBWALLET, "bob", "twice");

    AuditEvent pauseAudit = ((PauseChange.Changed) paused).audit();
    assertThat(pauseAudit.event()).isEqualTo(AuditEvent.Type.PAUSED);
    assertThat(pauseAudit.level()).isEqualTo(AuditEvent.Level.WARNING);
    assertThat(pauseAudit.subwalletId()).isEqualTo(SUBWALLET);
    assertThat(pauseAudit.detail()).contains("alice").contains("INC-10");
    assertThat(again).isInstanceOf(PauseChange.AlreadyPaused.class);
    assertThat(((PauseChange.AlreadyPaused) again).pause().pausedBy()).isEqualTo("alice");
    AuditEvent resumeAudit = ((PauseChange.Changed) resumed).audit();
    assertThat(resumeAudit.event()).isEqualTo(AuditEvent.Type.RESUMED);
    assertThat(resumeAudit.detail()).contains("resumed by bob").contains("INC-10 closed").contains("paused by alice");
    assertThat(resumedAgain).isEqualTo(new PauseChange.NotPaused("subwallet " + SUBWALLET));

    assertThat(ledger.pauses().active()).isEmpty();
    assertThat(ledger.pauses().history(10)).singleElement().satisfies(p -> {
      assertThat(p.active()).isFalse();
      assertThat(p.pausedBy()).isEqualTo("alice");
      assertThat(p.liftedBy()).isEqualTo("bob");
      assertThat(p.liftReason()).isEqualTo("INC-10 closed");
    });
    assertThatThrownBy(() -> db.execute("update operator_pauses set paused_by = 'nobody'"))
        .hasMessageContaining("operator_pauses keeps every pause");
    assertThatThrownBy(() -> db.execute("delete from operator_pauses"))
        .hasMessageContaining("operator_pauses keeps every pause");
  }

  @Test
  void shouldWaitForAnIntentBeingRecordedThenHoldOffTheNext() throws Exception {
    CompletableFuture<PauseChange> pause;
    try (Connection recording = db.dataSource.getConnection()) {
      recording.setAutoCommit(false);
      // an intent's transaction past its pause check: it saw no pause
      assertThat(PauseGate.covering(recording, List.of(SUBWALLET))).isEmpty();

      pause = CompletableFuture.supplyAsync(() -> ledger.pauses().pause(null, "alice", "INC-11"));

      await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> !pause.isDone());
      recording.commit();
    }
    assertThat(pause.get(10, java.util.concurrent.TimeUnit.SECONDS)).isInstanceOf(PauseChange.Changed.class);

    assertThat(refused(ledger.intents().record(intentOf("late", SUBWALLET, WALLET, 1))).refusal())
        .isEqualTo(Refusal.PAUSED);
    assertThat(ledger.pauses().active()).extracting(Pause::deploymentWide).containsExactly(true);
  }
}
