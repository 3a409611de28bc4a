package org.tonpayouts.runtime.trust;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.Topics;

/**
 * streams-app's deserializer of {@code payout.confirmations}: a record is read as a verdict only
 * when a verdict key verifies its MAC ({@link VerifiedVerdict.Authentic}); anything else is
 * {@link VerifiedVerdict.Refused} without being parsed, so a record from whoever else can write the
 * topic neither settles a transfer nor stops the stream thread. A signed record that is not a
 * readable verdict is chain-poller's bug: it fails as any unreadable internal record does.
 */
public final class VerdictVerifier implements Deserializer<VerifiedVerdict> {
  private final Deserializer<Confirmation> json = Topics.PAYOUT_CONFIRMATIONS.valueSerde().deserializer();
  private final VerdictKeys keys;

  public VerdictVerifier(VerdictKeys keys) {
    this.keys = Objects.requireNonNull(keys, "keys");
  }

  @Override
  public VerifiedVerdict deserialize(String topic, byte[] value) {
    return refused("no headers to carry a MAC", value);
  }

  @Override
  public VerifiedVerdict deserialize(String topic, Headers headers, byte[] value) {
    Header header = headers == null ? null : headers.lastHeader(VerdictKeys.HEADER);
    if (header == null || header.value() == null) {
      return refused("no " + VerdictKeys.HEADER + " header", value);
    }
    Optional<String> keyId = keys.verify(topic, value, new String(header.value(), StandardCharsets.US_ASCII));
    if (keyId.isEmpty()) {
      return refused("its " + VerdictKeys.HEADER + " header is verified by no verdict key", value);
    }
    return new VerifiedVerdict.Authentic(json.deserialize(topic, value), keyId.get());
  }

  private static VerifiedVerdict.Refused refused(String why, byte[] value) {
    byte[] content = value == null ? new byte[0] : value;
    try {
      return new VerifiedVerdict.Refused(why, content.length,
          HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("no SHA-256 in this JVM", e);
    }
  }
}
