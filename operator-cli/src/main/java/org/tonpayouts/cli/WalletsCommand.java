package org.tonpayouts.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.keys.WalletKey;
import org.tonpayouts.ton.keys.WalletSecrets;
import org.tonpayouts.ton.wallet.Subwallets;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code payouts wallets}: the addresses of a key's subwallets, e.g. to fund them on testnet. */
@Command(name = "wallets", mixinStandardHelpOptions = true,
    description = {"Prints WalletV4R2 subwallet ids with their raw and user-friendly addresses.",
        "The key comes from --wallet-secret-file, or else from TON_WALLET_MNEMONIC_FILE / TON_WALLET_SEED_FILE;"
            + " the file must be readable by its owner only (chmod 600)."})
public final class WalletsCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = "--from", defaultValue = "" + Subwallets.DEFAULT_SUBWALLET_ID,
      description = "First subwallet id (default ${DEFAULT-VALUE}).")
  long from;

  @Option(names = "--count", defaultValue = "10", description = "How many subwallets (default ${DEFAULT-VALUE}).")
  int count;

  @Option(names = "--testnet", description = "User-friendly addresses in their testnet form.")
  boolean testnet;

  @Option(names = "--workchain", defaultValue = "0", description = "0 (basechain, default) or -1.")
  int workchain;

  @Option(names = "--wallet-secret-file", paramLabel = "<file>", description = "Mnemonic or seed file of the key.")
  Path walletSecretFile;

  @Override
  public Integer call() {
    if (count < 1 || from < 0 || from + count - 1 > Subwallets.MAX_SUBWALLET_ID) {
      throw new IllegalArgumentException("subwallet ids must lie within 0.." + Subwallets.MAX_SUBWALLET_ID);
    }
    WalletKey key = walletSecretFile != null ? WalletSecrets.fromFile(walletSecretFile) : keyFromEnvironment();
    Subwallets subwallets = new Subwallets(key, workchain);
    PrintWriter out = spec.commandLine().getOut();
    out.printf("# public key %s, workchain %d, %s; fund the non-bounceable form (the wallets are not deployed yet)%n",
        key.publicKeyHex(), workchain, testnet ? "testnet" : "mainnet");
    out.println("subwallet_id\traw\tnon_bounceable\tbounceable");
    for (long id = from; id < from + count; id++) {
      TonAddress address = subwallets.address(id);
      out.printf("%d\t%s\t%s\t%s%n", id, address.toRaw(), address.toFriendly(false, testnet),
          address.toFriendly(true, testnet));
    }
    out.flush();
    return 0;
  }

  private static WalletKey keyFromEnvironment() {
    try {
      // the secret itself in the environment is refused here as in streams-app: it lingers in shell history
      return WalletSecrets.fromEnvironment(System.getenv(), WalletSecrets.Inline.REFUSED);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(e.getMessage() + "; or pass --wallet-secret-file <file>", e);
    }
  }
}
