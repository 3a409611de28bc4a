package org.tonpayouts.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tonpayouts.schemas.Fixtures.utf8;

import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A transfer that pays a jetton: what the request schema, the records and the content fingerprint make of it. */
class JettonRequestTest {
  private static final String MASTER = "EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs";
  private final PayoutRequestValidator validator = PayoutRequestValidator.shared();

  private static String request(String transfer) {
    return "{\"schemaVersion\":1,\"requestId\":\"req-j\",\"subwalletId\":7,\"transfers\":[" + transfer
        + "],\"createdAt\":\"2026-03-01T12:00:00Z\"}";
  }

  private static String jettonTransfer(String extra) {
    return "{\"transferId\":\"w-1\",\"kind\":\"WITHDRAWAL\",\"destination\":\"" + Fixtures.DEST_RAW + "\","
        + "\"jetton\":{\"master\":\"" + MASTER + "\",\"amount\":\"2500000\"},\"comment\":\"order 77\"" + extra + "}";
  }

  @Test
  void shouldAcceptAJettonTransferWithoutAmountNano() {
    ValidationResult result = validator.validate(utf8(request(jettonTransfer(""))));

    assertThat(result.isValid()).as(result.isValid() ? "" : result.reason()).isTrue();
    TransferRequest t = result.request().transfer(0);
    assertThat(t.paysJetton()).isTrue();
    assertThat(t.jetton()).isEqualTo(new JettonAmount(MASTER, new BigInteger("2500000")));
    assertThat(t.amountNano()).as("intake attaches the TON").isZero();
    assertThat(t.bounce()).isNull();
  }

  @Test
  void shouldRejectAJettonTransferThatAlsoNamesTonOrABounceFlag() {
    assertThat(validator.validate(utf8(request(jettonTransfer(",\"amountNano\":\"5\"")))).reason())
        .contains("$.transfers[0].amountNano: must be left out of a jetton transfer");
    assertThat(validator.validate(utf8(request(jettonTransfer(",\"bounce\":true")))).reason())
        .contains("$.transfers[0].bounce: must be left out of a jetton transfer");
  }

  @Test
  void shouldStillRequireAmountNanoOfATonTransfer() {
    String noAmount = "{\"transferId\":\"t\",\"kind\":\"PAYOUT\",\"destination\":\"" + Fixtures.DEST_RAW + "\"}";

    assertThat(validator.validate(utf8(request(noAmount))).reason()).contains("amountNano");
  }

  @Test
  void shouldRejectJettonAmountsThatAreNotPositiveDigitStrings() {
    for (String amount : List.of("\"0\"", "\"-1\"", "\"01\"", "2500000", "\"1.5\"")) {
      String transfer = jettonTransfer("").replace("\"2500000\"", amount);
      assertThat(validator.validate(utf8(request(transfer))).isValid()).as(amount).isFalse();
    }
  }

  @Test
  void shouldWriteAJettonTransferAsItsProducerDoesWithoutAmountNano() throws Exception {
    PayoutRequest request = PayoutRequest.of("req-j", 7, List.of(TransferRequest.ofJetton("w-1", TransferKind.WITHDRAWAL,
        Fixtures.DEST_RAW, new JettonAmount(MASTER, new BigInteger("2500000")), "order 77")), Fixtures.T0);

    byte[] written = Topics.PAYOUT_REQUESTS.valueSerde().serializer().serialize("t", request);

    assertThat(new String(written, java.nio.charset.StandardCharsets.UTF_8)).doesNotContain("amountNano");
    assertThat(validator.validate(written).request()).isEqualTo(request);
    PayoutRequest attached = PayoutRequest.of("req-j", 7, List.of(request.transfer(0).withTonAttached(50_000_000)),
        Fixtures.T0);
    assertThat(new String(Json.mapper().writeValueAsBytes(attached), java.nio.charset.StandardCharsets.UTF_8))
        .as("past intake the TON attached is kept").contains("\"amountNano\":\"50000000\"");
  }

  @Test
  void shouldRefuseAJettonAmountAbove120Bits() {
    assertThatThrownBy(() -> new JettonAmount(MASTER, BigInteger.ONE.shiftLeft(120)))
        .hasMessageContaining("2^120-1");
    assertThat(new JettonAmount(MASTER, JettonAmount.MAX_AMOUNT).amount().bitLength()).isEqualTo(120);
  }

