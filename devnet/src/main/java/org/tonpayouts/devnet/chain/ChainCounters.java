package org.tonpayouts.devnet.chain;

/** Running totals behind {@link ChainStats}; guarded by the {@link Chain}'s lock. */
final class ChainCounters {
  long accepted;
  long rejected;
  long applied;
  long aborted;
  long vanished;
  long foreignApplied;
  long transactions;
  long contractsRan;
  long contractsThrown;

  ChainStats snapshot(int accounts, int pending) {
    return new ChainStats(accepted, rejected, applied, aborted, vanished, foreignApplied, transactions, accounts,
        pending, contractsRan, contractsThrown);
  }
}
