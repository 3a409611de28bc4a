package org.tonpayouts.streams.wallet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tonpayouts.streams.PayoutTestKit.FIRST_SUBWALLET;
import static org.tonpayouts.streams.PayoutTestKit.TON;
import static org.tonpayouts.streams.PayoutTestKit.TTL;
import static org.tonpayouts.streams.PayoutTestKit.expiry;
import static org.tonpayouts.streams.PayoutTestKit.recipient;
import static org.tonpayouts.streams.PayoutTestKit.request;
import static org.tonpayouts.streams.PayoutTestKit.transfer;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.ConfirmationStatus;
import org.tonpayouts.schemas.JsonSerde;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.schemas.Submission;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.schemas.TransferKind;
import org.tonpayouts.schemas.TransferRequest;
import org.tonpayouts.streams.StreamsApp;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.record.Intent;
import org.tonpayouts.streams.ledger.record.RecordResult;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.LedgerStatus;
import org.tonpayouts.streams.ledger.sql.TransferStatus;
import org.tonpayouts.streams.metrics.PayoutMetrics;
import org.tonpayouts.streams.names.TopologyNames;
import org.tonpayouts.ton.address.TonAddress;

/**
 * "Never pay twice, never wedge", scenario by scenario, each against devnet's chain (which the
 * test builds block by block) and a real ledger: one seqno per transfer makes a double payout
 * impossible whatever a verdict says; expiry rests on the node's time; no wallet waits forever;
 * request ids are unique across wallets; bounces are reported.
 */
class NeverPayTwiceTest {
  private static final long AMOUNT = 2 * TON;
  private WalletTxHarness h;

  private WalletTxHarness harness(Map<String, Object> overrides) throws Exception {
    h = new WalletTxHarness(NeverPayTwiceTest.class, overrides);
    return h;
  }

  @AfterEach
  void close() {
    if (h != null) {
      h.close();
    }
  }

  private List<Settlement> settled() {
    return h.settlements.readValuesToList();
  }

  @Test
  void shouldPayOnceWhenTheChainOverturnsAWrongExpiry() throws Exception {
    harness(Map.of());
    long id = FIRST_SUBWALLET;
    TonAddress wallet = h.fund(id, 10 * TON);
    h.send(request("r", id, transfer("t", recipient(1), AMOUNT)));
    Submission first = h.issueOne();

    // A node whose clock runs ahead says the first message expired while it is still in the mempool.
    h.pipe(expiry(first, first.validUntil() + 1));
    Submission second = h.issueOne();
    h.block(); // both messages carry seqno 0: the wallet applies the first, the second can never apply
    Confirmation verdict = h.verdict(second);
    h.pipe(verdict);

    assertThat(second.seqno()).as("one seqno per transfer").isEqualTo(first.seqno());
    assertThat(second.transferHashes()).containsExactly(first.messageHash(), second.messageHash());
    assertThat(verdict.messageHash()).as("the older attempt applied").isEqualTo(first.messageHash());
    assertThat(settled()).singleElement().satisfies(s -> {
      assertThat(s.status()).isEqualTo(SettlementStatus.SETTLED);
      assertThat(s.messageHash()).isEqualTo(first.messageHash());
      assertThat(s.txHash()).isEqualTo(verdict.txHash());
    });
    assertThat(h.paymentsTo(wallet, recipient(1))).as("paid once, on chain").containsExactly(AMOUNT);
    assertThat(h.ledger.queries().attempts("r", "t")).extracting(LedgerRow::status)
        .containsExactly(LedgerStatus.CONFIRMED, LedgerStatus.EXPIRED);
    assertThat(h.ledger.audit().forRequest("r")).extracting(AuditEvent::event)
        .containsExactly(AuditEvent.Type.EXPIRY_OVERTURNED);
    assertThat(h.issue()).isEmpty();
  }

