package org.tonpayouts.devnet.chain;

/**
 * devnet's fee model: flat constants instead of the real gas and forwarding prices, so that tests
 * can predict balances exactly. The magnitudes are those of basechain wallet transactions; the
 * exact real values depend on gas used, message size and the network config.
 */
public final class Fees {
  /**
   * Gas of one WalletV4R2 external-message transaction (0.0015 TON), charged when the wallet
   * accepts the message. A wallet whose balance is below it cannot accept any message: the
   * message is rejected like an out-of-gas run (exit code -14) and leaves no trace.
   */
  public static final long COMPUTE_FEE = 1_500_000L;

  /**
   * Forwarding of one outgoing internal message (0.0004 TON), charged to the sender: on top of
   * the value with send mode +1 (pay fees separately), taken out of the value otherwise. The
   * message's {@code fwd_fee} field reports it.
   */
  public static final long FORWARD_FEE = 400_000L;

  /** Gas of an active account processing an incoming internal message (0.0001 TON). */
  public static final long RECEIVE_FEE = 100_000L;

  /**
   * Bouncing a message back from an account that cannot take it (0.0004 TON): taken from the
   * bounced value; when the value does not cover it there is no bounce and the value stays.
   */
  public static final long BOUNCE_FEE = 400_000L;

  /**
   * Nanotons per gas unit (basechain's price), to report the flat fees as gas in transactions:
   * the compute fee is 3750 gas, the receive fee 250.
   */
  public static final long GAS_PRICE = 400L;

  /** Gas an external message may spend before the contract accepts it (the network's gas credit). */
  public static final long EXTERNAL_GAS_CREDIT = 10_000L;

  private Fees() {}
}
