package org.tonpayouts.devnet.chain.jetton;

import java.util.List;
import java.util.function.Function;
import org.tonpayouts.devnet.chain.ContractCode;
import org.tonpayouts.devnet.chain.ContractCodes;
import org.tonpayouts.devnet.chain.ContractState;
import org.tonpayouts.ton.cell.TonCell;

/** The jetton contracts devnet runs: both flavors' wallets and minters, recognised by their real code. */
public final class JettonContracts {
  private JettonContracts() {}

  /** The codes to build a chain with ({@code new Chain(clock, seed, JettonContracts.codes())}). */
  public static ContractCodes codes() {
    return ContractCodes.of(List.of(
        code(JettonFlavor.REFERENCE.walletCode(), ReferenceJettonWallet::load),
        code(JettonFlavor.REFERENCE.minterCode(), ReferenceJettonMinter::load),
        code(JettonFlavor.STABLECOIN.walletCode(), StablecoinJettonWallet::load),
        code(JettonFlavor.STABLECOIN.minterCode(), StablecoinJettonMinter::load)));
  }

  private static ContractCode code(TonCell code, Function<TonCell, ContractState> loader) {
    return new ContractCode() {
      @Override
      public TonCell code() {
        return code;
      }

      @Override
      public ContractState load(TonCell data) {
        return loader.apply(data);
      }
    };
  }
}
