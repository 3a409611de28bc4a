package org.tonpayouts.streams.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.tonpayouts.streams.ledger.LedgerFixture.WALLET;
import static org.tonpayouts.streams.ledger.LedgerFixture.hash;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.streams.ledger.audit.Actor;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.operator.Approval;
import org.tonpayouts.streams.ledger.operator.ApprovalAsk;
import org.tonpayouts.streams.ledger.operator.ApprovalChange;
import org.tonpayouts.streams.ledger.operator.ChainPayment;
import org.tonpayouts.streams.ledger.operator.ResolutionResult;
import org.tonpayouts.streams.ledger.operator.ResolutionResult.NotApproved;
import org.tonpayouts.streams.ledger.operator.ResolutionResult.NotReconcilable;
import org.tonpayouts.streams.ledger.operator.ResolutionResult.Resolved;
import org.tonpayouts.streams.ledger.operator.Resolver;
import org.tonpayouts.streams.ledger.record.Intent;
import org.tonpayouts.streams.ledger.sql.TransferStatus;

/**
 * The two-person rule's approvals on a real PostgreSQL, with the ledger's clock moved by hand: an
 * approval past its expiry lets nothing through and is marked EXPIRED when the transfer is asked about
 * again; the database itself refuses an approval by whoever asked and a second decision of one
 * approval, whatever the code does; two operators approving one request at the same moment resolve
 * the transfer once; turning a request down leaves the transfer RECONCILIATION_REQUIRED.
 */
class ApprovalsTest {
  private static final Duration TTL = Duration.ofMinutes(30);
  private static final String TX = hash("the paying transaction");
  private static final Actor ALICE = Actor.operator("alice", "10.0.0.7:52114");
  private static final Actor BOB = Actor.operator("bob", "10.0.0.8:40001");
  private static final Actor CAROL = Actor.operator("carol", "10.0.0.9:40002");
  private static final ApprovalAsk SETTLE = new ApprovalAsk("SETTLED", TX, null, null, "paid by hand, OPS-90");

  @RegisterExtension
  static final LedgerFixture db = new LedgerFixture(ApprovalsTest.class);
  private final Ledger ledger = db.ledger;
  private ExecutorService approvers;

  @BeforeEach
  void emptyOutbox() throws SQLException {
    db.execute("truncate settlement_outbox");
  }

  @AfterEach
  void stopApprovers() {
    if (approvers != null) {
      approvers.shutdownNow();
    }
  }

  /** A transfer whose message was flagged RECONCILIATION_REQUIRED by the chain poller. */
  private void reconciliationRequired(String requestId, long seqno) {
    PayoutRequest request = LedgerFixture.request(requestId, 1);
    Intent intent = db.intent(request, 0, 1, WALLET, seqno, requestId);
    assertThat(ledger.intents().record(intent).recorded()).isTrue();
    ledger.transitions().reconcile(intent.messageHash(), "seqno moved past " + seqno + " without our hash");
  }

  private Approval requested(String requestId, Actor by) {
    ApprovalChange change = ledger.approvals().request(requestId, "t-0", SETTLE, by, TTL);
    assertThat(change).isInstanceOf(ApprovalChange.Requested.class);
    return ((ApprovalChange.Requested) change).approval();
  }

  private ResolutionResult approve(Approval approval, Actor approver) {
    return ledger.resolutions().settle(approval.requestId(), approval.transferId(),
        new ChainPayment(TX, 4_000_001L, 1_767_270_000L, 2_000_000L, null, 1), Resolver.approved(approval, approver));
  }

  private void assertUnresolved(String requestId) throws SQLException {
    assertThat(ledger.queries().transfer(requestId, "t-0").orElseThrow().status())
        .isEqualTo(TransferStatus.RECONCILIATION_REQUIRED);
    assertThat(db.queryLong("select count(*) from settlement_outbox")).as("settlements queued").isZero();
    assertThat(db.queryLong("select count(*) from audit_log where event = 'OPERATOR_RESOLUTION'")).isZero();
  }

  @Test
  void shouldLetNothingThroughPastExpiryAndMarkItExpiredOnTheNextRequest() throws SQLException {
    reconciliationRequired("req-1", 7);
    Approval first = requested("req-1", ALICE);
    assertThat(first.expiresAt()).isEqualTo(first.requestedAt().plus(TTL));

    db.clock.advance(TTL.minusNanos(1_000)); // one microsecond before: still open
    assertThat(ledger.approvals().pending()).extracting(Approval::id).containsExactly(first.id());
    assertThat(ledger.approvals().request("req-1", "t-0", SETTLE, BOB, TTL))
        .isInstanceOf(ApprovalChange.AlreadyOpen.class);
    db.clock.advance(Duration.ofNanos(1_000)); // at expires_at: expired
    ResolutionResult late = approve(first, BOB);

    assertThat(late).isInstanceOf(NotApproved.class);
    assertThat(((NotApproved) late).why()).contains("approval " + first.id())
        .contains("is EXPIRED since " + first.expiresAt()).contains("nothing to approve");
    assertUnresolved("req-1");
    assertThat(ledger.approvals().pending()).isEmpty();
    assertThat(ledger.approvals().reject(first.id(), BOB, "too late")).isInstanceOfSatisfying(
        ApprovalChange.NotOpen.class, n -> assertThat(n.state()).isEqualTo(Approval.State.EXPIRED));
    assertThat(ledger.approvals().find(first.id()).orElseThrow().decision()).as("not marked until asked again")
        .isNull();

    Approval second = requested("req-1", BOB);

    assertThat(second.id()).isNotEqualTo(first.id());
    assertThat(ledger.approvals().find(first.id()).orElseThrow()).satisfies(a -> {
      assertThat(a.decision()).isEqualTo("EXPIRED");
      assertThat(a.decidedAt()).isEqualTo(second.requestedAt());
      assertThat(a.decidedBy()).isNull();
      assertThat(a.auditId()).isNull();
    });
    assertThat(ledger.approvals().pending()).extracting(Approval::id).containsExactly(second.id());
    assertThat(approve(second, CAROL)).isInstanceOf(Resolved.class);
  }

