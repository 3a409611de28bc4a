package org.tonpayouts.streams.wallet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tonpayouts.streams.PayoutTestKit.FIRST_SUBWALLET;
import static org.tonpayouts.streams.PayoutTestKit.TON;
import static org.tonpayouts.streams.PayoutTestKit.recipient;
import static org.tonpayouts.streams.PayoutTestKit.request;
import static org.tonpayouts.streams.PayoutTestKit.transfer;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tonpayouts.runtime.trust.VerdictKeys;
import org.tonpayouts.runtime.trust.VerdictSigner;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.ConfirmationStatus;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.schemas.Submission;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.LedgerStatus;
import org.tonpayouts.ton.address.TonAddress;

/**
 * Kafka is a trust boundary: whoever can write {@code payout.confirmations} must not be able to make
 * streams-app settle a transfer. Only a verdict signed with the deployment's verdict key is applied,
 * against devnet's chain and a real ledger (issue 24, authenticated verdicts).
 */
class AuthenticatedVerdictsTest {
  private WalletTxHarness h;

  @AfterEach
  void close() {
    if (h != null) {
      h.close();
    }
  }

  /** A topic that writes confirmations as an intruder would: the same JSON, signed with {@code keys} or not at all. */
  private TestInputTopic<String, Confirmation> writer(VerdictKeys keys) {
    return h.driver.createInputTopic(Topics.PAYOUT_CONFIRMATIONS.name(),
        Topics.PAYOUT_CONFIRMATIONS.keySerde().serializer(),
        keys == null ? Topics.PAYOUT_CONFIRMATIONS.valueSerde().serializer() : new VerdictSigner(keys));
  }

  @Test
  void shouldSettleNothingOnAForgedConfirmationAndTheTransferOnItsTrueOne() throws Exception {
    h = new WalletTxHarness(AuthenticatedVerdictsTest.class, Map.of());
    long id = FIRST_SUBWALLET + 40;
    TonAddress wallet = h.fund(id, 10 * TON);
    h.send(request("r", id, transfer("t", recipient(60), TON)));
    Submission s = h.issueOne();
    Confirmation forged = Confirmation.of(s.requestId(), s.transferId(), id, s.messageHash(), s.seqno(),
        ConfirmationStatus.CONFIRMED, "f0".repeat(32), 77L, Instant.now().getEpochSecond(), 1L, null, Instant.now());
    VerdictKeys anotherKey = VerdictKeys.parse("test:" + "a1".repeat(32), "a key of the intruder's");

    // the message never reached a block: any CONFIRMED is a lie; unsigned, and signed with a key we do not hold
    writer(null).pipeInput(Topics.walletKey(id), forged);
    writer(anotherKey).pipeInput(Topics.walletKey(id), forged);
    h.step(java.time.Duration.ofMillis(5));

    assertThat(h.settlements.isEmpty()).as("nothing settled").isTrue();
    assertThat(h.ledger.queries().attempts("r", "t")).extracting(LedgerRow::status)
        .singleElement().matches(LedgerStatus::isLive);
    assertThat(h.metrics.count("ton.tx.verdicts_refused")).isEqualTo(2);
    assertThat(h.ledger.audit().forWallet(wallet.toRaw())).filteredOn(e -> e.event() == AuditEvent.Type.VERDICT_REFUSED)
        .hasSize(2).allSatisfy(e -> {
          assertThat(e.level()).isEqualTo(AuditEvent.Level.ERROR);
          assertThat(e.detail()).contains("payout.confirmations");
        }).extracting(AuditEvent::detail)
        .anySatisfy(detail -> assertThat(detail).contains("no payout-mac header"))
        .anySatisfy(detail -> assertThat(detail).contains("verified by no verdict key"));

    h.block();
    h.pipe(h.verdict(s)); // chain-poller's own, signed with the deployment's key

    assertThat(h.settlements.readValuesToList()).singleElement().satisfies(settled -> {
      assertThat(settled.status()).isEqualTo(SettlementStatus.SETTLED);
      assertThat(settled.txHash()).isNotEqualTo(forged.txHash());
    });
  }

  @Test
  void shouldRefuseASignedVerdictMovedUnderAnotherWalletsKey() throws Exception {
    h = new WalletTxHarness(AuthenticatedVerdictsTest.class, Map.of());
    long id = FIRST_SUBWALLET + 41;
    h.fund(id, 10 * TON);
    h.send(request("r", id, transfer("t", recipient(61), TON)));
    Submission s = h.issueOne();
    h.block();
    Confirmation verdict = h.verdict(s);

    // signed, so authentic, but replayed under another wallet's key (its partition): it speaks of subwallet id only
    writer(VerdictKeys.from(h.config)).pipeInput(Topics.walletKey(id + 1), verdict);
    h.step(java.time.Duration.ofMillis(5));

    assertThat(h.settlements.isEmpty()).isTrue();
    assertThat(h.metrics.count("ton.tx.verdicts_refused")).isEqualTo(1);
  }

  @Test
  void shouldFailLoudlyOnASignedConfirmationThatCannotBeRead() throws Exception {
    h = new WalletTxHarness(AuthenticatedVerdictsTest.class, Map.of());
    TestInputTopic<String, byte[]> raw = h.driver.createInputTopic(Topics.PAYOUT_CONFIRMATIONS.name(),
        Serdes.String().serializer(), Serdes.ByteArray().serializer());
    byte[] unreadable = "{\"status\":".getBytes(StandardCharsets.UTF_8);
    RecordHeaders signed = new RecordHeaders();
    signed.add(VerdictKeys.HEADER, VerdictKeys.from(h.config).sign(Topics.PAYOUT_CONFIRMATIONS.name(), unreadable)
        .getBytes(StandardCharsets.US_ASCII));

    // unsigned, it is no one's verdict: refused, and the stream thread goes on
    raw.pipeInput("698983191", unreadable);
    assertThat(h.metrics.count("ton.tx.verdicts_refused")).isEqualTo(1);
    // signed, it is chain-poller's: skipping an unreadable verdict would wedge a wallet, so the instance stops loudly
    assertThatThrownBy(() -> raw.pipeInput(new TestRecord<>("698983191", unreadable, signed)))
        .isInstanceOf(StreamsException.class);
    assertThat(h.rejected.isEmpty()).isTrue();
    assertThat(h.settlements.isEmpty()).isTrue();
  }
}