  @Test
  void shouldNeverSignATransferWithAnotherSeqnoWhenSomeoneElseUsedItsOwn() throws Exception {
    harness(Map.of());
    long id = FIRST_SUBWALLET + 1;
    TonAddress wallet = h.fund(id, 10 * TON);
    h.send(request("r1", id, transfer("t", recipient(2), AMOUNT)));
    Submission paid = h.issueOne();
    h.block();
    h.pipe(h.verdict(paid));
    h.send(request("r2", id, transfer("t", recipient(3), AMOUNT)));
    h.send(request("r3", id, transfer("t", recipient(4), AMOUNT)));
    h.devnet.faults().dropNext(1);
    Submission lost = h.issueOne();
    Confirmation proven = h.expireOnChain(lost); // honest: node time past valid_until, seqno still 1
    h.devnet.foreignTransfer(wallet, recipient(99), TON, null); // another signer takes seqno 1
    h.block();

    h.pipe(proven);
    Submission recheck = h.issueOne();

    assertThat(recheck.recheck()).isTrue();
    assertThat(recheck.messageHash()).isEqualTo(lost.messageHash());
    assertThat(recheck.seqno()).isEqualTo(1);
    assertThat(h.ledger.queries().attempts("r2", "t")).as("nothing signed with seqno 2").hasSize(1);
    assertThat(h.metrics.count("ton.tx.recheck_requested")).isEqualTo(1);
    // The poller finds none of r2's hashes and no payout of its amount to its destination.
    h.pipe(Confirmation.of("r2", "t", id, lost.messageHash(), 1, ConfirmationStatus.RECONCILIATION_REQUIRED, null,
        null, null, null, "wallet seqno moved to 2 past the transfer's seqno 1 without any of its hashes",
        Instant.now(), h.clock.instant().getEpochSecond(), null));
    Submission next = h.issueOne();

    assertThat(settled()).extracting(s -> s.requestId() + "=" + s.status())
        .containsExactly("r1=SETTLED", "r2=RECONCILIATION_REQUIRED");
    assertThat(next.requestId()).isEqualTo("r3");
    assertThat(next.seqno()).isEqualTo(2);
    assertThat(h.paymentsTo(wallet, recipient(3))).as("r2 never paid").isEmpty();
    assertThat(h.ledger.audit().forRequest("r2")).extracting(AuditEvent::event)
        .contains(AuditEvent.Type.RECONCILIATION_REQUIRED);
  }

  @Test
  void shouldWaitWhileTheNodeDoesNotProveExpiryAndRecheckAnOverdueTransfer() throws Exception {
    harness(Map.of(PayoutsConfig.TRANSFER_VERDICT_TIMEOUT_MS_CONFIG, 2_000L));
    long id = FIRST_SUBWALLET + 2;
    h.fund(id, 10 * TON);
    h.devnet.faults().dropNext(1);
    h.send(request("r", id, transfer("t", recipient(5), AMOUNT)));
    Submission lost = h.issueOne();

    h.pipe(expiry(lost, lost.validUntil() - 5)); // an EXPIRED its own evidence does not support
    assertThat(h.issue()).as("refused by the ledger: still waiting").isEmpty();
    assertThat(h.ledger.queries().attempts("r", "t")).extracting(LedgerRow::status)
        .singleElement().matches(LedgerStatus::isLive); // SIGNED until the send log writes its send

    h.advance(TTL.plusSeconds(5)); // past valid_until + margin + the verdict timeout, no verdict came
    h.step(Duration.ofSeconds(1));
    Submission recheck = h.submissions.readValue();

    assertThat(recheck.recheck()).isTrue();
    assertThat(recheck.messageHash()).isEqualTo(lost.messageHash());
    assertThat(h.metrics.count("ton.tx.verdict_overdue")).isEqualTo(1);
    h.block();
    h.pipe(h.expiry(lost));
    Submission retry = h.issueOne();
    assertThat(retry.attempt()).isEqualTo(2);
    assertThat(retry.seqno()).isEqualTo(lost.seqno());
  }

