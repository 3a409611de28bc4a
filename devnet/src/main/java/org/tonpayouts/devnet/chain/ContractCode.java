package org.tonpayouts.devnet.chain;

import org.tonpayouts.ton.cell.TonCell;

/**
 * One contract code devnet can run: the real code cell, and how to read a state from its data, so
 * that a message carrying a StateInit with this code deploys the contract as the chain would.
 */
public interface ContractCode {
  /** The real code cell; its hash is what a StateInit is recognised by. */
  TonCell code();

  /**
   * The contract with data {@code data}; {@link IllegalArgumentException} when the data is not
   * what this code stores (devnet then treats the StateInit as code it cannot run).
   */
  ContractState load(TonCell data);
}
