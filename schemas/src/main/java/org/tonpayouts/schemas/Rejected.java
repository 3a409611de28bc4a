package org.tonpayouts.schemas;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

/**
 * Published to {@code payout.rejected} for input the pipeline refuses: the reason and the input as
 * received (its first {@link #MAX_PAYLOAD_PREFIX_BYTES} bytes, its length and the SHA-256 of the
 * whole), so the producer can find, fix and resend it. Nothing else is affected by it.
 *
 * <p>Build rejections with {@link #of}: it bounds every part (at most {@link Reasons#MAX_LISTED}
 * problems of at most {@link Reasons#MAX_PROBLEM_CHARS} characters, a capped payload and key), so
 * the serialized record stays under {@link #MAX_SERIALIZED_BYTES}, far below Kafka's 1 MiB default
 * {@code max.message.bytes}, however large, deep or hostile the input. A rejection the producer
 * refused would stop the partition for good (the same input is read again after every restart).
 *
 * @param schemaVersion version of this shape, {@link #SCHEMA_VERSION} when written by this code
 * @param reason why the input was refused, human-readable, with JSON paths where they help; lists
 *     the first {@link Reasons#MAX_LISTED} problems and counts the rest
 * @param problemCount how many problems were found (the reason may list fewer)
 * @param originalKey the input record's key (its first {@link #MAX_KEY_CHARS} characters), or null
 *     if it had none
 * @param keyTruncated whether {@code originalKey} was cut
 * @param originalPayload the input value as received, or its first {@link #MAX_PAYLOAD_PREFIX_BYTES}
 *     bytes: UTF-8 text, or base64 when the bytes are not strict UTF-8 (see {@code payloadBase64});
 *     null when the value was null
 * @param payloadBase64 whether {@code originalPayload} is base64
 * @param payloadTruncated whether {@code originalPayload} holds only a prefix of the value
 * @param payloadLength length of the whole value in bytes; null when the value was null
 * @param payloadSha256 SHA-256 of the whole value, 64 lowercase hex digits; null when the value was
 *     null
 * @param sourceTopic topic the input was read from
 * @param partition partition it was read from, or null if unknown
 * @param offset offset it was read from, or null if unknown
 * @param rejectedAt when it was refused
 */
public record Rejected(
    int schemaVersion,
    String reason,
    int problemCount,
    String originalKey,
    boolean keyTruncated,
    String originalPayload,
    boolean payloadBase64,
    boolean payloadTruncated,
    Integer payloadLength,
    String payloadSha256,
    String sourceTopic,
    Integer partition,
    Long offset,
    Instant rejectedAt) {

  public static final int SCHEMA_VERSION = 1;
  /** Bytes of the refused value copied into the rejection. */
  public static final int MAX_PAYLOAD_PREFIX_BYTES = 8 * 1024;
  /** Characters of the refused record's key kept (in the value and as the record key). */
  public static final int MAX_KEY_CHARS = 256;
  /**
   * Largest serialized rejection value the {@code payout.rejected} serde writes. {@link #of} stays
   * below it by construction (an 8 KiB prefix of control bytes escaped six times over, 20 problems
   * of 500 three-byte characters and a 256-character key stay under 82 KB; the worst case the tests
   * build serializes to about 63 KB); the serde refuses anything larger,
   * so an oversized record never reaches the (transactional) producer.
   */
  public static final int MAX_SERIALIZED_BYTES = 128 * 1024;

  public Rejected {
    Check.schemaVersion(schemaVersion);
    Check.nonBlank(reason, "reason");
    if (problemCount < 1) {
      throw new IllegalArgumentException("problemCount must be at least 1, got " + problemCount);
    }
    if (payloadBase64 && originalPayload == null) {
      throw new IllegalArgumentException("payloadBase64 is set but there is no originalPayload");
    }
    if (payloadTruncated && originalPayload == null) {
      throw new IllegalArgumentException("payloadTruncated is set but there is no originalPayload");
    }
    if (keyTruncated && originalKey == null) {
      throw new IllegalArgumentException("keyTruncated is set but there is no originalKey");
    }
    Check.nonNegative(payloadLength == null ? null : payloadLength.longValue(), "payloadLength");
    Check.hash(payloadSha256, "payloadSha256");
    Check.nonBlank(sourceTopic, "sourceTopic");
    Check.present(rejectedAt, "rejectedAt");
  }

  /**
   * The bounded rejection of the raw value {@code payload} (may be null) for {@code problems}: the
   * reason lists the first {@link Reasons#MAX_LISTED} problems, escaped and cut; the payload is kept
   * as text when it is strict UTF-8 and as base64 otherwise, cut to
   * {@link #MAX_PAYLOAD_PREFIX_BYTES} bytes (at a character boundary), with the length and SHA-256
   * of the whole; the key is cut to {@link #MAX_KEY_CHARS}.
   */
  public static Rejected of(
      List<String> problems, String originalKey, byte[] payload, String sourceTopic, Integer partition,
      Long offset, Instant rejectedAt) {
    String key = originalKey;
    boolean keyTruncated = false;
    if (key != null && key.length() > MAX_KEY_CHARS) {
      key = key.substring(0, cutBefore(key, MAX_KEY_CHARS));
      keyTruncated = true;
    }
    if (payload == null) {
      return new Rejected(SCHEMA_VERSION, Reasons.join(problems), problems.size(), key, keyTruncated, null, false,
          false, null, null, sourceTopic, partition, offset, rejectedAt);
    }
    boolean text = StrictUtf8.decode(payload) instanceof StrictUtf8.Text;
    int keep = Math.min(payload.length, MAX_PAYLOAD_PREFIX_BYTES);
    if (text) {
      // never cut inside a character: back up to the start of the sequence at the cut
      while (keep < payload.length && keep > 0 && (payload[keep] & 0xC0) == 0x80) {
        keep--;
      }
    }
    byte[] prefix = keep == payload.length ? payload : Arrays.copyOf(payload, keep);
    String stored = text
        ? new String(prefix, StandardCharsets.UTF_8)
        : Base64.getEncoder().encodeToString(prefix);
    return new Rejected(SCHEMA_VERSION, Reasons.join(problems), problems.size(), key, keyTruncated, stored, !text,
        keep < payload.length, payload.length, sha256(payload), sourceTopic, partition, offset, rejectedAt);
  }

  /** {@link #of(List, String, byte[], String, Integer, Long, Instant)} with one problem. */
  public static Rejected of(
      String reason, String originalKey, byte[] payload, String sourceTopic, Integer partition,
      Long offset, Instant rejectedAt) {
    return of(List.of(reason), originalKey, payload, sourceTopic, partition, offset, rejectedAt);
  }

  /**
   * The stored payload bytes, decoding base64 when needed: the whole value unless
   * {@link #payloadTruncated()}; null when the value was null.
   */
  public byte[] originalPayloadBytes() {
    if (originalPayload == null) {
      return null;
    }
    return payloadBase64
        ? Base64.getDecoder().decode(originalPayload)
        : originalPayload.getBytes(StandardCharsets.UTF_8);
  }

  /** SHA-256 of {@code bytes} as 64 lowercase hex digits, the form of {@link #payloadSha256()}. */
  public static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  /** The largest cut at or below {@code max} that does not split a surrogate pair. */
  private static int cutBefore(String s, int max) {
    return Character.isLowSurrogate(s.charAt(max)) && Character.isHighSurrogate(s.charAt(max - 1)) ? max - 1 : max;
  }
}
