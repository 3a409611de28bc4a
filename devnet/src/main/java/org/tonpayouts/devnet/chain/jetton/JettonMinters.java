package org.tonpayouts.devnet.chain.jetton;

import java.util.List;
import java.util.function.UnaryOperator;
import org.tonpayouts.devnet.chain.GetMethodOutcome;
import org.tonpayouts.devnet.chain.StackValue;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.MalformedCellException;

/** What both minters share: {@code get_wallet_address(slice owner)} on the TVM's stack rules. */
final class JettonMinters {
  private JettonMinters() {}

  /**
   * {@code get_wallet_address}: the one argument must be a slice (or a cell, which toncenter
   * passes the same way) holding an address; its answer is the slice of the jetton wallet address.
   */
  static GetMethodOutcome walletAddress(List<StackValue> args, UnaryOperator<TonAddress> walletOf) {
    if (args.isEmpty()) {
      return GetMethodOutcome.exit(GetMethodOutcome.STACK_UNDERFLOW);
    }
    StackValue arg = args.get(args.size() - 1);
    if (arg instanceof StackValue.Num) {
      return GetMethodOutcome.exit(GetMethodOutcome.TYPE_CHECK);
    }
    TonAddress owner;
    try {
      owner = arg.loadAddress();
    } catch (MalformedCellException e) {
      return GetMethodOutcome.exit(9);
    }
    return GetMethodOutcome.ok(JettonGas.GET_WALLET_ADDRESS, List.of(StackValue.address(walletOf.apply(owner))));
  }
}
