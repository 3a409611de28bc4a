package org.tonpayouts.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The configuration reference of docs/configuration.md is generated from PayoutsConfig and must match it. */
class ConfigTableTest {
  /** Surefire runs in the module directory; the page is the checkout's. */
  private static final Path PAGE = Path.of("..").resolve(ConfigTable.PAGE);

  @Test
  void shouldMatchTheConfigurationPage() throws Exception {
    String page = Files.readString(PAGE, StandardCharsets.UTF_8);

    assertThat(ConfigTable.current(page))
        .as("%s's configuration table differs from PayoutsConfig: run %s", ConfigTable.PAGE, ConfigTable.REGENERATE)
        .isEqualTo(ConfigTable.markdown());
  }

  @Test
  void shouldListEveryKeyWithItsEnvironmentVariableAndDefault() {
    String table = ConfigTable.markdown();

    assertThat(table.lines().count()).isEqualTo(2 + PayoutsConfig.CONFIG.names().size());
    for (String key : ConfigTable.keys()) {
      assertThat(table).contains("| `" + key + "` | `" + PayoutsConfig.envName(key) + "` |");
    }
    assertThat(table).contains("| `topics.partitions` | `PAYOUTS_TOPICS_PARTITIONS` | `12` |")
        .contains("| `postgres.password` | `PAYOUTS_POSTGRES_PASSWORD` | (empty) |")
        .contains("`<java.io.tmpdir>/ton-payouts-state`");
  }

  @Test
  void shouldReplaceOnlyTheTableBetweenTheMarkers() {
    String readme = "intro\n" + ConfigTable.BEGIN + "\n| old |\n" + ConfigTable.END + "\noutro\n";

    String regenerated = ConfigTable.regenerate(readme);

    assertThat(regenerated).startsWith("intro\n" + ConfigTable.BEGIN + "\n| Key |").endsWith(ConfigTable.END
        + "\noutro\n").doesNotContain("| old |");
    assertThat(ConfigTable.regenerate(regenerated)).isEqualTo(regenerated);
  }
}
