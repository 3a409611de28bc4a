package org.tonpayouts.streams.wallet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.tonpayouts.streams.PayoutTestKit.FIRST_SUBWALLET;
import static org.tonpayouts.streams.PayoutTestKit.SKEW;
import static org.tonpayouts.streams.PayoutTestKit.TON;
import static org.tonpayouts.streams.PayoutTestKit.TTL;
import static org.tonpayouts.streams.PayoutTestKit.json;
import static org.tonpayouts.streams.PayoutTestKit.recipient;
import static org.tonpayouts.streams.PayoutTestKit.request;
import static org.tonpayouts.streams.PayoutTestKit.text;
import static org.tonpayouts.streams.PayoutTestKit.transfer;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.ConfirmationStatus;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.Rejected;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.schemas.Submission;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.LedgerStatus;
import org.tonpayouts.ton.address.TonAddress;

/**
 * The wallet-tx processor in a TopologyTestDriver, against a real devnet and a real PostgreSQL
 * ledger. The test plays the chain poller: it looks each submitted message up on devnet and pipes
 * the verdict the poller would publish.
 */
class WalletTxProcessorTest {
  private WalletTxHarness h;

  @BeforeEach
  void start() throws Exception {
    h = WalletTxHarness.onRunningChain(WalletTxProcessorTest.class);
  }

  @AfterEach
  void close() {
    h.close();
  }

  private TonAddress fundedWallet(long subwalletId, long nano) {
    return h.fund(subwalletId, nano);
  }

  private void send(PayoutRequest request) {
    h.send(request);
  }

  private List<Submission> issue() {
    return h.issue();
  }

  private Confirmation confirm(Submission submission) {
    return h.confirm(submission);
  }

  @Test
  void shouldPayOneWalletsTransfersOneAtATimeInArrivalOrder() {
    long id = FIRST_SUBWALLET;
    fundedWallet(id, 100 * TON);
    send(request("r1", id, transfer("payout", recipient(1), 2 * TON), transfer("fee", recipient(2), TON / 10)));
    send(request("r2", id, transfer("payout", recipient(3), 3 * TON)));
    send(request("r3", id, transfer("payout", recipient(4), 4 * TON)));

    List<String> order = new java.util.ArrayList<>();
    List<Long> seqnos = new java.util.ArrayList<>();
    for (int i = 0; i < 4; i++) {
      List<Submission> issued = issue();
      assertThat(issued).as("one message in flight per wallet").hasSize(1);
      assertThat(issue()).as("nothing more until the in-flight message is settled").isEmpty();
      Submission s = issued.get(0);
      order.add(s.requestId() + "/" + s.transferId());
      seqnos.add(s.seqno());
      confirm(s);
    }

    assertThat(order).containsExactly("r1/payout", "r1/fee", "r2/payout", "r3/payout");
    assertThat(seqnos).containsExactly(0L, 1L, 2L, 3L);
    List<Settlement> settled = h.settlements.readValuesToList();
    assertThat(settled).extracting(s -> s.requestId() + "/" + s.transferId() + "=" + s.status())
        .containsExactly("r1/payout=SETTLED", "r1/fee=SETTLED", "r2/payout=SETTLED", "r3/payout=SETTLED");
    assertThat(h.devnet.balance(recipient(1))).isEqualTo(2 * TON);
    assertThat(h.devnet.balance(recipient(4))).isEqualTo(4 * TON);
    assertThat(h.ledger.queries().attempts("r1", "payout")).singleElement().satisfies(row -> {
      assertThat(row.status()).isEqualTo(LedgerStatus.CONFIRMED);
      assertThat(row.sendCount()).as("the send, recorded with the verdict").isEqualTo(1);
      assertThat(row.sentAt()).isNotNull();
    });
    assertThat(issue()).isEmpty();
    assertThat(h.rejected.isEmpty()).isTrue();
  }

  @Test
  void shouldIssueReadyWalletsInOneRound() {
    for (int w = 0; w < 5; w++) {
      fundedWallet(FIRST_SUBWALLET + 10 + w, 10 * TON);
      send(request("multi-" + w, FIRST_SUBWALLET + 10 + w, transfer("t", recipient(20 + w), TON)));
    }

    List<Submission> issued = issue();

    assertThat(issued).hasSize(5).extracting(Submission::subwalletId).doesNotHaveDuplicates();
    assertThat(h.metrics.count("ton.api.seqno_reads")).isEqualTo(5);
  }

