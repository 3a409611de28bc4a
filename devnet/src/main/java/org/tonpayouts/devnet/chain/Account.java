package org.tonpayouts.devnet.chain;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.tonpayouts.ton.address.TonAddress;

/** Mutable state of one account; guarded by the {@link Chain}'s lock. */
final class Account {
  /** Views kept per account for reads "as of K blocks ago" and {@code seqno}-pinned reads. */
  static final int HISTORY = 256;
  /** devnet is not archival: the oldest transactions of a very busy account are forgotten. */
  static final int MAX_TRANSACTIONS = 50_000;

  final TonAddress address;
  AccountState state = AccountState.NONEXISTENT;
  long balance;
  /** Data of a deployed WalletV4R2; {@code null} for plain accounts and before deployment. */
  WalletData wallet;
  long lastTxLt;
  String lastTxHash = AccountView.NO_HASH;
  final List<DevnetTransaction> transactions = new ArrayList<>();
  private final ArrayDeque<AccountView> history = new ArrayDeque<>();

  Account(TonAddress address) {
    this.address = address;
  }

  AccountView view(long blockSeqno) {
    return new AccountView(address, state, balance, state == AccountState.ACTIVE ? wallet : null,
        lastTxLt, lastTxHash, blockSeqno);
  }

  void record(DevnetTransaction tx) {
    transactions.add(tx);
    if (transactions.size() > MAX_TRANSACTIONS) {
      transactions.subList(0, transactions.size() - MAX_TRANSACTIONS).clear();
    }
    lastTxLt = tx.lt();
    lastTxHash = tx.hash();
  }

  /** Remembers the current state as the state at the end of block {@code seqno}. */
  void remember(long seqno) {
    AccountView latest = history.peekLast();
    if (latest != null && latest.blockSeqno() == seqno) {
      history.pollLast();
    }
    history.addLast(view(seqno));
    while (history.size() > HISTORY) {
      history.pollFirst();
    }
  }

  /** The state at the end of block {@code seqno} (nonexistent before the account's first change). */
  AccountView viewAt(long seqno) {
    Iterator<AccountView> newestFirst = history.descendingIterator();
    while (newestFirst.hasNext()) {
      AccountView v = newestFirst.next();
      if (v.blockSeqno() <= seqno) {
        return v.asOf(seqno);
      }
    }
    return AccountView.nonexistent(address, seqno);
  }
}
