package org.tonpayouts.runtime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.types.Password;

/**
 * The configuration reference table of {@code docs/configuration.md}, generated from
 * {@link PayoutsConfig#CONFIG} so the two cannot disagree: a test compares them, and
 * {@code ./payouts config-table} rewrites the page's table between its markers.
 */
public final class ConfigTable {
  public static final String BEGIN = "<!-- BEGIN config-table: generated from PayoutsConfig by ./payouts config-table;"
      + " edit the code, not this table -->";
  public static final String END = "<!-- END config-table -->";
  /** The page that holds the table, relative to the checkout's root. */
  public static final String PAGE = "docs/configuration.md";
  public static final String REGENERATE = "./payouts config-table";

  private ConfigTable() {}

  /** The Markdown table of every key: name, environment variable, default and meaning, in definition order. */
  public static String markdown() {
    StringBuilder b = new StringBuilder();
    b.append("| Key | Environment variable | Default | Meaning |\n");
    b.append("|---|---|---|---|\n");
    for (ConfigDef.ConfigKey key : PayoutsConfig.CONFIG.configKeys().values()) {
      b.append("| `").append(key.name).append("` | `").append(PayoutsConfig.envName(key.name)).append("` | ")
          .append(defaultOf(key)).append(" | ").append(cell(key.documentation)).append(" |\n");
    }
    return b.toString();
  }

  private static String defaultOf(ConfigDef.ConfigKey key) {
    if (!key.hasDefault()) {
      return "(required)";
    }
    Object value = key.defaultValue;
    String text = value instanceof Password p ? p.value() : String.valueOf(value);
    if (text.isEmpty()) {
      return "(empty)";
    }
    // machine-dependent defaults (the state directory) are shown by what they derive from
    String tmp = System.getProperty("java.io.tmpdir");
    if (tmp != null && !tmp.isEmpty() && text.startsWith(tmp)) {
      text = "<java.io.tmpdir>" + text.substring(tmp.length()).replace('\\', '/').replaceFirst("^/?", "/");
    }
    return "`" + text + "`";
  }

  private static String cell(String doc) {
    return doc == null ? "" : doc.replace("|", "\\|").replace("\n", " ");
  }

  /** The table currently between the markers of {@code page}. */
  public static String current(String page) {
    int begin = page.indexOf(BEGIN);
    int end = page.indexOf(END);
    if (begin < 0 || end < begin) {
      throw new IllegalArgumentException("the page has no " + BEGIN + " ... " + END + " section");
    }
    return page.substring(begin + BEGIN.length(), end).strip() + "\n";
  }

  /** {@code page} with the table between the markers replaced by the generated one. */
  public static String regenerate(String page) {
    int begin = page.indexOf(BEGIN);
    int end = page.indexOf(END);
    if (begin < 0 || end < begin) {
      throw new IllegalArgumentException("the page has no " + BEGIN + " ... " + END + " section");
    }
    return page.substring(0, begin + BEGIN.length()) + "\n" + markdown() + page.substring(end);
  }

  /** Rewrites the table in the file; returns true when it changed. */
  public static boolean regenerate(Path page) throws IOException {
    String before = Files.readString(page, StandardCharsets.UTF_8);
    String after = regenerate(before);
    if (after.equals(before)) {
      return false;
    }
    Files.writeString(page, after, StandardCharsets.UTF_8);
    return true;
  }

  /** The keys in definition order (for tests). */
  static List<String> keys() {
    return List.copyOf(PayoutsConfig.CONFIG.configKeys().keySet());
  }
}
