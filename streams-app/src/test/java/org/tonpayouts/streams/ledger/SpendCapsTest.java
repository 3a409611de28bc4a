package org.tonpayouts.streams.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.tonpayouts.streams.ledger.LedgerFixture.MAX_ATTEMPTS;
import static org.tonpayouts.streams.ledger.LedgerFixture.OTHER_WALLET;
import static org.tonpayouts.streams.ledger.LedgerFixture.SUBWALLET;
import static org.tonpayouts.streams.ledger.LedgerFixture.WALLET;
import static org.tonpayouts.streams.ledger.LedgerFixture.request;

import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.tonpayouts.runtime.caps.SpendCap;
import org.tonpayouts.runtime.caps.SpendCaps;
import org.tonpayouts.streams.ledger.audit.Actor;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.caps.HoldRelease;
import org.tonpayouts.streams.ledger.caps.SpendHold;
import org.tonpayouts.streams.ledger.record.Intent;
import org.tonpayouts.streams.ledger.record.RecordResult;
import org.tonpayouts.streams.ledger.record.RecordResult.Recorded;
import org.tonpayouts.streams.ledger.record.RecordResult.Refusal;
import org.tonpayouts.streams.ledger.record.RecordResult.Refused;
import org.tonpayouts.streams.ledger.record.VerdictResult;

/**
 * The rolling spend caps in the ledger, on a real PostgreSQL: a transfer's first message is
 * recorded while it fits every window and refused (CAPPED, held, audited once) when it would cross
 * one; a transfer already signed is never held nor counted again; room comes back as the window
 * slides (time driven through the ledger's clock); the deployment's cap sums every wallet and its
 * checks take turns; an operator's release lets exactly that transfer through once.
 */
class SpendCapsTest {
  private static final long OTHER_SUBWALLET = SUBWALLET + 1;
  private static final long AMOUNT = 1_500_000_000L;
  private static final SpendCap THREE_TON_AN_HOUR = new SpendCap(Duration.ofHours(1), 3_000_000_000L);

  @RegisterExtension
  static final LedgerFixture db = new LedgerFixture(SpendCapsTest.class);

  private Ledger ledgerWith(List<SpendCap> perWallet, List<SpendCap> perDeployment) {
    return new Ledger(db.dataSource, db.clock, MAX_ATTEMPTS, LedgerFixture.EXPIRY_MARGIN,
        new SpendCaps(perWallet, perDeployment));
  }

  private Intent first(String requestId, long subwallet, String wallet, long seqno) {
    return db.intent(request(requestId, subwallet, 1, AMOUNT), 0, 1, wallet, seqno, requestId + "-1");
  }

  private static Refused refused(RecordResult result) {
    assertThat(result).isInstanceOf(Refused.class);
    return (Refused) result;
  }

  private long spent(long scope) throws Exception {
    return db.queryLong("select coalesce(sum(amount_nano), 0) from spend_buckets where subwallet_id = " + scope);
  }

  private List<AuditEvent> audits(Ledger ledger, String requestId, AuditEvent.Type type) {
    return ledger.audit().forRequest(requestId).stream().filter(e -> e.event() == type).toList();
  }

  @Test
  void shouldRecordWhatFitsAndHoldTheTransferThatWouldCrossTheWalletCap() throws Exception {
    Ledger ledger = ledgerWith(List.of(THREE_TON_AN_HOUR), List.of());

    assertThat(ledger.intents().record(List.of(first("r-1", SUBWALLET, WALLET, 1), first("r-2", SUBWALLET, WALLET, 2))))
        .allMatch(RecordResult::recorded);
    Refused held = refused(ledger.intents().record(first("r-3", SUBWALLET, WALLET, 3)));
    Refused heldAgain = refused(ledger.intents().record(first("r-3", SUBWALLET, WALLET, 3)));

    assertThat(held.refusal()).isEqualTo(Refusal.CAPPED);
    assertThat(held.detail()).contains("subwallet " + SUBWALLET + "'s cap of 3000000000 nanotons per 1h")
        .contains("3000000000 spent in the window, this transfer needs 1500000000").contains("not recorded, not sent");
    assertThat(held.retryAt()).isNotNull().isAfter(db.clock.instant());
    assertThat(heldAgain.refusal()).isEqualTo(Refusal.CAPPED);
    assertThat(db.queryLong("select count(*) from ton_transactions where request_id = 'r-3'")).isZero();
    assertThat(db.queryLong("select count(*) from payout_transfers where request_id = 'r-3' and seqno is null"))
        .as("registered, never bound to a seqno").isEqualTo(1);
    assertThat(spent(SUBWALLET)).isEqualTo(2 * AMOUNT);
    // one WARNING however often the wallet tries
    assertThat(audits(ledger, "r-3", AuditEvent.Type.SPEND_CAP_HELD)).singleElement()
        .satisfies(e -> assertThat(e.level()).isEqualTo(AuditEvent.Level.WARNING));
    assertThat(ledger.holds().waiting(10)).singleElement().satisfies(h -> {
      assertThat(h.transfer()).isEqualTo("r-3/t-0");
      assertThat(h.capScope()).isEqualTo("WALLET");
      assertThat(h.windowSeconds()).isEqualTo(3600);
      assertThat(h.spentNano()).isEqualTo(java.math.BigInteger.valueOf(2 * AMOUNT));
      assertThat(h.freesAt()).isEqualTo(held.retryAt());
    });
  }

