package org.tonpayouts.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.ton.keys.SecretFiles;

class PayoutsConfigAdminTest {
  private static final String TOKEN = "0123456789abcdef0123456789abcdef";

  @TempDir
  Path tmp;

  @Test
  void shouldLeaveTheAdminApiOffWithoutAToken() {
    PayoutsConfig config = new PayoutsConfig(Map.of());

    assertThat(config.adminPort()).isZero();
    assertThat(config.adminToken()).isEmpty();
    assertThat(config.outboxPollInterval()).isEqualTo(Duration.ofMillis(200));
  }

  @Test
  void shouldTakeTheTokenFromTheEnvironmentBeforeTheFile() throws Exception {
    Path file = tmp.resolve("token");
    SecretFiles.writeOwnerOnly(file, "  from-the-file-0123456789\n");

    PayoutsConfig both = PayoutsConfig.load(Optional.empty(), Map.of("PAYOUTS_ADMIN_PORT", "8090",
        "PAYOUTS_ADMIN_TOKEN", TOKEN, "PAYOUTS_ADMIN_TOKEN_FILE", file.toString()));
    PayoutsConfig fileOnly = PayoutsConfig.load(Optional.empty(), Map.of("PAYOUTS_ADMIN_TOKEN_FILE", file.toString()));

    assertThat(both.adminPort()).isEqualTo(8090);
    assertThat(both.adminToken()).contains(TOKEN);
    assertThat(fileOnly.adminToken()).contains("from-the-file-0123456789");
    assertThat(both.toString()).doesNotContain(TOKEN);
  }

  @Test
  void shouldRefuseAShortTokenOrAMissingFileWithoutShowingTheToken() {
    PayoutsConfig shortToken = new PayoutsConfig(Map.of(PayoutsConfig.ADMIN_TOKEN_CONFIG, "secret-123"));
    PayoutsConfig missing = new PayoutsConfig(Map.of(PayoutsConfig.ADMIN_TOKEN_FILE_CONFIG,
        tmp.resolve("absent").toString()));

    assertThatThrownBy(shortToken::adminToken).isInstanceOf(ConfigException.class)
        .hasMessageContaining("10 characters").hasMessageContaining("at least 16")
        .hasMessageNotContaining("secret-123");
    assertThatThrownBy(missing::adminToken).isInstanceOf(ConfigException.class)
        .hasMessage("admin.token.file '" + tmp.resolve("absent") + "' does not exist or is not a regular file");
  }
}