  @Test
  void shouldHaveTheDatabaseRefuseAnApprovalByWhoeverAskedForIt() throws SQLException {
    reconciliationRequired("req-1", 7);
    Approval asked = requested("req-1", ALICE);
    String approveAs = "update operator_approvals set decision = 'APPROVED', decided_by = ?, decided_at = now(),"
        + " audit_id = 1 where id = ?";

    try (Connection c = db.dataSource.getConnection()) {
      String constraint = twoPersonConstraint(c);
      c.setAutoCommit(false);
      assertThat(update(c, approveAs, "bob", asked.id())).as("another operator may").isEqualTo(1);
      c.rollback();
      assertThatThrownBy(() -> update(c, approveAs, "alice", asked.id()))
          .isInstanceOfSatisfying(SQLException.class, e -> {
            assertThat(e.getSQLState()).as("check_violation").isEqualTo("23514");
            assertThat(e.getMessage()).contains("new row for relation \"operator_approvals\" violates check"
                + " constraint \"" + constraint + "\"");
          });
      c.rollback();
      // nor approved by nobody: "decided_by <> requested_by" is null then, which a plain check lets pass
      assertThatThrownBy(() -> update(c, "update operator_approvals set decision = 'APPROVED', decided_at = now(),"
          + " audit_id = 1 where id = ?", asked.id()))
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getMessage()).contains(constraint));
      c.rollback();
    }
    assertThat(ledger.approvals().find(asked.id()).orElseThrow().decision()).isNull();
  }

  @Test
  void shouldHaveTheDatabaseRefuseASecondDecisionOrADeletion() throws SQLException {
    reconciliationRequired("req-1", 7);
    Approval asked = requested("req-1", ALICE);
    assertThat(ledger.approvals().reject(asked.id(), BOB, "wrong transaction"))
        .isInstanceOf(ApprovalChange.Rejected.class);

    try (Connection c = db.dataSource.getConnection()) {
      assertThatThrownBy(() -> update(c, "update operator_approvals set decision = 'APPROVED', decided_by = 'carol',"
          + " decided_at = now(), decision_note = null, audit_id = 1 where id = ?", asked.id()))
          .isInstanceOfSatisfying(SQLException.class, e -> {
            assertThat(e.getSQLState()).as("insufficient_privilege").isEqualTo("42501");
            assertThat(e.getMessage()).contains("operator_approvals keeps every request: only deciding an open one"
                + " (decision and decided_* from null) is allowed, UPDATE refused");
          });
      assertThatThrownBy(() -> update(c, "delete from operator_approvals where id = ?", asked.id()))
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getMessage())
              .contains("operator_approvals keeps every request").contains("DELETE refused"));
    }
    assertThat(ledger.approvals().find(asked.id()).orElseThrow()).satisfies(a -> {
      assertThat(a.decision()).isEqualTo("REJECTED");
      assertThat(a.decidedBy().name()).isEqualTo("bob");
    });
  }

  @Test
  void shouldResolveOnceWhenTwoOperatorsApproveAtTheSameMoment() throws Exception {
    reconciliationRequired("req-1", 7);
    Approval asked = requested("req-1", ALICE);
    approvers = Executors.newFixedThreadPool(2);
    CyclicBarrier start = new CyclicBarrier(2);
    Future<ResolutionResult> byBob;
    Future<ResolutionResult> byCarol;

    // the transfer's row held by a third connection, so both approvals are inside their transactions,
    // waiting at the same lock, when it is let go: the race happens every run, not by luck
    try (Connection holder = db.dataSource.getConnection()) {
      holder.setAutoCommit(false);
      update(holder, "select 1 from payout_transfers where request_id = 'req-1' for update");
      byBob = approvers.submit(racing(start, () -> approve(asked, BOB)));
      byCarol = approvers.submit(racing(start, () -> approve(asked, CAROL)));
      await("both approvals waiting for the transfer's lock").atMost(Duration.ofSeconds(10))
          .until(() -> db.queryLong("select count(*) from pg_stat_activity where datname = current_database()"
              + " and wait_event_type = 'Lock'") == 2);
      holder.commit();
    }
    List<ResolutionResult> results = List.of(byBob.get(30, TimeUnit.SECONDS), byCarol.get(30, TimeUnit.SECONDS));

    assertThat(results).filteredOn(r -> r instanceof Resolved).hasSize(1);
    Resolved won = (Resolved) results.stream().filter(r -> r instanceof Resolved).findFirst().orElseThrow();
    String winner = won.audit().approver().name();
    // the loser waited for the transfer's lock, so it finds the transfer settled (were the approval's row
    // locked first, it would find the approval APPROVED): refused either way, naming what happened
    assertThat(results).filteredOn(r -> !(r instanceof Resolved)).singleElement().satisfies(lost -> {
      if (lost instanceof NotReconcilable n) {
        assertThat(n.transfer().status()).isEqualTo(TransferStatus.SETTLED);
      } else {
        assertThat(lost).isInstanceOf(NotApproved.class);
        assertThat(((NotApproved) lost).why()).contains("is APPROVED by " + winner);
      }
    });
    assertThat(db.queryLong("select count(*) from audit_log where event = 'OPERATOR_RESOLUTION'")).isEqualTo(1);
    assertThat(db.queryLong("select count(*) from settlement_outbox")).isEqualTo(1);
    assertThat(ledger.queries().transfer("req-1", "t-0").orElseThrow().status()).isEqualTo(TransferStatus.SETTLED);
    assertThat(won.audit().actor().name()).isEqualTo("alice");
    assertThat(won.settlement().resolution().approvedBy()).isEqualTo(winner);
    assertThat(ledger.approvals().find(asked.id()).orElseThrow()).satisfies(a -> {
      assertThat(a.decision()).isEqualTo("APPROVED");
      assertThat(a.decidedBy().name()).isEqualTo(winner);
      assertThat(a.auditId()).isEqualTo(won.audit().id());
    });
  }

  @Test
  void shouldCancelWhenTheAskerRejectsAndRejectWhenAnotherDoesLeavingTheTransferUnresolved() throws SQLException {
    reconciliationRequired("req-1", 7);
    Approval first = requested("req-1", ALICE);

    ApprovalChange cancelled = ledger.approvals().reject(first.id(), ALICE, "wrong transaction, asking again");
    Approval second = requested("req-1", ALICE);
    ApprovalChange rejected = ledger.approvals().reject(second.id(), BOB, "that transaction is the March refund");

    assertThat(cancelled).isInstanceOfSatisfying(ApprovalChange.Rejected.class, r -> {
      assertThat(r.approval().decision()).isEqualTo("CANCELLED");
      assertThat(r.approval().decidedBy()).isEqualTo(ALICE);
      assertThat(r.audit().detail()).contains("cancelled by alice from 10.0.0.7:52114")
          .contains("the transfer stays RECONCILIATION_REQUIRED");
    });
    assertThat(rejected).isInstanceOfSatisfying(ApprovalChange.Rejected.class, r -> {
      assertThat(r.approval().decision()).isEqualTo("REJECTED");
      assertThat(r.approval().decidedBy()).isEqualTo(BOB);
      assertThat(r.approval().decisionNote()).isEqualTo("that transaction is the March refund");
      assertThat(r.audit().actor()).isEqualTo(BOB);
    });
    assertThat(ledger.approvals().reject(second.id(), CAROL, "me too")).isInstanceOfSatisfying(
        ApprovalChange.NotOpen.class, n -> assertThat(n.state()).isEqualTo(Approval.State.REJECTED));
    ResolutionResult late = approve(second, CAROL);
    assertThat(late).isInstanceOf(NotApproved.class);
    assertThat(((NotApproved) late).why()).contains("is REJECTED by bob");
    assertUnresolved("req-1");
    assertThat(ledger.audit().forRequest("req-1")).extracting(AuditEvent::event).containsExactly(
        AuditEvent.Type.RECONCILIATION_REQUIRED, AuditEvent.Type.APPROVAL_REQUESTED, AuditEvent.Type.APPROVAL_REJECTED,
        AuditEvent.Type.APPROVAL_REQUESTED, AuditEvent.Type.APPROVAL_REJECTED);
    assertThat(ledger.approvals().pending()).isEmpty();
  }

  // ---- helpers -----------------------------------------------------------------------------------

  /** {@code work} once both racers reached the barrier. */
  private static Callable<ResolutionResult> racing(CyclicBarrier start, Callable<ResolutionResult> work) {
    return () -> {
      start.await(10, TimeUnit.SECONDS);
      return work.call();
    };
  }

  private static int update(Connection c, String sql, Object... args) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        s.setObject(i + 1, args[i]);
      }
      if (s.execute()) {
        try (ResultSet rs = s.getResultSet()) {
          int rows = 0;
          while (rs.next()) {
            rows++;
          }
          return rows;
        }
      }
      return s.getUpdateCount();
    }
  }

  /** The name of V17's check that nobody approves what they asked for (nor with no name at all). */
  private static String twoPersonConstraint(Connection c) {
    return "approved_by_another_operator";
  }

}