  @Test
  void shouldNeverHoldNorCountAgainALaterAttemptOfASignedTransfer() throws Exception {
    Ledger ledger = ledgerWith(List.of(new SpendCap(Duration.ofHours(1), 2_000_000_000L)), List.of());
    Intent inFlight = first("r-flight", SUBWALLET, WALLET, 7);
    assertThat(ledger.intents().record(inFlight)).isInstanceOf(Recorded.class);
    assertThat(refused(ledger.intents().record(first("r-next", SUBWALLET, WALLET, 8))).refusal())
        .isEqualTo(Refusal.CAPPED);
    assertThat(ledger.transitions().expire(inFlight.messageHash(), LedgerFixture.provenExpiry(inFlight)))
        .isInstanceOf(VerdictResult.Applied.class);

    RecordResult secondAttempt = ledger.intents().record(db.intent(inFlight.request(), 0, 2, WALLET, 7, "r-flight-2"));

    assertThat(secondAttempt).isInstanceOf(Recorded.class);
    assertThat(spent(SUBWALLET)).as("counted once, at its first message").isEqualTo(AMOUNT);
    assertThat(ledger.holds().find("r-flight", "t-0")).isEmpty();
  }

  @Test
  void shouldLetTheHeldTransferGoOnceTheWindowSlidesPastTheOldestSpend() throws Exception {
    Ledger ledger = ledgerWith(List.of(THREE_TON_AN_HOUR), List.of());
    Instant start = db.clock.instant();
    assertThat(ledger.intents().record(first("r-1", SUBWALLET, WALLET, 1))).isInstanceOf(Recorded.class);
    db.clock.advance(Duration.ofMinutes(30));
    assertThat(ledger.intents().record(first("r-2", SUBWALLET, WALLET, 2))).isInstanceOf(Recorded.class);
    Refused held = refused(ledger.intents().record(first("r-3", SUBWALLET, WALLET, 3)));
    // r-1's minute leaves the window once a full window of buckets lies after it: the cap errs on the side of holding
    Instant r1Leaves = Instant.ofEpochSecond(Math.floorDiv(start.getEpochSecond(), 60) * 60 + 61 * 60);
    assertThat(held.retryAt()).isEqualTo(r1Leaves);

    db.clock.advance(Duration.between(db.clock.instant(), r1Leaves).minusSeconds(1));
    assertThat(refused(ledger.intents().record(first("r-3", SUBWALLET, WALLET, 3))).refusal())
        .isEqualTo(Refusal.CAPPED);
    db.clock.advance(Duration.ofSeconds(1));
    RecordResult afterSlide = ledger.intents().record(first("r-3", SUBWALLET, WALLET, 3));

    assertThat(afterSlide).isInstanceOf(Recorded.class);
    assertThat(ledger.holds().find("r-3", "t-0")).get().extracting(SpendHold::passedAt).isEqualTo(db.clock.instant());
    assertThat(ledger.holds().waiting(10)).isEmpty();
    assertThat(audits(ledger, "r-3", AuditEvent.Type.SPEND_CAP_RELEASED)).singleElement().satisfies(e -> {
      assertThat(e.level()).isEqualTo(AuditEvent.Level.INFO);
      assertThat(e.detail()).contains("windows have room again");
    });
    assertThat(audits(ledger, "r-3", AuditEvent.Type.SPEND_CAP_HELD)).hasSize(1);
  }

  @Test
  void shouldCapTheDeploymentOverEveryWalletInOneBatchAndAcrossBatches() throws Exception {
    Ledger ledger = ledgerWith(List.of(), List.of(THREE_TON_AN_HOUR));

    List<RecordResult> batch = ledger.intents().record(List.of(first("a-1", SUBWALLET, WALLET, 1),
        first("b-1", OTHER_SUBWALLET, OTHER_WALLET, 1), first("b-2", OTHER_SUBWALLET, OTHER_WALLET, 2)));
    Refused later = refused(ledger.intents().record(first("a-2", SUBWALLET, WALLET, 2)));

    assertThat(batch.get(0)).isInstanceOf(Recorded.class);
    assertThat(batch.get(1)).isInstanceOf(Recorded.class);
    assertThat(refused(batch.get(2)).refusal()).isEqualTo(Refusal.CAPPED);
    assertThat(refused(batch.get(2)).detail()).contains("the deployment's cap of 3000000000 nanotons per 1h");
    assertThat(later.detail()).contains("the deployment's cap");
    assertThat(spent(-1)).isEqualTo(2 * AMOUNT);
    assertThat(ledger.holds().waiting(10)).extracting(SpendHold::transfer).containsExactlyInAnyOrder("b-2/t-0", "a-2/t-0");
  }

