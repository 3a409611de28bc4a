package org.tonpayouts.streams.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.StartupException;
import org.tonpayouts.runtime.admin.OperatorTokens;
import org.tonpayouts.streams.PayoutTestKit;
import org.tonpayouts.ton.keys.SecretFiles;

/**
 * Which credentials streams-app's configuration allows: the operators file or the shared token, never
 * both; and the two-person rule only with operators by name.
 */
class AdminAccessTest {
  private static final String SHARED = "shared-admin-token-0123456789abcdef";

  @TempDir
  Path dir;

  @Test
  void shouldRefuseToStartWithAThresholdButNoOperatorsFile() {
    PayoutsConfig config = config(Map.of(PayoutsConfig.ADMIN_TOKEN_CONFIG, SHARED,
        PayoutsConfig.ADMIN_APPROVAL_THRESHOLD_NANO_CONFIG, 0L));

    assertThatThrownBy(() -> AdminAccess.from(config)).isInstanceOf(StartupException.class)
        .hasMessageContaining("admin.approval.threshold.nano is 0 but admin.operators.file is not set")
        .hasMessageContaining("one person could approve their own resolution");
  }

  @Test
  void shouldRefuseToStartWithBothTheOperatorsFileAndTheSharedToken() throws IOException {
    PayoutsConfig config = config(Map.of(PayoutsConfig.ADMIN_TOKEN_CONFIG, SHARED,
        PayoutsConfig.ADMIN_OPERATORS_FILE_CONFIG, operatorsFile().toString()));

    assertThatThrownBy(() -> AdminAccess.from(config)).isInstanceOf(StartupException.class)
        .hasMessageContaining("the operators file replaces the shared token");
  }

  @Test
  void shouldRefuseToStartWithAnInvalidOperatorsFileNamingTheLine() throws IOException {
    Path file = dir.resolve("operators");
    SecretFiles.writeOwnerOnly(file, "alice sha1:" + "ab".repeat(20) + "\n");
    PayoutsConfig config = config(Map.of(PayoutsConfig.ADMIN_OPERATORS_FILE_CONFIG, file.toString()));

    assertThatThrownBy(() -> AdminAccess.from(config)).isInstanceOf(StartupException.class)
        .hasMessageContaining("line 1: the token digest must be sha256:<64 hex digits>, not sha1:...");
  }

  @Test
  void shouldAuthenticateOperatorsByNameOrTheSharedTokenAsConfigured() throws IOException {
    String token = OperatorTokens.newToken();
    Path file = dir.resolve("operators");
    SecretFiles.writeOwnerOnly(file, OperatorTokens.line("alice", token) + "\n");
    AdminAccess byName = AdminAccess.from(config(Map.of(PayoutsConfig.ADMIN_OPERATORS_FILE_CONFIG, file.toString(),
        PayoutsConfig.ADMIN_APPROVAL_THRESHOLD_NANO_CONFIG, 10L))).orElseThrow();
    AdminAccess shared = AdminAccess.from(config(Map.of(PayoutsConfig.ADMIN_TOKEN_CONFIG, SHARED))).orElseThrow();

    assertThat(byName.authenticate("Bearer " + token)).isEqualTo(new Authentication.Operator("alice"));
    assertThat(byName.authenticate("Bearer " + SHARED)).isInstanceOf(Authentication.Refused.class);
    assertThat(shared.authenticate("Bearer " + SHARED)).isEqualTo(new Authentication.SharedToken());
    assertThat(shared.authenticate("Bearer " + token)).isEqualTo(new Authentication.Refused("not the admin token"));
    assertThat(AdminAccess.from(PayoutTestKit.config(Map.of()))).as("admin.port 0: no admin API").isEmpty();
  }

  private Path operatorsFile() throws IOException {
    Path file = dir.resolve("operators");
    SecretFiles.writeOwnerOnly(file, OperatorTokens.line("alice", OperatorTokens.newToken()) + "\n");
    return file;
  }

  private static PayoutsConfig config(Map<String, Object> admin) {
    Map<String, Object> values = new HashMap<>(admin);
    values.put(PayoutsConfig.ADMIN_PORT_CONFIG, 8090);
    return PayoutTestKit.config(values);
  }
}
