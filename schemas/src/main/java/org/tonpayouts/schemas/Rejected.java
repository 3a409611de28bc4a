package org.tonpayouts.schemas;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;

/**
 * Published to {@code payout.rejected} for input the pipeline refuses: the reason and the input
 * exactly as received, so the producer can fix and resend it. Nothing else is affected by it.
 *
 * @param schemaVersion version of this shape, {@link #SCHEMA_VERSION} when written by this code
 * @param reason why the input was refused, human-readable, with JSON paths where they help
 * @param originalKey the input record's key, or null if it had none
 * @param originalPayload the input value as received: UTF-8 text, or base64 when the bytes are not
 *     valid UTF-8 (see {@code payloadBase64}); null when the value was null
 * @param payloadBase64 whether {@code originalPayload} is base64
 * @param sourceTopic topic the input was read from
 * @param partition partition it was read from, or null if unknown
 * @param offset offset it was read from, or null if unknown
 * @param rejectedAt when it was refused
 */
public record Rejected(
    int schemaVersion,
    String reason,
    String originalKey,
    String originalPayload,
    boolean payloadBase64,
    String sourceTopic,
    Integer partition,
    Long offset,
    Instant rejectedAt) {

  public static final int SCHEMA_VERSION = 1;

  public Rejected {
    Check.schemaVersion(schemaVersion);
    Check.nonBlank(reason, "reason");
    if (payloadBase64 && originalPayload == null) {
      throw new IllegalArgumentException("payloadBase64 is set but there is no originalPayload");
    }
    Check.nonBlank(sourceTopic, "sourceTopic");
    Check.present(rejectedAt, "rejectedAt");
  }

  /**
   * A rejection of the raw value {@code payload} (may be null), stored as text when it is valid
   * UTF-8 and as base64 otherwise, so no byte of the input is lost.
   */
  public static Rejected of(
      String reason, String originalKey, byte[] payload, String sourceTopic, Integer partition,
      Long offset, Instant rejectedAt) {
    String text = payload == null ? null : strictUtf8(payload);
    boolean base64 = payload != null && text == null;
    String stored = base64 ? Base64.getEncoder().encodeToString(payload) : text;
    return new Rejected(SCHEMA_VERSION, reason, originalKey, stored, base64, sourceTopic, partition,
        offset, rejectedAt);
  }

  /** The original value bytes, decoding base64 when needed; null when the value was null. */
  public byte[] originalPayloadBytes() {
    if (originalPayload == null) {
      return null;
    }
    return payloadBase64
        ? Base64.getDecoder().decode(originalPayload)
        : originalPayload.getBytes(StandardCharsets.UTF_8);
  }

  /** The text of {@code bytes} when they are well-formed UTF-8, otherwise null. */
  private static String strictUtf8(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }
}
