package org.tonpayouts.local.stack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** Options every command that starts the stack shares (a picocli mixin). */
public final class StackOptions {
  @Option(names = "--block-ms", defaultValue = "400",
      description = "devnet block interval in milliseconds (default ${DEFAULT-VALUE}, like mainnet).")
  long blockMillis;

  @Option(names = "--partitions", defaultValue = "4",
      description = "Partitions of every payout topic (default ${DEFAULT-VALUE}).")
  int partitions;

  @Option(names = "--data-dir", paramLabel = "<dir>",
      description = "Where run directories (config, logs) are created (default: local-data/ in the checkout).")
  Path dataDir;

  @Option(names = "--set", paramLabel = "KEY=VALUE",
      description = "A configuration key for both streams-app and chain-poller, e.g. --set"
          + " transfer.valid.until.ttl.seconds=20 (repeatable; docs/configuration.md lists the keys).")
  Map<String, String> settings = new LinkedHashMap<>();

  @Option(names = "--timeout-s", defaultValue = "0",
      description = "Seconds to wait for every settlement (default: derived from the load).")
  long timeoutSeconds;

  public int partitions() {
    return partitions;
  }

  /** The {@code --set} keys, in the order given. */
  public Map<String, String> settings() {
    return settings;
  }

  /** {@code --timeout-s}: 0 lets the command derive its deadline. */
  public long timeoutSeconds() {
    return timeoutSeconds;
  }

  public Duration blockInterval() {
    if (blockMillis < 10) {
      throw new IllegalArgumentException("--block-ms must be at least 10, got " + blockMillis);
    }
    return Duration.ofMillis(blockMillis);
  }

  public Path dataDir(Home home) {
    return dataDir != null ? dataDir : home.defaultDataDir();
  }
}
