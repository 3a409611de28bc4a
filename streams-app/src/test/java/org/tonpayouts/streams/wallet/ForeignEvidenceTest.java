package org.tonpayouts.streams.wallet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tonpayouts.streams.PayoutTestKit.FIRST_SUBWALLET;
import static org.tonpayouts.streams.PayoutTestKit.TON;
import static org.tonpayouts.streams.PayoutTestKit.TTL;
import static org.tonpayouts.streams.PayoutTestKit.recipient;
import static org.tonpayouts.streams.PayoutTestKit.request;
import static org.tonpayouts.streams.PayoutTestKit.transfer;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.ConfirmationStatus;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.schemas.Submission;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.LedgerStatus;
import org.tonpayouts.ton.address.TonAddress;

/**
 * Evidence that is not the transfer's own never settles it or lets its wallet sign again, against
 * devnet's chain and a real ledger (issue 28, items 1 and 4): a verdict naming the transaction of
 * another of our transfers, and a ledger that lost the rows of a transfer that applied.
 */
class ForeignEvidenceTest {
  private WalletTxHarness h;

  private WalletTxHarness harness(Map<String, Object> overrides) throws Exception {
    h = new WalletTxHarness(ForeignEvidenceTest.class, overrides);
    return h;
  }

  @AfterEach
  void close() {
    if (h != null) {
      h.close();
    }
  }

  private List<String> settled() {
    return h.settlements.readValuesToList().stream()
        .map(s -> s.requestId() + "/" + s.transferId() + "=" + s.status() + (s.txHash() == null ? "" : "@" + s.txHash()))
        .toList();
  }

  /**
   * What the poller published before the fix when a foreign message took {@code lost}'s seqno: the
   * transfer "recovered by destination and amount" with {@code earlier}'s transaction, an earlier
   * payout of ours of the same amount to the same payee.
   */
  private static Confirmation recoveredWith(Submission lost, Confirmation earlier) {
    return Confirmation.of(lost.requestId(), lost.transferId(), lost.subwalletId(), earlier.messageHash(),
        lost.seqno(), ConfirmationStatus.CONFIRMED, earlier.txHash(), earlier.lt(), earlier.utime(),
        earlier.feeNano(), "recovered by destination and amount", Instant.now());
  }

  /** Pays {@code request}'s transfers one by one, each confirmed from the chain; their verdicts. */
  private List<Confirmation> payAll(int transfers) {
    List<Confirmation> verdicts = new java.util.ArrayList<>();
    for (int i = 0; i < transfers; i++) {
      Submission s = h.issueOne();
      h.block();
      Confirmation v = h.verdict(s);
      h.pipe(v);
      verdicts.add(v);
    }
    return verdicts;
  }

  /** Sends {@code request}'s first message into a drop and lets another signer take its seqno. */
  private Submission lostToAForeignSigner(TonAddress wallet) {
    h.devnet.faults().dropNext(1);
    Submission lost = h.issueOne();
    h.devnet.foreignTransfer(wallet, recipient(99), TON, null);
    h.block();
    return lost;
  }

  @Test
  void shouldFlagRatherThanSettleATransferWhoseVerdictNamesAnEarlierTransferToTheSamePayee() throws Exception {
    harness(Map.of());
    long id = FIRST_SUBWALLET + 30;
    TonAddress wallet = h.fund(id, 10 * TON);
    h.send(request("c", id, transfer("t", recipient(30), TON)));
    Confirmation paidC = payAll(1).get(0);
    h.send(request("d", id, transfer("t", recipient(30), TON)));
    h.send(request("e", id, transfer("t", recipient(31), TON)));
    Submission d = lostToAForeignSigner(wallet);

    h.pipe(recoveredWith(d, paidC));
    Submission next = h.issueOne();

    assertThat(settled()).containsExactly("c/t=SETTLED@" + paidC.txHash(), "d/t=RECONCILIATION_REQUIRED");
    assertThat(h.ledger.queries().transfer("c", "t")).get()
        .satisfies(c -> assertThat(c.txHash()).isEqualTo(paidC.txHash()));
    assertThat(h.ledger.queries().attempts("d", "t")).extracting(LedgerRow::status)
        .containsExactly(LedgerStatus.RECONCILIATION_REQUIRED);
    assertThat(h.ledger.audit().forRequest("d")).extracting(AuditEvent::event)
        .contains(AuditEvent.Type.LEDGER_CONFLICT, AuditEvent.Type.RECONCILIATION_REQUIRED);
    assertThat(next.requestId()).isEqualTo("e");
    assertThat(next.seqno()).as("d's seqno 1 was used by the foreign signer").isEqualTo(2);
    assertThat(h.paymentsTo(wallet, recipient(30))).as("d never paid").containsExactly(TON);
  }

  @Test
  void shouldFlagAOneLegRequestWhoseVerdictNamesTheSecondLegOfAnotherRequest() throws Exception {
    harness(Map.of());
    long id = FIRST_SUBWALLET + 31;
    TonAddress wallet = h.fund(id, 10 * TON);
    h.send(request("x", id, transfer("a", recipient(32), TON), transfer("b", recipient(33), TON)));
    Confirmation paidXb = payAll(2).get(1);
    h.send(request("y", id, transfer("t", recipient(33), TON)));
    Submission y = lostToAForeignSigner(wallet);

    // x/b is transfer index 1; y has one transfer: the settlement of "y with x/b's row" cannot be built
    h.pipe(recoveredWith(y, paidXb));

    assertThat(settled()).containsExactly("x/a=SETTLED@" + h.ledger.queries().transfer("x", "a").orElseThrow().txHash(),
        "x/b=SETTLED@" + paidXb.txHash(), "y/t=RECONCILIATION_REQUIRED");
    assertThat(h.paymentsTo(wallet, recipient(33))).as("y never paid").containsExactly(TON);
  }

