package org.tonpayouts.runtime.trust;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.kafka.common.config.ConfigException;
import org.tonpayouts.runtime.PayoutsConfig;

/**
 * The keys that make a verdict on {@code payout.confirmations} chain-poller's own: only chain-poller
 * and streams-app hold them (DESIGN.md, trust boundaries), so anyone else who can write the topic
 * cannot make streams-app settle a transfer. chain-poller signs with the first key; streams-app
 * accepts a verdict any of them verifies, which lets a key be rotated without stopping: add the new
 * one second, then first, then remove the old one, a rolling restart each.
 *
 * <p>A MAC is HMAC-SHA256 over a version tag, the topic and the record's value as it was written,
 * each length-prefixed, so a signed record cannot pass for one of another topic. The record key is
 * not covered (a value serializer does not see it); the verdict names its wallet, and streams-app
 * refuses one whose wallet is not its record key's.
 */
public final class VerdictKeys {
  /** The record header that carries {@code <key id>:<hex MAC>}. */
  public static final String HEADER = "payout-mac";
  private static final byte[] TAG = "payout-mac-v1".getBytes(StandardCharsets.UTF_8);
  private static final int MIN_KEY_BYTES = 32;
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,32}");
  private static final String ALGORITHM = "HmacSHA256";

  private final Map<String, SecretKeySpec> keys;
  private final String signingId;

  private VerdictKeys(Map<String, SecretKeySpec> keys) {
    this.keys = Map.copyOf(keys);
    this.signingId = keys.keySet().iterator().next();
  }

  /**
   * The keys of {@code text}: {@code id:hex} pairs separated by commas or new lines ({@code #}
   * starts a comment line), the first the one to sign with.
   *
   * @param source where the text came from, for the error messages (never the text itself)
   * @throws ConfigException when a pair is malformed, an id repeats or a key is shorter than 32 bytes
   */
  public static VerdictKeys parse(String text, String source) {
    Map<String, SecretKeySpec> keys = new LinkedHashMap<>();
    List<String> entries = new ArrayList<>();
    for (String line : text.split("\\R")) {
      if (line.strip().startsWith("#")) {
        continue;
      }
      for (String entry : line.split(",")) {
        if (!entry.isBlank()) {
          entries.add(entry.strip());
        }
      }
    }
    for (int i = 0; i < entries.size(); i++) {
      String entry = entries.get(i);
      int colon = entry.indexOf(':');
      String id = colon < 0 ? "" : entry.substring(0, colon);
      if (!ID.matcher(id).matches()) {
        throw new ConfigException("verdict key " + (i + 1) + " of " + source + " is not id:hex (an id of 1 to 32"
            + " letters, digits, '.', '_' or '-', then a colon and the key in hex)");
      }
      byte[] key;
      try {
        key = HexFormat.of().parseHex(entry.substring(colon + 1));
      } catch (IllegalArgumentException e) {
        throw new ConfigException("verdict key '" + id + "' of " + source + " is not hex");
      }
      if (key.length < MIN_KEY_BYTES) {
        throw new ConfigException("verdict key '" + id + "' of " + source + " has " + key.length + " bytes; use at"
            + " least " + MIN_KEY_BYTES + " random bytes (openssl rand -hex 32)");
      }
      if (keys.putIfAbsent(id, new SecretKeySpec(key, ALGORITHM)) != null) {
        throw new ConfigException("verdict key id '" + id + "' appears twice in " + source);
      }
    }
    if (keys.isEmpty()) {
      throw new ConfigException(source + " holds no verdict key");
    }
    return new VerdictKeys(keys);
  }

  /**
   * The deployment's keys ({@value PayoutsConfig#VERDICT_MAC_KEYS_CONFIG} or
   * {@value PayoutsConfig#VERDICT_MAC_KEYS_FILE_CONFIG}); both apps refuse to start without them.
   */
  public static VerdictKeys from(PayoutsConfig config) {
    PayoutsConfig.Secret secret = config.verdictMacKeys().orElseThrow(() -> new ConfigException("no verdict keys:"
        + " set " + PayoutsConfig.VERDICT_MAC_KEYS_FILE_CONFIG + " (or " + PayoutsConfig.envName(
        PayoutsConfig.VERDICT_MAC_KEYS_CONFIG) + ") to the same id:hex keys for streams-app and chain-poller, e.g."
        + " printf 'k1:%s\\n' \"$(openssl rand -hex 32)\" > verdict-keys && chmod 600 verdict-keys"));
    return parse(secret.value(), secret.source());
  }

  /** The id of the key verdicts are signed with. */
  public String signingId() {
    return signingId;
  }

  /** The header value for {@code value} written to {@code topic}: the signing key's id and its MAC. */
  public String sign(String topic, byte[] value) {
    return signingId + ":" + HexFormat.of().formatHex(mac(keys.get(signingId), topic, value));
  }

  /**
   * The id of the key whose MAC {@code header} carries for {@code value} on {@code topic}; empty when
   * the header is absent, malformed, of an unknown key or wrong (compared in constant time).
   */
  public Optional<String> verify(String topic, byte[] value, String header) {
    if (header == null) {
      return Optional.empty();
    }
    int colon = header.indexOf(':');
    SecretKeySpec key = colon < 0 ? null : keys.get(header.substring(0, colon));
    if (key == null) {
      return Optional.empty();
    }
    byte[] claimed;
    try {
      claimed = HexFormat.of().parseHex(header.substring(colon + 1));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    return MessageDigest.isEqual(claimed, mac(key, topic, value)) ? Optional.of(header.substring(0, colon))
        : Optional.empty();
  }

  private static byte[] mac(SecretKeySpec key, String topic, byte[] value) {
    Objects.requireNonNull(topic, "topic");
    byte[] topicBytes = topic.getBytes(StandardCharsets.UTF_8);
    byte[] content = value == null ? new byte[0] : value;
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(key);
      mac.update(TAG);
      mac.update(ByteBuffer.allocate(4).putInt(topicBytes.length).array());
      mac.update(topicBytes);
      mac.update(ByteBuffer.allocate(4).putInt(content.length).array());
      return mac.doFinal(content);
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException(ALGORITHM + " is not available in this JVM", e);
    }
  }

  @Override
  public String toString() {
    return "VerdictKeys[" + keys.size() + " keys, signing with '" + signingId + "']";
  }
}
