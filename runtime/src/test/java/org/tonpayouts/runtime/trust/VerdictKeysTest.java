package org.tonpayouts.runtime.trust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.ConfirmationStatus;
import org.tonpayouts.schemas.Topics;

/** The verdict keys: signing, verifying, rotating, and how they are configured. */
class VerdictKeysTest {
  private static final String TOPIC = Topics.PAYOUT_CONFIRMATIONS.name();
  private static final String OLD = "old:" + "11".repeat(32);
  private static final String NEW = "new:" + "22".repeat(32);

  @TempDir
  Path tmp;

  private static Confirmation verdict() {
    return Confirmation.of("r", "t", 698983191L, "ab".repeat(32), 4, ConfirmationStatus.CONFIRMED, "cd".repeat(32),
        42L, 1_700L, 2_000L, null, Instant.parse("2026-11-27T00:00:00Z"));
  }

  @Test
  void shouldVerifyWhatItSignedAndNothingChanged() {
    VerdictKeys keys = VerdictKeys.parse(OLD, "test");
    byte[] value = "{\"status\":\"CONFIRMED\"}".getBytes(StandardCharsets.UTF_8);
    String mac = keys.sign(TOPIC, value);

    assertThat(mac).startsWith("old:");
    assertThat(keys.verify(TOPIC, value, mac)).contains("old");
    byte[] changed = value.clone();
    changed[3] ^= 1;
    assertThat(keys.verify(TOPIC, changed, mac)).as("another value").isEmpty();
    assertThat(keys.verify(Topics.PAYOUT_REQUESTS.name(), value, mac)).as("another topic").isEmpty();
    assertThat(keys.verify(TOPIC, value, null)).isEmpty();
    assertThat(keys.verify(TOPIC, value, "old:zz")).isEmpty();
    assertThat(keys.verify(TOPIC, value, "other:" + mac.substring(4))).as("an unknown key id").isEmpty();
  }

  @Test
  void shouldLetAKeyBeRotatedWithoutStopping() {
    VerdictKeys before = VerdictKeys.parse(OLD, "before");
    VerdictKeys during = VerdictKeys.parse(OLD + "," + NEW, "during");
    VerdictKeys switched = VerdictKeys.parse(NEW + "\n" + OLD, "switched");
    VerdictKeys after = VerdictKeys.parse("# the new key only\n" + NEW, "after");
    byte[] value = {1, 2, 3};

    // a poller still on the old key, a streams-app already on both (and the other way round)
    assertThat(during.verify(TOPIC, value, before.sign(TOPIC, value))).contains("old");
    assertThat(switched.signingId()).isEqualTo("new");
    assertThat(during.verify(TOPIC, value, switched.sign(TOPIC, value))).contains("new");
    assertThat(after.verify(TOPIC, value, before.sign(TOPIC, value))).as("the old key retired").isEmpty();
  }

  @Test
  void shouldSignIntoTheHeadersAndReadBackOnlyWhatAKeyVerifies() {
    VerdictKeys keys = VerdictKeys.parse(OLD, "test");
    RecordHeaders headers = new RecordHeaders();
    byte[] value = new VerdictSigner(keys).serialize(TOPIC, headers, verdict());

    assertThat(new VerdictVerifier(keys).deserialize(TOPIC, headers, value))
        .isInstanceOfSatisfying(VerifiedVerdict.Authentic.class, a -> {
          assertThat(a.verdict()).isEqualTo(verdict());
          assertThat(a.keyId()).isEqualTo("old");
        });
    assertThat(new VerdictVerifier(VerdictKeys.parse(NEW, "other")).deserialize(TOPIC, headers, value))
        .isInstanceOfSatisfying(VerifiedVerdict.Refused.class, r -> {
          assertThat(r.why()).contains("verified by no verdict key");
          assertThat(r.bytes()).isEqualTo(value.length);
          assertThat(r.sha256()).hasSize(64);
        });
    assertThat(new VerdictVerifier(keys).deserialize(TOPIC, new RecordHeaders(), value))
        .isInstanceOfSatisfying(VerifiedVerdict.Refused.class, r -> assertThat(r.why()).contains("no payout-mac"));
  }

  @Test
  void shouldRefuseKeysThatAreMalformedShortOrRepeatedNamingTheSourceButNotTheKey() {
    assertThatThrownBy(() -> VerdictKeys.parse("nocolon", "the file")).isInstanceOf(ConfigException.class)
        .hasMessageContaining("verdict key 1 of the file is not id:hex");
    assertThatThrownBy(() -> VerdictKeys.parse("k:abcd", "the file")).hasMessageContaining("has 2 bytes");
    assertThatThrownBy(() -> VerdictKeys.parse("k:zz" + "11".repeat(31), "the file")).hasMessageContaining("not hex");
    assertThatThrownBy(() -> VerdictKeys.parse(OLD + "," + OLD, "the file")).hasMessageContaining("appears twice");
    assertThatThrownBy(() -> VerdictKeys.parse("# nothing\n", "the file")).hasMessageContaining("holds no verdict key");
    assertThatThrownBy(() -> VerdictKeys.parse("k:zz" + "11".repeat(31), "the file"))
        .hasMessageNotContaining("11111111");
  }

  @Test
  void shouldReadTheKeysFromAFileOnlyTheServiceCanRead() throws Exception {
    Path file = tmp.resolve("verdict-keys");
    Files.writeString(file, OLD + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    PayoutsConfig loose = PayoutsConfig.load(Optional.empty(), Map.of(
        PayoutsConfig.envName(PayoutsConfig.VERDICT_MAC_KEYS_FILE_CONFIG), file.toString()));

    assertThatThrownBy(() -> VerdictKeys.from(loose)).isInstanceOf(ConfigException.class)
        .hasMessageContaining(file.toString()).hasMessageContaining("rw-r--r--").hasMessageContaining("chmod 600");

    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    assertThat(VerdictKeys.from(loose).signingId()).isEqualTo("old");
    assertThatThrownBy(() -> VerdictKeys.from(PayoutsConfig.load(Optional.empty(), Map.of())))
        .hasMessageContaining("no verdict keys").hasMessageContaining(PayoutsConfig.VERDICT_MAC_KEYS_FILE_CONFIG);
  }
}
