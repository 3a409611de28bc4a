package org.tonpayouts.devnet.chain;

import java.util.Objects;
import org.tonpayouts.ton.address.TonAddress;

/**
 * An account as of one block: what the read endpoints report. Immutable.
 *
 * @param wallet the WalletV4R2 data of an active wallet, {@code null} otherwise
 * @param lastTxLt 0 when the account has no transaction
 * @param lastTxHash lowercase hex, 64 zeros when the account has no transaction
 * @param blockSeqno the masterchain block this view is as of
 * @param contract the state of an active contract devnet runs (a jetton wallet or minter), {@code null} otherwise
 */
public record AccountView(TonAddress address, AccountState state, long balance, WalletData wallet,
                          long lastTxLt, String lastTxHash, long blockSeqno, ContractState contract) {
  public static final String NO_HASH = "0".repeat(64);

  public AccountView {
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(lastTxHash, "lastTxHash");
  }

  static AccountView nonexistent(TonAddress address, long blockSeqno) {
    return new AccountView(address, AccountState.NONEXISTENT, 0, null, 0, NO_HASH, blockSeqno, null);
  }

  /** True for a deployed WalletV4R2. */
  public boolean isWallet() {
    return state == AccountState.ACTIVE && wallet != null;
  }

  /** True for an active contract devnet runs (a jetton wallet or minter). */
  public boolean isContract() {
    return state == AccountState.ACTIVE && contract != null;
  }

  AccountView asOf(long seqno) {
    return new AccountView(address, state, balance, wallet, lastTxLt, lastTxHash, seqno, contract);
  }
}
