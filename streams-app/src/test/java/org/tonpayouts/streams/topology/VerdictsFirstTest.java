package org.tonpayouts.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

class VerdictsFirstTest {
  private static ConsumerRecord<Object, Object> producedAt(long timestamp) {
    return new ConsumerRecord<>("payout.confirmations", 0, 0L, timestamp, TimestampType.CREATE_TIME, 0, 0, "k", "v",
        new RecordHeaders(), java.util.Optional.empty());
  }

  @Test
  void aVerdictIsOrderedAnHourBeforeItsOwnTimestamp() {
    long now = 1_795_000_000_000L;
    assertThat(new VerdictsFirst().extract(producedAt(now), now)).isEqualTo(now - 3_600_000L);
  }

  @Test
  void neverANegativeTimestamp() {
    // Kafka Streams drops a record whose extracted timestamp is negative: a verdict must never be one
    assertThat(new VerdictsFirst().extract(producedAt(1_000L), 1_000L)).isZero();
  }
}
