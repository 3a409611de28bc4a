package org.tonpayouts.ton.api;

import java.util.Objects;

/**
 * Identifies one transaction of an account: its logical time and hash (lowercase hex). The
 * cursor of {@link TonApi#getTransactions} paging.
 */
public record TransactionId(long lt, String hash) {
  public TransactionId {
    Objects.requireNonNull(hash, "hash");
    if (lt < 0) {
      throw new IllegalArgumentException("lt must not be negative, got " + lt);
    }
  }
}
