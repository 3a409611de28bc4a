package org.tonpayouts.devnet.chain;

import java.util.List;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.TonCell;

/**
 * A smart contract devnet runs in Java in place of its TVM code (a jetton wallet, a jetton
 * minter): its code and data as the real contract keeps them, what it does with an inbound
 * internal message, and its get-methods. Immutable: a run returns the next state, so a failed
 * transaction keeps the old one without any rollback logic.
 */
public interface ContractState {
  /** The real code cell: the account's code, and part of the StateInit that names its address. */
  TonCell code();

  /** The persistent data, laid out exactly as the real contract stores it. */
  TonCell data();

  /** A short name for logs and transaction descriptions, e.g. {@code "jetton wallet (reference)"}. */
  String kind();

  /** What {@code recv_internal} does with {@code call}: the next state and actions, or the exit code it throws. */
  ContractRun receive(InternalCall call);

  /** Runs get-method {@code method} with {@code args} (first argument first) on the contract at {@code self}. */
  GetMethodOutcome runGetMethod(String method, List<StackValue> args, TonAddress self);
}