  @Test
  void shouldPublishWhatTheLedgerHoldsWhenTheVerdictNeverComes() throws Exception {
    harness(Map.of(PayoutsConfig.TRANSFER_VERDICT_TIMEOUT_MS_CONFIG, 2_000L));
    long id = FIRST_SUBWALLET + 3;
    h.fund(id, 10 * TON);
    h.send(request("r", id, transfer("t", recipient(6), AMOUNT)));
    Submission s = h.issueOne();
    h.block();
    Confirmation onChain = h.verdict(s);
    // Another instance got the verdict and recorded it; this one never sees it.
    h.ledger.transitions().confirm(onChain.messageHash(), onChain.txHash(), onChain.lt(), onChain.utime(),
        onChain.feeNano());

    h.advance(TTL.plusSeconds(5));
    h.step(Duration.ofSeconds(1));

    assertThat(settled()).singleElement().satisfies(settlement -> {
      assertThat(settlement.status()).isEqualTo(SettlementStatus.SETTLED);
      assertThat(settlement.txHash()).isEqualTo(onChain.txHash());
    });
  }

  @Test
  void shouldGiveUpAfterTheLastAttemptAndNeverSignAnother() throws Exception {
    harness(Map.of(PayoutsConfig.TRANSFER_MAX_ATTEMPTS_CONFIG, 2));
    long id = FIRST_SUBWALLET + 4;
    h.fund(id, 10 * TON);
    h.devnet.faults().dropNext(2);
    h.send(request("r", id, transfer("t", recipient(7), AMOUNT), transfer("fee", recipient(8), TON / 10)));

    Submission first = h.issueOne();
    h.pipe(h.expireOnChain(first));
    Submission second = h.issueOne();
    h.pipe(h.expireOnChain(second));

    assertThat(settled()).extracting(s -> s.transferId() + "=" + s.status())
        .containsExactly("t=FAILED", "fee=ABORTED");
    assertThat(h.ledger.queries().transfer("r", "t")).get().satisfies(t -> {
      assertThat(t.status()).isEqualTo(TransferStatus.FAILED);
      assertThat(t.reason()).contains("gave up after 2 attempts");
    });
    // A replay after a crash cannot sign attempt 3: the ledger refuses it whoever asks.
    h.restartWithLostState();
    h.send(request("r", id, transfer("t", recipient(7), AMOUNT), transfer("fee", recipient(8), TON / 10)));
    assertThat(h.issue()).isEmpty();
    PayoutRequest request = request("r", id, transfer("t", recipient(7), AMOUNT), transfer("fee", recipient(8), TON / 10));
    RecordResult third = h.ledger.intents().record(new Intent(request, "payout.requests-0@0", 0, 3,
        WalletTxHarness.SUBWALLETS.address(id).toRaw(), second.seqno(), "ab".repeat(32), null, "te6", Instant.now()));
    assertThat(third).isInstanceOfSatisfying(RecordResult.Refused.class,
        r -> assertThat(r.refusal()).isEqualTo(RecordResult.Refusal.TRANSFER_DECIDED));
    assertThat(h.ledger.queries().attempts("r", "t")).hasSize(2);
    assertThat(h.devnet.faults().counts().dropped()).isEqualTo(2);
  }

  @Test
  void shouldTakeAProvenExpiryWhateverStreamsAppsClockSays() throws Exception {
    harness(Map.of());
    long id = FIRST_SUBWALLET + 5;
    TonAddress wallet = h.fund(id, 10 * TON);
    h.skewAppClock(Duration.ofMinutes(-10)); // streams-app's clock ten minutes behind the chain's
    h.devnet.faults().dropNext(1);
    h.send(request("r", id, transfer("t", recipient(9), AMOUNT)));
    Submission lost = h.issueOne();
    assertThat(lost.validUntil()).as("valid_until from the node's time, not the slow clock")
        .isGreaterThanOrEqualTo(h.clock.instant().plus(TTL).getEpochSecond());

    Confirmation proven = h.expireOnChain(lost);
    h.pipe(proven);
    Submission retry = h.issueOne();
    h.block();
    h.pipe(h.verdict(retry));

    assertThat(retry.validUntil()).isGreaterThanOrEqualTo(proven.evidenceUtime() + TTL.toSeconds());
    assertThat(settled()).singleElement().satisfies(s -> assertThat(s.status()).isEqualTo(SettlementStatus.SETTLED));
    assertThat(h.paymentsTo(wallet, recipient(9))).containsExactly(AMOUNT);
  }

