package org.tonpayouts.local.stack;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.tonpayouts.runtime.PayoutsConfig;
import picocli.CommandLine.Option;

/** The options of commands that can run against an external TON API instead of devnet (a picocli mixin). */
public final class TonApiOptions {
  @Option(names = "--ton-api-url", paramLabel = "<url>",
      description = "A toncenter-compatible API (e.g. testnet) instead of devnet; the wallets must be funded.")
  URI tonApiUrl;

  @Option(names = "--wallet-secret-file", paramLabel = "<file>",
      description = "Mnemonic or seed file of the paying key (required with --ton-api-url).")
  Path walletSecretFile;

  @Option(names = "--ton-api-key-file", paramLabel = "<file>", description = "File holding the API key, if any.")
  Path tonApiKeyFile;

  @Option(names = "--ton-api-rps", paramLabel = "<n>",
      description = "Requests per second the children may make to --ton-api-url (default: the default of"
          + " ton.api.requests.per.second, 10, what a toncenter key allows at least; toncenter without a key allows 1).")
  Double tonApiRps;

  @Option(names = "--testnet", description = "Write addresses in their testnet form (default: on with --ton-api-url).")
  Boolean testnet;

  /** Fails on combinations that make no sense. */
  void validate() {
    if (tonApiUrl != null && walletSecretFile == null) {
      throw new IllegalArgumentException("--ton-api-url needs --wallet-secret-file (the key of funded wallets)");
    }
    if (tonApiUrl == null && (walletSecretFile != null || tonApiKeyFile != null)) {
      throw new IllegalArgumentException("--wallet-secret-file and --ton-api-key-file go with --ton-api-url;"
          + " on devnet every run uses a fresh random key");
    }
  }

  public boolean onTestnet() {
    return testnet != null ? testnet : tonApiUrl != null;
  }

  /** The children's rate limit on the external API: the option, or the configuration's default. */
  double requestsPerSecond() {
    if (tonApiRps != null) {
      return tonApiRps;
    }
    return (Double) PayoutsConfig.CONFIG.defaultValues().get(PayoutsConfig.TON_API_RPS_CONFIG);
  }

  public RunOptions runOptions(int wallets, StackOptions stack, Duration settleTimeout, Home home) {
    validate();
    return new RunOptions(wallets, stack.partitions, stack.blockInterval(), Optional.ofNullable(tonApiUrl),
        Optional.ofNullable(walletSecretFile), Optional.ofNullable(tonApiKeyFile), requestsPerSecond(), onTestnet(),
        settleTimeout, stack.dataDir(home), home, stack.settings);
  }
}
