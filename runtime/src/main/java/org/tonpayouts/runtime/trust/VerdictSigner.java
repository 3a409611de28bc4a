package org.tonpayouts.runtime.trust;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.Topics;

/**
 * chain-poller's serializer of {@code payout.confirmations}: the verdict's JSON as {@link Topics}
 * writes it, with its MAC in the {@value VerdictKeys#HEADER} header.
 */
public final class VerdictSigner implements Serializer<Confirmation> {
  private final Serializer<Confirmation> json = Topics.PAYOUT_CONFIRMATIONS.valueSerde().serializer();
  private final VerdictKeys keys;

  public VerdictSigner(VerdictKeys keys) {
    this.keys = Objects.requireNonNull(keys, "keys");
  }

  @Override
  public byte[] serialize(String topic, Confirmation verdict) {
    throw new UnsupportedOperationException("a verdict is signed into its record's headers: serialize(topic, headers,"
        + " verdict)");
  }

  @Override
  public byte[] serialize(String topic, Headers headers, Confirmation verdict) {
    byte[] value = json.serialize(topic, verdict);
    headers.remove(VerdictKeys.HEADER);
    headers.add(VerdictKeys.HEADER, keys.sign(topic, value).getBytes(StandardCharsets.US_ASCII));
    return value;
  }
}
