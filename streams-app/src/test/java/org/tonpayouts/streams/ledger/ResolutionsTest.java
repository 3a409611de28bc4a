package org.tonpayouts.streams.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tonpayouts.streams.ledger.LedgerFixture.DESTINATION;
import static org.tonpayouts.streams.ledger.LedgerFixture.WALLET;
import static org.tonpayouts.streams.ledger.LedgerFixture.hash;

import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.audit.PendingSettlement;
import org.tonpayouts.streams.ledger.operator.AdminQueries;
import org.tonpayouts.streams.ledger.operator.ChainPayment;
import org.tonpayouts.streams.ledger.operator.NonPaymentEvidence;
import org.tonpayouts.streams.ledger.operator.ResolutionResult.NotFound;
import org.tonpayouts.streams.ledger.operator.ResolutionResult.NotReconcilable;
import org.tonpayouts.streams.ledger.operator.ResolutionResult.Refused;
import org.tonpayouts.streams.ledger.operator.ResolutionResult.Resolved;
import org.tonpayouts.streams.ledger.operator.ResolutionResult.Unproven;
import org.tonpayouts.streams.ledger.operator.ResolutionResult;
import org.tonpayouts.streams.ledger.record.Intent;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.LedgerStatus;
import org.tonpayouts.streams.ledger.sql.TransferStatus;

/**
 * Operators' resolutions on a real PostgreSQL: RECONCILIATION_REQUIRED moves to SETTLED or FAILED
 * once, with who and why in the audit log and the second settlement queued in the same transaction;
 * a transaction settles at most as many transfers as it pays; FAILED is refused while the chain
 * evidence holds a payment of the destination's amount that settles no transfer yet, unless the
 * call acknowledges exactly that transaction (recorded in the audit row).
 */
class ResolutionsTest {
  private static final String TX = hash("the paying transaction");
  @RegisterExtension
  static final LedgerFixture db = new LedgerFixture(ResolutionsTest.class);
  private final Ledger ledger = db.ledger;

  @BeforeEach
  void emptyOutbox() throws SQLException {
    db.execute("truncate settlement_outbox");
  }

  /** A transfer whose message was flagged RECONCILIATION_REQUIRED by the chain poller. */
  private Intent reconciliationRequired(String requestId, long seqno) {
    PayoutRequest request = LedgerFixture.request(requestId, 1);
    Intent intent = db.intent(request, 0, 1, WALLET, seqno, requestId);
    assertThat(ledger.intents().record(intent).recorded()).isTrue();
    ledger.transitions().reconcile(intent.messageHash(), "seqno moved past " + seqno + " without our hash");
    return intent;
  }

  private static ChainPayment payment(String inMessage, int paying) {
    return new ChainPayment(TX, 4_000_001L, 1_767_270_000L, 2_000_000L, inMessage, paying);
  }

  /** What the admin API read from the chain for a FAILED resolution: {@code matches} pay the destination the amount. */
  private static NonPaymentEvidence evidence(ChainPayment... matches) {
    return new NonPaymentEvidence(1_767_270_100L, 8, 1_767_270_050L, 1_767_269_990L, 12, List.of(matches));
  }

  @Test
  void shouldSettleWithAnotherSignersTransactionAuditAndQueueTheSecondSettlement() {
    Intent intent = reconciliationRequired("req-1", 7);

    ResolutionResult result = ledger.resolutions().settle("req-1", "t-0", payment(hash("foreign"), 1), "alice",
        "paid by hand from the treasury, OPS-17");

    assertThat(result).isInstanceOf(Resolved.class);
    Resolved r = (Resolved) result;
    assertThat(r.transfer().status()).isEqualTo(TransferStatus.SETTLED);
    assertThat(r.transfer().txHash()).isEqualTo(TX);
    assertThat(r.audit().event()).isEqualTo(AuditEvent.Type.OPERATOR_RESOLUTION);
    assertThat(r.audit().detail()).contains("alice").contains("OPS-17").contains("another signer");
    Settlement s = r.settlement();
    assertThat(s.status()).isEqualTo(SettlementStatus.SETTLED);
    assertThat(s.txHash()).isEqualTo(TX);
    assertThat(s.lt()).isEqualTo(4_000_001L);
    assertThat(s.seqno()).isEqualTo(7L);
    assertThat(s.resolution().operator()).isEqualTo("alice");
    assertThat(s.resolution().auditId()).isEqualTo(r.audit().id());
    assertThat(ledger.queries().transfer("req-1", "t-0").orElseThrow().status()).isEqualTo(TransferStatus.SETTLED);
    assertThat(ledger.queries().attempts("req-1", "t-0")).extracting(LedgerRow::status)
        .as("our message did not apply: the chain's word on it stays").containsExactly(LedgerStatus.RECONCILIATION_REQUIRED);
    assertThat(ledger.settlementOutbox().unpublished()).isEqualTo(1);
    assertThat(ledger.admin().lifecycle("req-1").orElseThrow().transfers().get(0).resolutions())
        .extracting(PendingSettlement::settlement).containsExactly(s);
    assertThat(intent.messageHash()).isNotNull();
  }

