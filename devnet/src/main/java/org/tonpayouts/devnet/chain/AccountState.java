package org.tonpayouts.devnet.chain;

/** Life cycle of an account on devnet (frozen accounts are not modelled). */
public enum AccountState {
  /** Never credited, or destroyed: no balance, no code. */
  NONEXISTENT,
  /** Has a balance but no code yet: a wallet before its first (StateInit) message. */
  UNINITIALIZED,
  /** Has code: a deployed WalletV4R2, or a plain account that only receives. */
  ACTIVE;

  /** The {@code state} / {@code account_state} toncenter reports: it shows nonexistent as uninitialized. */
  public String toncenterName() {
    return this == ACTIVE ? "active" : "uninitialized";
  }
}