  @Test
  void shouldAbortTheRestOfARequestWhenATransferFailsOnChain() {
    long id = FIRST_SUBWALLET + 20;
    // The balance covers the amount (no fee reserve in these tests) but not the amount and the
    // fees together: the wallet accepts the message and, with mode 3, skips the send.
    fundedWallet(id, 2 * TON + 1_600_000L);
    send(request("poor", id, transfer("big", recipient(30), 2 * TON), transfer("fee", recipient(31), TON / 100)));
    send(request("after", id, transfer("small", recipient(32), TON / 1000)));

    Submission first = issue().get(0);
    Confirmation verdict = confirm(first);

    assertThat(verdict.status()).as("devnet skipped the unaffordable send").isEqualTo(ConfirmationStatus.FAILED);
    assertThat(h.settlements.readValuesToList())
        .extracting(s -> s.transferId() + "=" + s.status())
        .containsExactly("big=FAILED", "fee=ABORTED");
    h.devnet.fund(WalletTxHarness.SUBWALLETS.address(id), TON);
    Submission next = issue().get(0);
    assertThat(next.requestId()).isEqualTo("after");
    assertThat(next.seqno()).as("the failed transfer consumed its seqno").isEqualTo(first.seqno() + 1);
    assertThat(h.ledger.queries().findByMessageHash(first.messageHash())).get()
        .extracting(LedgerRow::status).isEqualTo(LedgerStatus.FAILED);
    assertThat(h.ledger.queries().transfersOf("poor")).extracting(t -> t.transferId() + "=" + t.status())
        .containsExactly("big=FAILED", "fee=ABORTED");
  }

  @Test
  void shouldFailATransferTheWalletCannotPayBeforeSigningIt() {
    long id = FIRST_SUBWALLET + 25;
    fundedWallet(id, TON);
    send(request("too-big", id, transfer("big", recipient(33), 50 * TON), transfer("fee", recipient(34), TON / 100)));
    send(request("fits", id, transfer("small", recipient(35), TON / 10)));

    List<Submission> issued = issue();

    assertThat(h.settlements.readValuesToList()).extracting(s -> s.transferId() + "=" + s.status())
        .containsExactly("big=FAILED", "fee=ABORTED");
    assertThat(h.ledger.queries().transfer("too-big", "big")).get().satisfies(t -> {
      assertThat(t.reason()).contains("insufficient balance").contains("holds " + TON).contains(50 * TON + " + 0");
      assertThat(t.attempts()).as("nothing was signed").isZero();
    });
    assertThat(h.ledger.queries().attempts("too-big", "big")).isEmpty();
    if (issued.isEmpty()) {
      issued = issue();
    }
    assertThat(issued).singleElement().satisfies(s -> assertThat(s.requestId()).isEqualTo("fits"));
    assertThat(h.metrics.count("ton.tx.refused_before_signing")).isEqualTo(1);
  }

  @Test
  void shouldNeverSignWithAStaleSeqnoRead() {
    long id = FIRST_SUBWALLET + 30;
    fundedWallet(id, 10 * TON);
    send(request("s1", id, transfer("t", recipient(40), TON)));
    send(request("s2", id, transfer("t", recipient(41), TON)));
    Submission first = issue().get(0);

    // A lagging API node: the next two reads report the wallet as it was before s1 applied. The
    // verdict on s1 makes the wallet ready and hands it over at once: that round reads stale.
    h.devnet.faults().staleReadNext(1_000, 2);
    confirm(first);
    assertThat(issue()).as("stale again: nothing signed").isEmpty();
    assertThat(h.metrics.count("ton.tx.stale_seqno_reads")).isEqualTo(2);
    assertThat(h.ledger.queries().attempts("s2", "t")).isEmpty();

    Submission second = issue().get(0);
    assertThat(second.requestId()).isEqualTo("s2");
    assertThat(second.seqno()).isEqualTo(first.seqno() + 1);
  }

  @Test
  void shouldIgnoreADuplicateRequestId() {
    long id = FIRST_SUBWALLET + 40;
    fundedWallet(id, 10 * TON);
    PayoutRequest once = request("dup", id, transfer("t", recipient(50), TON));
    send(once);
    send(once);

    Submission s = issue().get(0);
    confirm(s);

    assertThat(issue()).isEmpty();
    assertThat(h.settlements.readValuesToList()).hasSize(1);
    assertThat(h.metrics.count("payout.requests.duplicate")).isEqualTo(1);
    assertThat(h.devnet.balance(recipient(50))).isEqualTo(TON);
  }

  @Test
  void shouldResumeTheLedgersMessageInsteadOfSigningANewOneAfterLosingState() throws Exception {
    long id = FIRST_SUBWALLET + 50;
    fundedWallet(id, 10 * TON);
    PayoutRequest request = request("crash", id, transfer("t", recipient(60), TON));
    send(request);
    Submission before = issue().get(0);

    // A crash before the Kafka commit: the ledger kept the sent message, the state store did not.
    h.restartWithLostState();
    send(request);
    Submission after = issue().get(0);

    assertThat(after.messageHash()).as("the same message, re-sent, not a new one").isEqualTo(before.messageHash());
    assertThat(h.ledger.queries().attempts("crash", "t")).hasSize(1);
    confirm(after);
    assertThat(h.settlements.readValuesToList()).singleElement()
        .satisfies(s -> assertThat(s.status()).isEqualTo(SettlementStatus.SETTLED));
    assertThat(h.devnet.balance(recipient(60))).as("paid once").isEqualTo(TON);
  }