  @Test
  void shouldAbortTheSecondLegWhenTheFirstLegsVerdictNamesAnotherRequestsTransaction() throws Exception {
    harness(Map.of());
    long id = FIRST_SUBWALLET + 32;
    TonAddress wallet = h.fund(id, 10 * TON);
    h.send(request("a", id, transfer("t", recipient(34), TON)));
    Confirmation paidA = payAll(1).get(0);
    h.send(request("m", id, transfer("t1", recipient(34), TON), transfer("t2", recipient(35), TON)));
    Submission leg1 = lostToAForeignSigner(wallet);

    h.pipe(recoveredWith(leg1, paidA));

    assertThat(h.issue()).as("leg 2 is never signed").isEmpty();
    assertThat(settled()).containsExactly("a/t=SETTLED@" + paidA.txHash(), "m/t1=RECONCILIATION_REQUIRED",
        "m/t2=ABORTED");
    assertThat(h.paymentsTo(wallet, recipient(35))).as("leg 2 never paid").isEmpty();
  }

  @Test
  void shouldNeverSignAgainWhenTheLedgerLostTheRowsOfATransferThatApplied() throws Exception {
    harness(Map.of(PayoutsConfig.TRANSFER_VERDICT_TIMEOUT_MS_CONFIG, 2_000L));
    long id = FIRST_SUBWALLET + 33;
    TonAddress wallet = h.fund(id, 10 * TON);
    h.send(request("k", id, transfer("t", recipient(36), 2 * TON)));
    h.send(request("l", id, transfer("t", recipient(37), TON)));
    Submission k = h.issueOne();
    h.block(); // k applies; its verdict never comes
    // a failover to an asynchronous replica (or a point-in-time restore) lost k's committed rows
    List<String> tables = List.of("payout_requests", "payout_transfers", "ton_transactions"); // parents first
    for (String table : tables) {
      sql("drop table if exists lost_" + table);
      sql("create table lost_" + table + " as select * from " + table + " where request_id = 'k'");
    }
    for (String table : List.of("ton_transactions", "payout_transfers", "payout_requests")) {
      sql("delete from " + table + " where request_id = 'k'");
    }

    for (int watchdog = 0; watchdog < 3; watchdog++) {
      h.advance(TTL.plusSeconds(5)); // past valid_until + margin + the verdict timeout: the watchdog re-checks
      h.step(Duration.ofSeconds(3));
      h.block();
    }

    assertThat(h.paymentsTo(wallet, recipient(36))).as("k paid once").containsExactly(2 * TON);
    assertThat(h.paymentsTo(wallet, recipient(37))).as("the wallet holds: l waits for an operator").isEmpty();
    assertThat(h.submissions.readValuesToList()).as("nothing signed").allSatisfy(s -> {
      assertThat(s.messageHash()).isEqualTo(k.messageHash());
      assertThat(s.recheck()).isTrue();
    });
    assertThat(h.ledger.queries().attempts("l", "t")).isEmpty();
    assertThat(h.ledger.audit().forWallet(wallet.toRaw())).filteredOn(e -> e.event() == AuditEvent.Type.LEDGER_ROWS_LOST)
        .singleElement().satisfies(e -> {
          assertThat(e.level()).isEqualTo(AuditEvent.Level.ERROR);
          assertThat(e.requestId()).isEqualTo("k");
          assertThat(e.seqno()).isEqualTo(k.seqno());
          assertThat(e.messageHash()).isEqualTo(k.messageHash());
        });
    assertThat(h.metrics.count("ton.tx.ledger_rows_lost")).as("counted once").isEqualTo(1);

    // the rows are restored (from the old primary's WAL, say): the wallet carries on by itself
    for (String table : tables) {
      sql("insert into " + table + (table.equals("ton_transactions") ? " overriding system value" : "")
          + " select * from lost_" + table);
    }
    h.advance(TTL.plusSeconds(5));
    h.step(Duration.ofSeconds(3));
    Submission recheck = h.submissions.readValue();
    assertThat(recheck.recheck()).isTrue();
    assertThat(recheck.messageHash()).isEqualTo(k.messageHash());
    h.pipe(h.verdict(recheck));
    Submission next = h.issueOne();
    h.block();
    h.pipe(h.verdict(next));

    assertThat(settled()).extracting(s -> s.substring(0, s.indexOf('@'))).containsExactly("k/t=SETTLED", "l/t=SETTLED");
    assertThat(next.seqno()).isEqualTo(k.seqno() + 1);
    assertThat(h.paymentsTo(wallet, recipient(36))).as("k paid once").containsExactly(2 * TON);
    assertThat(h.paymentsTo(wallet, recipient(37))).containsExactly(TON);
  }

  private void sql(String statement) throws Exception {
    try (Connection c = h.database.getConnection(); PreparedStatement ps = c.prepareStatement(statement)) {
      ps.execute();
    }
  }
}