  @Test
  void shouldConfirmOurMessageWhenTheNamedTransactionAppliedIt() {
    Intent intent = reconciliationRequired("req-1", 7);

    Resolved r = (Resolved) ledger.resolutions().settle("req-1", "t-0", payment(intent.messageHash(), 1), "bob",
        "the poller missed it: found on an explorer");

    assertThat(ledger.queries().attempts("req-1", "t-0")).singleElement().satisfies(m -> {
      assertThat(m.status()).isEqualTo(LedgerStatus.CONFIRMED);
      assertThat(m.txHash()).isEqualTo(TX);
      assertThat(m.lt()).isEqualTo(4_000_001L);
    });
    assertThat(r.transfer().messageHash()).isEqualTo(intent.messageHash());
    assertThat(r.audit().detail()).contains("applied our message " + intent.messageHash());
  }

  @Test
  void shouldFailWithWhoAndWhyAndRefuseASecondResolution() {
    reconciliationRequired("req-1", 7);

    Resolved r = (Resolved) ledger.resolutions().fail("req-1", "t-0", evidence(), null, "carol",
        "not on chain; another signer used 7");
    ResolutionResult again = ledger.resolutions().settle("req-1", "t-0", payment(null, 1), "dave", "changed my mind");

    assertThat(r.transfer().status()).isEqualTo(TransferStatus.FAILED);
    assertThat(r.transfer().reason()).isEqualTo("resolved FAILED by carol: not on chain; another signer used 7");
    assertThat(r.settlement().status()).isEqualTo(SettlementStatus.FAILED);
    assertThat(r.settlement().reason()).isEqualTo(r.transfer().reason());
    assertThat(r.settlement().resolution().note()).isEqualTo("not on chain; another signer used 7");
    assertThat(again).isInstanceOf(NotReconcilable.class);
    assertThat(((NotReconcilable) again).transfer().status()).isEqualTo(TransferStatus.FAILED);
    assertThat(ledger.resolutions().fail("req-9", "t-0", evidence(), null, "carol", "x")).isInstanceOf(NotFound.class);
    assertThat(r.audit().detail()).contains("node time 1767270100").contains("wallet seqno 8")
        .contains("12 transaction(s) read").contains("no transaction pays");
    assertThat(r.audit().txHash()).isNull();
    assertThat(ledger.audit().forRequest("req-1")).extracting(AuditEvent::event)
        .containsExactly(AuditEvent.Type.RECONCILIATION_REQUIRED, AuditEvent.Type.OPERATOR_RESOLUTION);
    assertThat(ledger.settlementOutbox().unpublished()).isEqualTo(1);
  }

  @Test
  void shouldSettleNoMoreTransfersWithOneTransactionThanItPays() {
    reconciliationRequired("req-1", 7);
    reconciliationRequired("req-2", 8);
    reconciliationRequired("req-3", 9);

    assertThat(ledger.resolutions().settle("req-1", "t-0", payment(null, 2), "alice", "one tx paid two"))
        .isInstanceOf(Resolved.class);
    assertThat(ledger.resolutions().settle("req-2", "t-0", payment(null, 2), "alice", "one tx paid two"))
        .isInstanceOf(Resolved.class);
    ResolutionResult third = ledger.resolutions().settle("req-3", "t-0", payment(null, 2), "alice", "and a third?");

    assertThat(third).isInstanceOf(Refused.class);
    assertThat(((Refused) third).why()).contains("2 time(s)").contains("req-1/t-0").contains("req-2/t-0")
        .contains(DESTINATION);
    assertThat(ledger.queries().transfer("req-3", "t-0").orElseThrow().status())
        .isEqualTo(TransferStatus.RECONCILIATION_REQUIRED);
  }