  @Test
  void shouldSignTheRetryWithTheSameSeqnoOnlyOnceTheNodeProvesTheExpiry() {
    long id = FIRST_SUBWALLET + 60;
    fundedWallet(id, 10 * TON);
    h.devnet.faults().dropNext(1);
    send(request("lost", id, transfer("t", recipient(70), TON)));
    Submission dropped = issue().get(0);

    assertThat(issue()).as("no second message while the first may still apply").isEmpty();
    h.clock.advance(TTL.plus(SKEW).plusSeconds(1));
    await("a block past valid_until").atMost(Duration.ofSeconds(5)).until(() ->
        h.api.getWalletSnapshot(WalletTxHarness.SUBWALLETS.address(id)).join().syncUtime() >= dropped.validUntil() + SKEW.toSeconds());
    h.pipe(h.expiry(dropped));
    Submission retry = issue().get(0);

    assertThat(retry.attempt()).isEqualTo(2);
    assertThat(retry.seqno()).as("one seqno per transfer").isEqualTo(dropped.seqno());
    assertThat(retry.messageHash()).isNotEqualTo(dropped.messageHash());
    assertThat(retry.transferHashes()).containsExactly(dropped.messageHash(), retry.messageHash());
    confirm(retry);
    assertThat(h.ledger.queries().attempts("lost", "t")).extracting(LedgerRow::status)
        .containsExactly(LedgerStatus.EXPIRED, LedgerStatus.CONFIRMED);
    assertThat(h.devnet.balance(recipient(70))).isEqualTo(TON);
  }

  @Test
  void shouldRejectARequestIdReusedWithOtherContentAndNameTheDifferences() {
    long id = FIRST_SUBWALLET + 65;
    fundedWallet(id, 10 * TON);
    send(request("reused", id, transfer("t", recipient(75), TON)));
    send(request("reused", id, transfer("t", recipient(76), 2 * TON)));

    List<Rejected> refused = h.rejected.readValuesToList();
    assertThat(refused).singleElement().satisfies(r -> {
      assertThat(r.reason()).contains("requestId 'reused' was already accepted with other content")
          .contains("transfers[0].destination").contains("transfers[0].amountNano: 1000000000 -> 2000000000");
      assertThat(r.originalKey()).isEqualTo(Topics.walletKey(id));
    });
    assertThat(h.metrics.count("payout.requests.conflict")).isEqualTo(1);
    confirm(issue().get(0));
    assertThat(h.devnet.balance(recipient(75))).isEqualTo(TON);
    assertThat(issue()).isEmpty();
  }

  /** The address with its last character changed: still base64, wrong checksum. */
  private static String mistyped(String address) {
    char last = address.charAt(address.length() - 1);
    return address.substring(0, address.length() - 1) + (last == 'A' ? 'B' : 'A');
  }

  @Test
  void shouldRejectBadInputAndKeepPaying() {
    long id = FIRST_SUBWALLET + 70;
    fundedWallet(id, 10 * TON);
    h.requests.pipeInput(Topics.walletKey(id), new byte[] {(byte) 0xff, 0x00, 0x13});
    h.requests.pipeInput(Topics.walletKey(id), text("{\"requestId\":\"x\"}"));
    h.requests.pipeInput("not-the-wallet", json(request("wrong-key", id, transfer("t", recipient(80), TON))));
    h.requests.pipeInput(Topics.walletKey(id), json(request("bad-address", id,
        new org.tonpayouts.schemas.TransferRequest("t", org.tonpayouts.schemas.TransferKind.PAYOUT,
            mistyped(recipient(83).toFriendly(true, false)), TON, null, null))));
    h.requests.pipeInput(Topics.walletKey(4_000_000_000L),
        json(request("out-of-range", 4_000_000_000L, transfer("t", recipient(81), TON))));
    send(request("good", id, transfer("t", recipient(82), TON)));

    List<Rejected> refused = h.rejected.readValuesToList();
    assertThat(refused).hasSize(5);
    assertThat(refused.get(0).payloadBase64()).isTrue();
    assertThat(refused.get(1).reason()).contains("$");
    assertThat(refused.get(2).reason()).contains("record key 'not-the-wallet'");
    assertThat(refused.get(3).reason()).contains("$.transfers[0].destination").contains("checksum");
    assertThat(refused.get(4).reason()).contains("outside the allowed range");
    assertThat(refused).allSatisfy(r -> assertThat(r.sourceTopic()).isEqualTo(Topics.PAYOUT_REQUESTS.name()));
    Submission good = issue().get(0);
    assertThat(good.requestId()).isEqualTo("good");
  }

}