  @Test
  void shouldKeepTheFingerprintOfAJettonRequestWhateverTonIntakeAttaches() {
    TransferRequest asked = TransferRequest.ofJetton("w-1", TransferKind.WITHDRAWAL, Fixtures.DEST_RAW,
        new JettonAmount(MASTER, BigInteger.TEN), null);
    PayoutRequest raw = PayoutRequest.of("r", 7, List.of(asked), Fixtures.T0);
    PayoutRequest attached = PayoutRequest.of("r", 7, List.of(asked.withTonAttached(50_000_000)), Fixtures.T0);
    PayoutRequest otherAmount = PayoutRequest.of("r", 7, List.of(TransferRequest.ofJetton("w-1",
        TransferKind.WITHDRAWAL, Fixtures.DEST_RAW, new JettonAmount(MASTER, BigInteger.TWO), null)), Fixtures.T0);
    PayoutRequest ton = PayoutRequest.of("r", 7, List.of(new TransferRequest("w-1", TransferKind.WITHDRAWAL,
        Fixtures.DEST_RAW, 50_000_000, null, null)), Fixtures.T0);

    assertThat(RequestContent.fingerprint(attached)).isEqualTo(RequestContent.fingerprint(raw));
    assertThat(RequestContent.fingerprint(otherAmount)).isNotEqualTo(RequestContent.fingerprint(raw));
    assertThat(RequestContent.fingerprint(ton)).isNotEqualTo(RequestContent.fingerprint(attached));
    assertThat(RequestContent.differences(raw, otherAmount)).containsExactly("transfers[0].jetton.amount: 10 -> 2");
    assertThat(RequestContent.differences(attached, ton)).contains("transfers[0].jetton.master: '" + MASTER + "' -> absent");
  }

  @Test
  void shouldRoundTripAJettonSettlementAndKeepItsSchema() {
    TransferRequest asked = TransferRequest.ofJetton("w-1", TransferKind.WITHDRAWAL, Fixtures.DEST_RAW,
        new JettonAmount(MASTER, new BigInteger("2500000")), "order 77").withTonAttached(50_000_000);
    PayoutRequest request = PayoutRequest.of("r", 7, List.of(asked), Fixtures.T0);
    Settlement aborted = Settlement.aborted(request, 0, "earlier transfer failed", Fixtures.T0);
    JettonDelivery delivery = new JettonDelivery("0:" + "ab".repeat(32), new BigInteger("2500000"), 42,
        "0:" + "cd".repeat(32), "11".repeat(32), 10L, "0:" + "ef".repeat(32), "22".repeat(32), 12L, null, null, null);
    Settlement settled = Settlement.of("r", "w-1", 0, 7, TransferKind.WITHDRAWAL, Fixtures.DEST_RAW, 50_000_000,
        SettlementStatus.SETTLED, "33".repeat(32), 9L, 3L, 1L, "44".repeat(32), null, Fixtures.T0, Fixtures.T0)
        .withJetton(asked.jetton(), delivery);

    for (Settlement s : List.of(aborted, settled)) {
      byte[] bytes = Topics.PAYOUT_SETTLEMENTS.valueSerde().serializer().serialize("t", s);
      assertThat(Topics.PAYOUT_SETTLEMENTS.valueSerde().deserializer().deserialize("t", bytes)).isEqualTo(s);
      assertThat(new String(bytes, java.nio.charset.StandardCharsets.UTF_8)).contains("\"amount\":\"2500000\"");
    }
    assertThat(aborted.jetton()).isEqualTo(asked.jetton());
    assertThat(settled.jettonDelivery().delivered()).isTrue();
  }

  @Test
  void shouldRefuseACONFIRMEDJettonVerdictWithoutTheReceiversAcceptance() {
    JettonDelivery handedOverOnly = new JettonDelivery("0:" + "ab".repeat(32), BigInteger.ONE, 1,
        "0:" + "cd".repeat(32), "11".repeat(32), 10L, null, null, null, null, null, null);
    Confirmation confirmed = Confirmation.of("r", "w-1", 7, "44".repeat(32), 3, ConfirmationStatus.CONFIRMED,
        "33".repeat(32), 9L, 1L, 1L, null, Fixtures.T0);

    assertThatThrownBy(() -> confirmed.withJetton(handedOverOnly)).hasMessageContaining("receiver's acceptance");
  }
}