  @Test
  void shouldRejectARequestIdReusedOnAnotherWalletAndDropALaterCopyOfOneAlreadyPaid() throws Exception {
    harness(Map.of());
    long a = FIRST_SUBWALLET + 6;
    long b = FIRST_SUBWALLET + 7;
    TonAddress walletA = h.fund(a, 10 * TON);
    TonAddress walletB = h.fund(b, 10 * TON);
    PayoutRequest first = request("order-77", a, transfer("t", recipient(10), AMOUNT));
    h.send(first);
    Submission s = h.issueOne();
    h.block();
    h.pipe(h.verdict(s));
    assertThat(settled()).hasSize(1);
    // The intake memory lives in the wallet's task (one per partition); a processor with a lost
    // memory stands in for another partition's task, which never saw the id.
    h.restartWithLostState();
    h.send(request("order-77", b, transfer("t", recipient(11), 3 * TON)));

    assertThat(h.issue()).isEmpty();
    assertThat(h.rejected.readValuesToList()).singleElement().satisfies(r -> {
      assertThat(r.reason()).contains("requestId 'order-77' was already accepted for subwallet " + a)
          .contains("subwalletId: " + a + " -> " + b).contains("transfers[0].amountNano: 2000000000 -> 3000000000");
      assertThat(r.originalKey()).isEqualTo(Topics.walletKey(b));
      assertThat(r.offset()).as("the refused record").isEqualTo(0L);
    });
    assertThat(h.metrics.count("payout.requests.conflict")).isEqualTo(1);

    // The first request again, from another record, after the memory forgot it: a silent duplicate.
    h.restartWithLostState();
    h.requests.pipeInput("unrelated", new byte[] {1}); // (rejected; moves the copy to another offset)
    h.send(first);
    assertThat(h.issue()).isEmpty();
    assertThat(settled()).as("a copy of a paid request is dropped silently").isEmpty();
    assertThat(h.metrics.count("payout.requests.duplicate")).isEqualTo(1);
    assertThat(h.paymentsTo(walletA, recipient(10))).containsExactly(AMOUNT);
    assertThat(h.paymentsTo(walletB, recipient(11))).isEmpty();
  }

  @Test
  void shouldReportABouncedPayoutOnce() throws Exception {
    harness(Map.of());
    long id = FIRST_SUBWALLET + 8;
    h.fund(id, 10 * TON);
    TonAddress nobody = recipient(12); // never funded: cannot take a bounceable message
    h.send(request("r", id, new TransferRequest("t", TransferKind.REFUND, nobody.toRaw(), AMOUNT, null, true)));
    Submission s = h.issueOne();
    h.block();
    Confirmation confirmed = h.verdict(s);
    h.pipe(confirmed);
    Confirmation bounce = h.bounce(s, confirmed);

    h.pipe(bounce);
    h.pipe(bounce);

    assertThat(s.bounce()).isTrue();
    assertThat(settled()).extracting(Settlement::status)
        .containsExactly(SettlementStatus.SETTLED, SettlementStatus.BOUNCED);
    assertThat(h.metrics.registry().get("payout.transfers.settled").tag("status", "BOUNCED").counter().count())
        .as("the bounce is counted once").isEqualTo(1);
    assertThat(h.ledger.queries().transfer("r", "t")).get().satisfies(t -> {
      assertThat(t.status()).isEqualTo(TransferStatus.SETTLED);
      assertThat(t.bounceTxHash()).isEqualTo(bounce.txHash());
      assertThat(t.returnedNano()).isEqualTo(bounce.returnedNano()).isPositive().isLessThan(AMOUNT);
    });
    assertThat(h.ledger.audit().forRequest("r")).extracting(AuditEvent::event).containsExactly(AuditEvent.Type.BOUNCE);
  }

