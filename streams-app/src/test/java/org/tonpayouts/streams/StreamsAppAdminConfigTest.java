package org.tonpayouts.streams;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.embedded.CertificateAuthority;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.StartupException;
import org.tonpayouts.streams.metrics.PayoutMetrics;

/** streams-app refuses to start an admin API that anyone could call, before touching anything else. */
class StreamsAppAdminConfigTest {

  @Test
  void shouldRefuseAnAdminPortWithoutAToken() {
    PayoutsConfig config = new PayoutsConfig(Map.of(PayoutsConfig.ADMIN_PORT_CONFIG, "8090"));

    assertThatThrownBy(() -> new StreamsApp(config, PayoutTestKit.KEY, null, null, Clock.systemUTC(),
        PayoutMetrics.inMemory()))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("admin.port is 8090 but no admin credentials are set")
        .hasMessageContaining("admin.operators.file")
        .hasMessageContaining("PAYOUTS_ADMIN_TOKEN");
  }

  @Test
  void shouldRefuseAWeakTokenWithoutShowingIt() {
    PayoutsConfig config = new PayoutsConfig(Map.of(PayoutsConfig.ADMIN_PORT_CONFIG, "8090",
        PayoutsConfig.ADMIN_TOKEN_CONFIG, "hunter2"));

    assertThatThrownBy(() -> new StreamsApp(config, PayoutTestKit.KEY, null, null, Clock.systemUTC(),
        PayoutMetrics.inMemory()))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("use at least 16")
        .hasMessageNotContaining("hunter2");
  }

  @Test
  void shouldRefuseAKeyStoreItCannotOpenBeforeStartingAnything(@TempDir Path dir) throws Exception {
    Path store = CertificateAuthority.create("config-test-ca").issueLocalhost("admin")
        .writeKeyStore(dir.resolve("admin.p12"), "admin", "the-right-password".toCharArray());
    Path password = Files.writeString(dir.resolve("password"), "a-wrong-password");
    Files.setPosixFilePermissions(password, PosixFilePermissions.fromString("rw-------"));
    PayoutsConfig config = new PayoutsConfig(Map.of(PayoutsConfig.ADMIN_PORT_CONFIG, "8090",
        PayoutsConfig.ADMIN_TOKEN_CONFIG, "a-token-long-enough-0123",
        PayoutsConfig.ADMIN_TLS_KEYSTORE_FILE_CONFIG, store.toString(),
        PayoutsConfig.ADMIN_TLS_KEYSTORE_PASSWORD_FILE_CONFIG, password.toString()));

    // no database, no TON API: the refusal comes before either is touched
    assertThatThrownBy(() -> new StreamsApp(config, PayoutTestKit.KEY, null, null, Clock.systemUTC(),
        PayoutMetrics.inMemory()))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("cannot open admin.tls.keystore.file " + store)
        .hasMessageContaining("with the password from admin.tls.keystore.password.file " + password)
        .hasMessageNotContaining("a-wrong-password");
  }
}
