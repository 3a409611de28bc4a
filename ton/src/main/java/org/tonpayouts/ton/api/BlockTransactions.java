package org.tonpayouts.ton.api;

import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * One page of a block's transactions, full ({@code getBlockTransactionsExt}): what a block
 * follower reads once per new shard block instead of one {@code getTransactions} per watched
 * wallet.
 *
 * <p>Order is the node's: by account id (the 32-byte address without workchain, unsigned), then
 * by lt within an account; not by lt over the whole block. {@code incomplete} is true when the
 * page came back full: then there may be more, and {@link #next()} says where the next page
 * starts. A page that ends exactly at the block's last transaction is still marked incomplete
 * (the node only learns it reached the end by looking further), so the next page can be empty
 * with {@code incomplete} false.
 *
 * @param block        the block as the server identified it (hashes included)
 * @param transactions this page's transactions, in the node's order
 * @param incomplete   the page is full: read on from {@link #next()}
 */
public record BlockTransactions(BlockId block, List<ChainTransaction> transactions, boolean incomplete) {
  /**
   * The most transactions one request may ask for: toncenter's C++ server refuses more
   * ({@code count should be less or equal 10000}). Both toncenter servers read the liteserver in
   * pages of {@value #LITESERVER_PAGE} and join them, so a large count costs one request (one
   * rate-limit unit) but several liteserver round trips.
   */
  public static final int MAX_COUNT = 10_000;
  /** Transactions per liteserver query ({@code max_answer_transactions} in the node's liteserver). */
  public static final int LITESERVER_PAGE = 256;

  public BlockTransactions {
    Objects.requireNonNull(block, "block");
    transactions = List.copyOf(transactions);
  }

  /**
   * Where a page starts: after this account's transaction at this lt, in the node's order
   * (toncenter's {@code after_hash} is the account id, not a transaction hash, and
   * {@code after_lt} the transaction's lt).
   *
   * @param accountHex the account id without workchain: 64 lowercase hex digits
   */
  public record After(String accountHex, long lt) {
    public After {
      Objects.requireNonNull(accountHex, "accountHex");
      if (accountHex.length() != 64 || !accountHex.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
        throw new IllegalArgumentException("accountHex must be 64 hex digits, got '" + accountHex + "'");
      }
      if (lt < 0) {
        throw new IllegalArgumentException("lt must not be negative, got " + lt);
      }
      accountHex = accountHex.toLowerCase(Locale.ROOT);
    }

    /** The position right after {@code tx}. */
    public static After of(ChainTransaction tx) {
      return new After(HexFormat.of().formatHex(tx.account().hash()), tx.id().lt());
    }
  }

  /** The position after this page's last transaction, present when {@code incomplete}. */
  public Optional<After> next() {
    if (!incomplete || transactions.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(After.of(transactions.get(transactions.size() - 1)));
  }
}