  @Test
  void shouldRejectBeyondTheBacklogAndAcceptTheRequestOnceTheWalletDrained() throws Exception {
    harness(Map.of(PayoutsConfig.WALLET_BACKLOG_MAX_CONFIG, 2));
    long id = FIRST_SUBWALLET + 9;
    h.fund(id, 10 * TON);
    PayoutRequest third = request("r3", id, transfer("t", recipient(15), TON));
    h.send(request("r1", id, transfer("t", recipient(13), TON)));
    h.send(request("r2", id, transfer("t", recipient(14), TON)));
    h.send(third);

    assertThat(h.rejected.readValuesToList()).singleElement().satisfies(r ->
        assertThat(r.reason()).contains("wallet backlog full").contains("limit 2"));
    Submission s1 = h.issueOne();
    h.block();
    h.pipe(h.verdict(s1));
    h.send(third); // refused before, so not a duplicate now

    assertThat(h.rejected.isEmpty()).isTrue();
    Submission s2 = h.issueOne();
    h.block();
    h.pipe(h.verdict(s2));
    assertThat(h.issueOne().requestId()).isEqualTo("r3");
  }

  @Test
  void shouldKeepPayingAWalletWhile300LargeRequestsFailOnAnUnfundedOneOfTheSamePartition() throws Exception {
    harness(Map.of());
    long poor = FIRST_SUBWALLET + 10;
    long rich = FIRST_SUBWALLET + 11;
    TonAddress richWallet = h.fund(rich, 10 * TON);
    for (int i = 0; i < 300; i++) {
      h.send(request("big-" + i, poor, transfer("t", recipient(100 + i % 50), 1_000 * TON)));
    }
    for (int i = 0; i < 3; i++) {
      h.send(request("small-" + i, rich, transfer("t", recipient(20 + i), TON)));
    }
    KeyValueStore<String, WalletHead> heads = h.driver.getKeyValueStore(TopologyNames.WALLET_HEADS_STORE);
    WalletHead poorHead = heads.get(Topics.walletKey(poor));
    byte[] head = JsonSerde.of(WalletHead.class).serializer().serialize("t", poorHead);
    assertThat(poorHead.queued()).as("most of the backlog is still queued").isGreaterThan(100);
    assertThat(head.length).as("the wallet's state does not grow with its backlog").isLessThan(300);
    KeyValueStore<String, QueuedRequest> queue = h.driver.getKeyValueStore(TopologyNames.WALLET_QUEUE_STORE);
    try (var entries = queue.range(poor + "/", poor + "0")) {
      long stored = 0;
      while (entries.hasNext()) {
        entries.next();
        stored++;
      }
      assertThat(stored).as("one store record per queued request").isEqualTo(poorHead.queued());
    }

    Map<String, SettlementStatus> outcomes = new HashMap<>();
    List<String> richOrder = new ArrayList<>();
    for (int round = 0; round < 1_000 && outcomes.size() < 303; round++) {
      for (Submission s : h.issue()) {
        assertThat(s.subwalletId()).as("nothing is signed for the unfunded wallet").isEqualTo(rich);
        h.block();
        h.pipe(h.verdict(s));
      }
      for (Settlement s : settled()) {
        assertThat(outcomes.put(s.requestId(), s.status())).as("one settlement per transfer").isNull();
        if (s.subwalletId() == rich) {
          richOrder.add(s.requestId());
        }
      }
    }

    assertThat(outcomes).hasSize(303);
    assertThat(outcomes.entrySet().stream().filter(e -> e.getKey().startsWith("big-")))
        .allSatisfy(e -> assertThat(e.getValue()).isEqualTo(SettlementStatus.FAILED));
    assertThat(richOrder).containsExactly("small-0", "small-1", "small-2");
    assertThat(h.ledger.queries().transfer("big-7", "t")).get()
        .satisfies(t -> assertThat(t.reason()).contains("insufficient balance"));
    for (int i = 0; i < 3; i++) {
      assertThat(h.paymentsTo(richWallet, recipient(20 + i))).containsExactly(TON);
    }
  }

