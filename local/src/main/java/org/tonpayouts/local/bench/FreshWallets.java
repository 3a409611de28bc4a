package org.tonpayouts.local.bench;

import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.local.stack.RunKey;
import org.tonpayouts.local.stack.StackRun;
import org.tonpayouts.local.stack.WalletSet;
import org.tonpayouts.ton.wallet.Subwallets;
import org.tonpayouts.ton.wallet.TransferOrder;
import org.tonpayouts.ton.wallet.TransferSigner;

/**
 * Wallets of a benchmark phase that runs beside the pipeline (devnet's capacity, the peer): as many
 * as the pipeline pays from, undeployed like its wallets were, under a key of their own so the
 * children never see them and the ledger audit of the pipeline's wallets is not disturbed; with
 * recipients of their own, and the signer for them.
 */
public record FreshWallets(WalletSet wallets, TransferSigner signer) {
  /** {@code count} wallets under a new random key, with the subwallet ids and recipients a run would have. */
  public static FreshWallets create(int count) {
    Subwallets subwallets = new Subwallets(RunKey.random().key(), 0);
    return new FreshWallets(new WalletSet(subwallets, Subwallets.DEFAULT_SUBWALLET_ID, count,
        Math.min(100, Math.max(10, count))), new TransferSigner(subwallets));
  }

  /** Credits every wallet on devnet as the launcher credits the pipeline's. */
  public void fund(Devnet devnet) {
    for (long id : wallets.subwalletIds()) {
      devnet.fund(wallets.address(id), StackRun.FUNDING_NANO);
    }
  }

  /** Transfer {@code n} of wallet {@code index}: the benchmark's amount to a recipient, with a comment like the load's. */
  public TransferOrder order(int index, int n, String tag) {
    return new TransferOrder(wallets.recipient(index * 31 + n), BenchLoad.BENCH_AMOUNT_NANO, tag + "-" + n + "-" + index
        + " payout", false);
  }

  public int count() {
    return wallets.count();
  }
}
