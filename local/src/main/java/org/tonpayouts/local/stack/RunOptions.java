package org.tonpayouts.local.stack;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * How one run of the local stack is set up.
 *
 * @param wallets paying subwallets
 * @param partitions partitions of every payout topic
 * @param blockInterval devnet's block interval (ignored with an external API)
 * @param externalApi a toncenter-compatible API to use instead of devnet (no funding then)
 * @param walletSecretFile the operator's key for the external API (mnemonic or seed)
 * @param apiKeyFile file holding the external API's key, if it needs one
 * @param apiRequestsPerSecond the children's client-side rate limit
 * @param testnet addresses in their testnet form
 * @param settleTimeout how long to wait for every settlement; zero: derived from the load
 * @param dataDir where run directories are created
 * @param childSettings configuration keys set for both children ({@code --set key=value})
 * @param brokers one broker or a cluster of three
 */
public record RunOptions(int wallets, int partitions, Duration blockInterval, Optional<URI> externalApi,
                         Optional<Path> walletSecretFile, Optional<Path> apiKeyFile, double apiRequestsPerSecond,
                         boolean testnet, Duration settleTimeout, Path dataDir, Home home,
                         Map<String, String> childSettings, LocalStack.Brokers brokers) {
  public RunOptions {
    childSettings = Map.copyOf(childSettings);
    java.util.Objects.requireNonNull(brokers, "brokers");
  }

  /** On one broker. */
  public RunOptions(int wallets, int partitions, Duration blockInterval, Optional<URI> externalApi,
      Optional<Path> walletSecretFile, Optional<Path> apiKeyFile, double apiRequestsPerSecond, boolean testnet,
      Duration settleTimeout, Path dataDir, Home home, Map<String, String> childSettings) {
    this(wallets, partitions, blockInterval, externalApi, walletSecretFile, apiKeyFile, apiRequestsPerSecond, testnet,
        settleTimeout, dataDir, home, childSettings, LocalStack.Brokers.ONE);
  }

  /** The same run on {@code other} brokers. */
  public RunOptions withBrokers(LocalStack.Brokers other) {
    return new RunOptions(wallets, partitions, blockInterval, externalApi, walletSecretFile, apiKeyFile,
        apiRequestsPerSecond, testnet, settleTimeout, dataDir, home, childSettings, other);
  }

  /** Requests per second for devnet: effectively no client-side limit. */
  public static final double DEVNET_REQUESTS_PER_SECOND = 1_000_000;

  public boolean onDevnet() {
    return externalApi.isEmpty();
  }

  /**
   * The settle deadline of a load: the given one, or one that lets the longest wallet queue of the
   * load take six blocks per transfer and the whole load settle at 40 transfers/s, plus a minute of
   * start-up; a slower run stops there and reports what settled by then.
   *
   * @param maxTransfersPerWallet the load's longest queue of one wallet, in transfers
   * @param transferCount the load's transfers
   */
  public Duration settleTimeoutFor(int maxTransfersPerWallet, int transferCount) {
    if (!settleTimeout.isZero()) {
      return settleTimeout;
    }
    long perWallet = maxTransfersPerWallet;
    if (!onDevnet()) {
      return Duration.ofSeconds(300).plusSeconds(20 * perWallet);
    }
    Duration byBlocks = blockInterval.multipliedBy(6 * perWallet);
    Duration byThroughput = Duration.ofMillis(25L * transferCount);
    return Duration.ofSeconds(60).plus(byBlocks.compareTo(byThroughput) > 0 ? byBlocks : byThroughput);
  }
}
