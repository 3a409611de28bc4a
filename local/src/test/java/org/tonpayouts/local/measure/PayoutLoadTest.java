package org.tonpayouts.local.measure;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tonpayouts.local.stack.RunKey;
import org.tonpayouts.schemas.JettonAmount;
import org.tonpayouts.schemas.Json;
import org.tonpayouts.schemas.PayoutRequestValidator;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.schemas.TransferKind;
import org.tonpayouts.schemas.ValidationResult;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.wallet.Subwallets;

/** A load's requests as its producer writes them: what intake's schema accepts. */
class PayoutLoadTest {
  private final Subwallets keys = new Subwallets(RunKey.random().key(), 0);

  @Test
  void shouldWriteAJettonTransferWithoutAmountNanoAndATonTransferWithIt() throws Exception {
    TonAddress master = keys.address(50);
    PayoutLoad.Builder b = new PayoutLoad.Builder(false, Instant.EPOCH);
    b.add("r-1", 698983191L, List.of(
        PayoutLoad.Leg.jetton("w", TransferKind.WITHDRAWAL, keys.address(1),
            new JettonAmount(master.toRaw(), BigInteger.valueOf(2_500_000))),
        new PayoutLoad.Leg("fee", TransferKind.COMMISSION_SWEEP, keys.address(0), 1_000_000)));
    PayoutLoad load = b.build();

    byte[] written = Topics.PAYOUT_REQUESTS.valueSerde().serializer().serialize("t", load.requests().get(0));

    JsonNode transfers = Json.mapper().readTree(written).get("transfers");
    assertThat(transfers.get(0).has("amountNano")).as("intake attaches the TON").isFalse();
    assertThat(transfers.get(0).get("jetton").get("amount").asText()).isEqualTo("2500000");
    assertThat(transfers.get(0).get("comment").asText()).isEqualTo("r-1 w");
    assertThat(transfers.get(1).get("amountNano").asText()).isEqualTo("1000000");
    PayoutRequestValidator intake = new PayoutRequestValidator();
    ValidationResult result = intake.validate(written);
    assertThat(result.isValid()).as("the request schema: %s", result).isTrue();
    assertThat(load.jettonTransferCount()).isEqualTo(1);
    assertThat(load.expectedReceipts()).containsOnlyKeys(keys.address(0));
    assertThat(load.expectedJettonReceipts()).containsEntry(keys.address(1), BigInteger.valueOf(2_500_000));
  }
}
