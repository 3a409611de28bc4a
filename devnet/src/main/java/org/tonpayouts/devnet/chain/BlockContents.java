package org.tonpayouts.devnet.chain;

import java.util.List;
import java.util.Objects;

/**
 * A block and its transactions in the order a node lists them (account id ascending, unsigned,
 * then lt ascending): what {@code getBlockTransactionsExt} pages through.
 */
public record BlockContents(ShardBlock block, List<DevnetTransaction> transactions) {
  public BlockContents {
    Objects.requireNonNull(block, "block");
    transactions = List.copyOf(transactions);
  }
}
