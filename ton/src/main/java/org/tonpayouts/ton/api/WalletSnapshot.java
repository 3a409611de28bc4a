package org.tonpayouts.ton.api;

import java.util.Objects;

/**
 * One API node's consistent view of a wallet, from a single {@code getAddressInformation}
 * answer: its seqno, balance and last transaction as of the block the node answered from, and
 * that block's time ({@code sync_utime}).
 *
 * <p>This is the read both processes decide on. The seqno, the balance and the time come from
 * the same state, so a lagging node gives an old seqno together with an old time: "has
 * {@code valid_until} passed on chain" is judged by {@link #syncUtime}, and lag can only delay
 * that conclusion, never cause it (DESIGN.md, the safe-retry rule).
 *
 * @param state           {@code active}, {@code uninitialized} (seqno 0: the first message deploys it)
 * @param balance         nanotons
 * @param seqno           the wallet's stored seqno; 0 for an uninitialized wallet
 * @param subwalletId     the stored subwallet id, null for an uninitialized wallet
 * @param lastTransaction the account's last transaction, null when it never had one
 * @param syncUtime       unix seconds of the state the node answered from
 */
public record WalletSnapshot(
    String state, long balance, long seqno, Long subwalletId, TransactionId lastTransaction, long syncUtime) {

  public WalletSnapshot {
    Objects.requireNonNull(state, "state");
  }

  /** Logical time of the last transaction the node knew of; 0 when none. */
  public long lastTransactionLt() {
    return lastTransaction == null ? 0 : lastTransaction.lt();
  }

  public boolean isUninitialized() {
    return "uninitialized".equals(state);
  }
}