  @Test
  void shouldRefuseToFailWhileAPaymentOfTheDestinationsAmountIsOnChainNamingIt() {
    reconciliationRequired("req-1", 7);

    ResolutionResult result = ledger.resolutions().fail("req-1", "t-0", evidence(payment(hash("foreign"), 1)), null,
        "carol", "not paid, I think");

    assertThat(result).isInstanceOf(Unproven.class);
    assertThat(((Unproven) result).missing()).contains("transaction " + TX + " (lt 4000001")
        .contains("pays 1500000000 nanotons to " + DESTINATION).contains("acknowledgePaysSomethingElse=" + TX);
    assertThat(ledger.queries().transfer("req-1", "t-0").orElseThrow().status())
        .isEqualTo(TransferStatus.RECONCILIATION_REQUIRED);
    assertThat(ledger.settlementOutbox().unpublished()).isZero();
  }

  @Test
  void shouldFailWithAnAcknowledgementOfExactlyTheMatchingTransactionAndRecordIt() {
    reconciliationRequired("req-1", 7);
    String other = hash("another transaction");

    ResolutionResult wrong = ledger.resolutions().fail("req-1", "t-0", evidence(payment(null, 1)), other, "carol",
        "it pays the March refund");
    Resolved r = (Resolved) ledger.resolutions().fail("req-1", "t-0", evidence(payment(null, 1)), TX, "carol",
        "it pays the March refund, OPS-18");

    assertThat(((Unproven) wrong).missing()).contains("names transaction " + other).contains("is " + TX);
    assertThat(r.transfer().status()).isEqualTo(TransferStatus.FAILED);
    assertThat(r.audit().txHash()).isEqualTo(TX);
    assertThat(r.audit().detail()).contains("OPS-18")
        .contains("transaction " + TX + " pays 1500000000 nanotons to " + DESTINATION)
        .contains("carol acknowledged that it pays something else");
  }

  @Test
  void shouldNotCountAPaymentThatAlreadySettlesATransferAndRefuseAPointlessAcknowledgement() {
    reconciliationRequired("req-1", 7);
    reconciliationRequired("req-2", 8);
    assertThat(ledger.resolutions().settle("req-1", "t-0", payment(null, 1), "alice", "paid by hand"))
        .isInstanceOf(Resolved.class);

    ResolutionResult pointless = ledger.resolutions().fail("req-2", "t-0", evidence(payment(null, 1)), TX, "carol",
        "x");
    ResolutionResult failed = ledger.resolutions().fail("req-2", "t-0", evidence(payment(null, 1)), null, "carol",
        "the only match pays req-1");

    assertThat(((Unproven) pointless).missing()).contains("nothing to acknowledge");
    assertThat(failed).isInstanceOf(Resolved.class);
    assertThat(((Resolved) failed).transfer().status()).isEqualTo(TransferStatus.FAILED);
  }

  @Test
  void shouldRefuseToFailWhileTwoPaymentsMatch() {
    reconciliationRequired("req-1", 7);
    ChainPayment second = new ChainPayment(hash("second"), 4_000_009L, 1_767_270_010L, 2_000_000L, null, 1);

    ResolutionResult result = ledger.resolutions().fail("req-1", "t-0", evidence(second, payment(null, 1)), TX,
        "carol", "x");

    assertThat(((Unproven) result).missing()).contains(TX).contains(hash("second"))
        .contains("an acknowledgement covers one transaction only");
  }

  @Test
  void shouldListReconciliationsWithTheirAttemptsAndAuditEvents() {
    Intent intent = reconciliationRequired("req-1", 7);
    reconciliationRequired("req-2", 8);
    ledger.resolutions().fail("req-2", "t-0", evidence(), null, "carol", "not paid");

    List<AdminQueries.Reconciliation> open = ledger.admin().reconciliationRequired(100);

    assertThat(open).singleElement().satisfies(r -> {
      assertThat(r.transfer().requestId()).isEqualTo("req-1");
      assertThat(r.attempts()).extracting(LedgerRow::messageHash).containsExactly(intent.messageHash());
      assertThat(r.audit()).extracting(AuditEvent::event).containsExactly(AuditEvent.Type.RECONCILIATION_REQUIRED);
    });
  }
}