  @Test
  void shouldHoldATransferOverTheCapByItselfUntilAnOperatorReleasesItThenPassItOnceAndCountIt() throws Exception {
    Ledger ledger = ledgerWith(List.of(new SpendCap(Duration.ofHours(24), 1_000_000_000L)), List.of());
    Refused held = refused(ledger.intents().record(first("big", SUBWALLET, WALLET, 1)));
    assertThat(held.detail()).contains("its amount alone is over the cap").contains("operator's release");
    assertThat(held.retryAt()).isNull();

    HoldRelease release =
        ledger.holds().release("big", "t-0", Actor.named("alice"), "INC-12 approved treasury move");
    HoldRelease again = ledger.holds().release("big", "t-0", Actor.named("bob"), "again");
    RecordResult afterRelease = ledger.intents().record(first("big", SUBWALLET, WALLET, 1));
    RecordResult next = ledger.intents().record(first("small", SUBWALLET, WALLET, 2));

    assertThat(release).isInstanceOfSatisfying(HoldRelease.Released.class, r -> {
      assertThat(r.audit().event()).isEqualTo(AuditEvent.Type.SPEND_CAP_RELEASED);
      assertThat(r.audit().level()).isEqualTo(AuditEvent.Level.WARNING);
      assertThat(r.audit().detail()).contains("released by alice: INC-12 approved treasury move");
    });
    assertThat(again).isInstanceOfSatisfying(HoldRelease.AlreadyReleased.class,
        a -> assertThat(a.hold().releasedBy()).isEqualTo("alice"));
    assertThat(afterRelease).isInstanceOf(Recorded.class);
    assertThat(spent(SUBWALLET)).as("a released transfer still counts").isEqualTo(AMOUNT);
    assertThat(refused(next).refusal()).as("the release was for that transfer only").isEqualTo(Refusal.CAPPED);
    assertThat(ledger.holds().release("big", "t-0", Actor.named("alice"), "twice"))
        .isEqualTo(new HoldRelease.NotHeld("big", "t-0"));
    // the operator's release is the one audit of it: no INFO when it then passes
    assertThat(audits(ledger, "big", AuditEvent.Type.SPEND_CAP_RELEASED)).hasSize(1);
  }

  @Test
  void shouldMakeDeploymentCapChecksTakeTurnsAcrossTransactions() throws Exception {
    Ledger ledger = ledgerWith(List.of(), List.of(THREE_TON_AN_HOUR));
    CompletableFuture<RecordResult> recording;
    try (Connection other = db.dataSource.getConnection()) {
      other.setAutoCommit(false);
      // another instance's recording, between its deployment cap check and its commit
      try (var s = other.createStatement()) {
        s.execute("select pg_advisory_xact_lock(" + 0x7370656e64L + ")");
      }
      recording = CompletableFuture.supplyAsync(() -> ledger.intents().record(first("w-1", SUBWALLET, WALLET, 1)));

      await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> !recording.isDone());
      other.commit();
    }
    assertThat(recording.get(10, TimeUnit.SECONDS)).isInstanceOf(Recorded.class);
  }

  @Test
  void shouldCheckNothingWithoutCaps() throws Exception {
    Ledger ledger = ledgerWith(List.of(), List.of());

    assertThat(ledger.intents().record(first("free", SUBWALLET, WALLET, 1))).isInstanceOf(Recorded.class);
    assertThat(db.queryLong("select count(*) from spend_buckets")).isZero();
  }

  @Test
  void shouldForgetAHoldWhoseTransferEndedWithoutAMessage() {
    Ledger ledger = ledgerWith(List.of(new SpendCap(Duration.ofHours(1), 1_000_000_000L)), List.of());
    Intent held = first("poor", SUBWALLET, WALLET, 1);
    assertThat(refused(ledger.intents().record(held)).refusal()).isEqualTo(Refusal.CAPPED);
    assertThat(ledger.holds().waitingCount()).isEqualTo(1);

    // its wallet's next try finds the wallet cannot pay it: failed before signing
    ledger.transfers().failBeforeSigning(held.request(), held.origin(), WALLET, 0, "insufficient balance");

    assertThat(ledger.holds().waiting(10)).isEmpty();
    assertThat(ledger.holds().waitingCount()).isZero();
    assertThat(ledger.holds().waitingFor(SUBWALLET)).isEmpty();
    assertThat(ledger.holds().release("poor", "t-0", Actor.named("alice"), "too late"))
        .isInstanceOf(HoldRelease.NotHeld.class);
  }
}
