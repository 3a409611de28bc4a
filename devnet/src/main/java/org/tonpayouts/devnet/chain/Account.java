package org.tonpayouts.devnet.chain;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.CellWriter;
import org.tonpayouts.ton.cell.TonCell;

/** Mutable state of one account; guarded by the {@link Chain}'s lock. */
final class Account {
  /** Views kept per account for reads "as of K blocks ago" and {@code seqno}-pinned reads. */
  static final int HISTORY = 256;
  /** devnet is not archival: the oldest transactions of a very busy account are forgotten. */
  static final int MAX_TRANSACTIONS = 50_000;
  /** The hash of {@code account_none$0}, the state of an account that does not exist. */
  static final byte[] NONE_STATE_HASH = TonCell.builder().storeBit(false).endCell().hash();

  final TonAddress address;
  AccountState state = AccountState.NONEXISTENT;
  long balance;
  /** Data of a deployed WalletV4R2; {@code null} for plain accounts and before deployment. */
  WalletData wallet;
  /** A contract devnet runs (a jetton wallet or minter), deployed by a StateInit; {@code null} otherwise. */
  ContractState contract;
  long lastTxLt;
  String lastTxHash = AccountView.NO_HASH;
  /** Hash of the account's state after its last transaction ({@code state_update} of the next one). */
  byte[] stateHash = NONE_STATE_HASH;
  final List<DevnetTransaction> transactions = new ArrayList<>();
  private final ArrayDeque<AccountView> history = new ArrayDeque<>();

  Account(TonAddress address) {
    this.address = address;
  }

  AccountView view(long blockSeqno) {
    boolean active = state == AccountState.ACTIVE;
    return new AccountView(address, state, balance, active ? wallet : null, lastTxLt, lastTxHash, blockSeqno,
        active ? contract : null);
  }

  /**
   * A stand-in for the hash of the account's state (devnet keeps no Account cell): a cell of its
   * status, balance and last transaction lt {@code lastLt}, with the wallet's or contract's code and data.
   */
  byte[] stateHashWith(long lastLt) {
    if (state == AccountState.NONEXISTENT) {
      return NONE_STATE_HASH;
    }
    CellWriter b = TonCell.builder()
        .storeBit(true)
        .storeUint(state.ordinal(), 2)
        .storeCoins(balance)
        .storeUint(lastLt, 64);
    if (state == AccountState.ACTIVE && wallet != null) {
      b.storeRef(WalletV4R2.CODE).storeRef(WalletV4R2.dataCell(wallet));
    } else if (state == AccountState.ACTIVE && contract != null) {
      b.storeRef(contract.code()).storeRef(contract.data());
    }
    return b.endCell().hash();
  }

  void record(DevnetTransaction tx, byte[] newStateHash) {
    stateHash = newStateHash;
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