  @Test
  void shouldCountARequestLeftPartlySettledForLongerThanTheThreshold() throws Exception {
    harness(Map.of(PayoutsConfig.BATCH_INCOMPLETE_THRESHOLD_MS_CONFIG, 60_000L));
    long id = FIRST_SUBWALLET + 12;
    h.fund(id, 10 * TON);
    h.send(request("batch", id, transfer("payout", recipient(30), TON), transfer("fee", recipient(31), TON / 10)));
    Submission payout = h.issueOne();
    h.block();
    h.devnet.faults().dropNext(1); // the next message, the fee's, is lost: the request stays half paid
    h.pipe(h.verdict(payout));
    Submission fee = h.issueOne();

    assertThat(gauge("ton.tx.batch.incomplete")).isZero();
    h.advance(Duration.ofSeconds(61));
    assertThat(gauge("ton.tx.batch.incomplete")).isEqualTo(1);

    h.block();
    h.pipe(h.expireOnChain(fee));
    Submission retry = h.issueOne();
    h.block();
    h.pipe(h.verdict(retry));
    assertThat(settled()).extracting(Settlement::status)
        .containsExactly(SettlementStatus.SETTLED, SettlementStatus.SETTLED);
    assertThat(gauge("ton.tx.batch.incomplete")).isZero();
  }

  private double gauge(String name) {
    return h.metrics.registry().get(name).gauge().value();
  }

  @Test
  void shouldLetAZombieSignAndSendNothingOnceANewerOwnerTookItsPartition() throws Exception {
    harness(Map.of());
    long id = FIRST_SUBWALLET + 13;
    TonAddress wallet = h.fund(id, 10 * TON);
    PayoutRequest request = request("r", id, transfer("t", recipient(40), AMOUNT));
    PayoutMetrics newOwnerMetrics = PayoutMetrics.inMemory();
    // instance B gets the partition (A was paused past its session timeout, say): a newer epoch
    try (StreamsApp.Wiring newOwner = h.otherInstance(newOwnerMetrics);
        TopologyTestDriver b = h.driverOf(newOwner, java.nio.file.Files.createTempDirectory("new-owner"))) {
      h.send(request); // instance A (the harness, now a zombie) still takes the request and tries to pay it
      assertThat(h.issue()).as("the zombie signs and sends nothing").isEmpty();
      assertThat(h.issue()).isEmpty();
      assertThat(h.metrics.count("ton.tx.fenced")).isEqualTo(1);
      assertThat(h.ledger.queries().attempts("r", "t")).isEmpty();

      b.createInputTopic(Topics.PAYOUT_REQUESTS.name(), Serdes.String().serializer(), Serdes.ByteArray().serializer())
          .pipeInput(Topics.walletKey(id), org.tonpayouts.streams.PayoutTestKit.json(request));
      assertThat(org.tonpayouts.streams.PayoutTestKit.awaitIdle(newOwner.io()::idle, Duration.ofSeconds(20))).isTrue();
      b.advanceWallClockTime(Duration.ofMillis(20));
      Submission byNewOwner = b.createOutputTopic(Topics.PAYOUT_SUBMISSIONS.name(),
          Topics.PAYOUT_SUBMISSIONS.keySerde().deserializer(), Topics.PAYOUT_SUBMISSIONS.valueSerde().deserializer())
          .readValue();
      h.block();

      assertThat(byNewOwner.requestId()).isEqualTo("r");
      assertThat(h.paymentsTo(wallet, recipient(40))).as("paid once, by the owner").containsExactly(AMOUNT);
      assertThat(newOwnerMetrics.count("ton.tx.fenced")).isZero();
      assertThat(h.ledger.owners().current("wallet-tx-harness", 0)).singleElement()
          .satisfies(owner -> assertThat(owner).startsWith("2 "));
    }
  }
}
