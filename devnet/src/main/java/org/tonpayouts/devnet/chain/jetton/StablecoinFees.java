package org.tonpayouts.devnet.chain.jetton;

import java.math.BigInteger;
import org.tonpayouts.devnet.chain.NetworkPrices;

/**
 * The stablecoin's {@code gas.fc}: what a transfer must carry ({@code check_amount_is_enough_to_transfer},
 * else 48) and what a wallet keeps for storage, from the network's prices as its code reads them
 * ({@code GETGASFEE}, {@code GETFORWARDFEESIMPLE}, {@code GETSTORAGEFEE}; no precompiled gas).
 */
final class StablecoinFees {
  /** What the minter keeps ({@code raw_reserve(ONE_TON, 0)} before it sends to a wallet). */
  static final long ONE_TON = 1_000_000_000L;
  private static final long MIN_STORAGE_DURATION = 5L * 365 * 24 * 3600;
  private static final long JETTON_WALLET_BITS = 1033;
  private static final long JETTON_WALLET_CELLS = 3;
  private static final long JETTON_WALLET_INITSTATE_BITS = 931;
  private static final long JETTON_WALLET_INITSTATE_CELLS = 3;
  private static final long SEND_TRANSFER_GAS_CONSUMPTION = 9255;
  private static final long RECEIVE_TRANSFER_GAS_CONSUMPTION = 10355;

  private StablecoinFees() {}

  /** {@code calculate_jetton_wallet_min_storage_fee}: five years of a wallet's storage. */
  static long minStorageFee() {
    return NetworkPrices.storageFee(MIN_STORAGE_DURATION, JETTON_WALLET_BITS, JETTON_WALLET_CELLS);
  }

  /**
   * {@code check_amount_is_enough_to_transfer}: true when {@code msgValue} pays the forward TON, the
   * forwarding fees (the inbound message's original {@code fwdFee} once or twice), the StateInit's
   * forwarding, both wallets' gas and the receiver's storage.
   */
  static boolean enoughToTransfer(BigInteger msgValue, BigInteger forwardTon, long fwdFee) {
    long fwdCount = forwardTon.signum() != 0 ? 2 : 1;
    BigInteger needed = forwardTon
        .add(BigInteger.valueOf(fwdCount * fwdFee))
        .add(BigInteger.valueOf(NetworkPrices.simpleForwardFee(JETTON_WALLET_INITSTATE_CELLS, JETTON_WALLET_INITSTATE_BITS)))
        .add(BigInteger.valueOf(NetworkPrices.gasFee(SEND_TRANSFER_GAS_CONSUMPTION)))
        .add(BigInteger.valueOf(NetworkPrices.gasFee(RECEIVE_TRANSFER_GAS_CONSUMPTION)))
        .add(BigInteger.valueOf(minStorageFee()));
    return msgValue.compareTo(needed) > 0;
  }
}
