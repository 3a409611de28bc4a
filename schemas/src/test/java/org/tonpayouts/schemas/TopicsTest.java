package org.tonpayouts.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;

class TopicsTest {

  @Test
  void shouldNameEveryTopicOnceInPipelineOrder() {
    assertThat(Topics.ALL).extracting(Topic::name).containsExactly(
        "payout.requests", "payout.submissions", "payout.confirmations", "payout.settlements",
        "payout.rejected", "payout.audit");
  }

  @Test
  void shouldKeyEveryTopicWithStrings() {
    for (Topic<String, ?> topic : Topics.ALL) {
      assertThat(topic.keySerde()).as(topic.name()).isInstanceOf(Serdes.StringSerde.class);
      assertThat(topic.valueSerde()).as(topic.name()).isInstanceOf(JsonSerde.class);
      assertThat(Topics.class.getResource(topic.schemaResource())).as(topic.schemaResource()).isNotNull();
    }
  }

  @Test
  void shouldPairEachTopicWithItsEventType() {
    assertThat(((JsonSerde<?>) Topics.PAYOUT_REQUESTS.valueSerde()).type()).isEqualTo(PayoutRequest.class);
    assertThat(((JsonSerde<?>) Topics.PAYOUT_SUBMISSIONS.valueSerde()).type()).isEqualTo(Submission.class);
    assertThat(((JsonSerde<?>) Topics.PAYOUT_CONFIRMATIONS.valueSerde()).type()).isEqualTo(Confirmation.class);
    assertThat(((JsonSerde<?>) Topics.PAYOUT_SETTLEMENTS.valueSerde()).type()).isEqualTo(Settlement.class);
    assertThat(((JsonSerde<?>) Topics.PAYOUT_REJECTED.valueSerde()).type()).isEqualTo(Rejected.class);
    assertThat(((JsonSerde<?>) Topics.PAYOUT_AUDIT.valueSerde()).type()).isEqualTo(AuditRecord.class);
  }

  @Test
  void shouldWriteWalletKeysAsUnsignedDecimal() {
    assertThat(Topics.walletKey(0)).isEqualTo("0");
    assertThat(Topics.walletKey(698_983_191L)).isEqualTo("698983191");
    assertThat(Topics.walletKey(4_294_967_295L)).isEqualTo("4294967295");
    assertThat(Fixtures.request().walletKey()).isEqualTo("698983191");
    assertThatThrownBy(() -> Topics.walletKey(4_294_967_296L))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unsigned 32-bit");
  }
}
