package org.tonpayouts.devnet.chain;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tonpayouts.ton.address.TonAddress;

/**
 * Every account devnet knows, with its history: the current state, its views at the end of
 * recent blocks, and its transactions. Guarded by the {@link Chain}'s lock.
 */
final class AccountStore {
  private final Map<TonAddress, Account> accounts = new HashMap<>();

  /** The account, or {@code null} when devnet never saw it. */
  Account find(TonAddress address) {
    return accounts.get(address);
  }

  /** The account, created nonexistent on first use. */
  Account getOrCreate(TonAddress address) {
    return accounts.computeIfAbsent(address, Account::new);
  }

  int size() {
    return accounts.size();
  }

  /** The account now, reported as of block {@code lastSeqno}. */
  AccountView current(TonAddress address, long lastSeqno) {
    Account account = accounts.get(address);
    return account == null ? AccountView.nonexistent(address, lastSeqno) : account.view(lastSeqno);
  }

  /** The account at the end of block {@code seqno} (nonexistent before its first change). */
  AccountView at(TonAddress address, long seqno) {
    Account account = accounts.get(address);
    return account == null ? AccountView.nonexistent(address, seqno) : account.viewAt(seqno);
  }

  /** The account's transactions of blocks up to {@code blockSeqno}, oldest first. */
  List<DevnetTransaction> transactions(TonAddress address, long blockSeqno) {
    Account account = accounts.get(address);
    if (account == null) {
      return List.of();
    }
    List<DevnetTransaction> all = account.transactions; // in block order
    int end = all.size();
    while (end > 0 && all.get(end - 1).blockSeqno() > blockSeqno) {
      end--;
    }
    return List.copyOf(all.subList(0, end));
  }

  /** Every account's transactions with an lt above {@code lt}, in lt order. */
  List<DevnetTransaction> transactionsAfter(long lt) {
    List<DevnetTransaction> found = new ArrayList<>();
    for (Account account : accounts.values()) {
      List<DevnetTransaction> all = account.transactions;
      for (int i = all.size() - 1; i >= 0 && all.get(i).lt() > lt; i--) {
        found.add(all.get(i));
      }
    }
    found.sort(Comparator.comparingLong(DevnetTransaction::lt));
    return found;
  }

  /** Every account now, reported as of block {@code lastSeqno}, in no particular order. */
  List<AccountView> views(long lastSeqno) {
    List<AccountView> views = new ArrayList<>(accounts.size());
    for (Account account : accounts.values()) {
      views.add(account.view(lastSeqno));
    }
    return views;
  }
}
