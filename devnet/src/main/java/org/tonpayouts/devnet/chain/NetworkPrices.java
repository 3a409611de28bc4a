package org.tonpayouts.devnet.chain;

import java.util.HashSet;
import java.util.Set;
import org.tonpayouts.ton.cell.TonCell;

/**
 * The basechain's gas, forwarding and storage prices (configuration parameters 21, 25 and 18) and
 * the node's formulas over them, for the contracts devnet runs: their gas fees, the forwarding fee
 * of every message they send and bounce, and the fee estimates the stablecoin's code makes with
 * {@code GETGASFEE}, {@code GETFORWARDFEESIMPLE}, {@code GETORIGINALFWDFEE} and {@code GETSTORAGEFEE}.
 *
 * <p>The values are those of @ton/sandbox 0.41's default configuration, which are mainnet's
 * basechain prices of its snapshot; the golden jetton traces were made with them. WalletV4R2
 * transactions keep devnet's flat {@link Fees}: only contract transactions are priced here.
 */
public final class NetworkPrices {
  /** Param 21: the first {@code FLAT_GAS_LIMIT} gas cost {@code FLAT_GAS_PRICE} nanotons together. */
  public static final long FLAT_GAS_LIMIT = 100;
  public static final long FLAT_GAS_PRICE = 40_000;
  /** Param 21: nanotons per gas unit, in 2^-16 units (400 nanotons a gas unit). */
  public static final long GAS_PRICE = 26_214_400;
  /** Param 21: the most gas one transaction may use. */
  public static final long GAS_LIMIT = 1_000_000;
  /** Param 25: every message pays {@code LUMP_PRICE}, plus its bits and cells (the root cell not counted). */
  public static final long LUMP_PRICE = 400_000;
  public static final long BIT_PRICE = 26_214_400;
  public static final long CELL_PRICE = 2_621_440_000L;
  /** Param 25: the share of a forwarding fee the sender's transaction collects (in 2^-16 units, a third). */
  public static final long FIRST_FRAC = 21_845;
  /** Param 18: storage prices per bit and per cell per second, in 2^-16 units. */
  public static final long STORAGE_BIT_PRICE = 1;
  public static final long STORAGE_CELL_PRICE = 500;

  private static final long UNIT = 1L << 16;

  private NetworkPrices() {}

  /** The fee of {@code gasUsed} gas units (the node's {@code compute_gas_price}). */
  public static long gasFee(long gasUsed) {
    if (gasUsed <= FLAT_GAS_LIMIT) {
      return FLAT_GAS_PRICE;
    }
    return FLAT_GAS_PRICE + ceilDiv((gasUsed - FLAT_GAS_LIMIT) * GAS_PRICE, UNIT);
  }

  /** The gas {@code nanotons} pay for at most ({@code gas_limit} of a message carrying them). */
  public static long gasFor(long nanotons) {
    if (nanotons < FLAT_GAS_PRICE) {
      return 0;
    }
    long gas = FLAT_GAS_LIMIT + (nanotons - FLAT_GAS_PRICE) * UNIT / GAS_PRICE;
    return Math.min(gas, GAS_LIMIT);
  }

  /** The forwarding fee of a message of {@code cells} cells and {@code bits} bits besides its root. */
  public static long forwardFee(long cells, long bits) {
    return LUMP_PRICE + simpleForwardFee(cells, bits);
  }

  /** {@code GETFORWARDFEESIMPLE}: the forwarding fee of {@code cells} and {@code bits} without the lump price. */
  public static long simpleForwardFee(long cells, long bits) {
    return ceilDiv(BIT_PRICE * bits + CELL_PRICE * cells, UNIT);
  }

  /**
   * The forwarding fee of {@code message}: its cells below the root, each distinct cell counted
   * once, as the node's storage statistics count them.
   */
  public static long forwardFee(TonCell message) {
    Set<TonCell> seen = new HashSet<>();
    long[] size = new long[2];
    for (TonCell ref : message.refs()) {
      count(ref, seen, size);
    }
    return forwardFee(size[0], size[1]);
  }

  /** The part of a forwarding fee the sending transaction collects; the rest travels in the message's {@code fwd_fee}. */
  public static long firstPart(long forwardFee) {
    return forwardFee * FIRST_FRAC / UNIT;
  }

  /** {@code GETORIGINALFWDFEE}: the whole forwarding fee from what a message's {@code fwd_fee} field kept of it. */
  public static long originalForwardFee(long remaining) {
    return remaining * UNIT / (UNIT - FIRST_FRAC);
  }

  /** {@code GETSTORAGEFEE}: storing {@code bits} bits in {@code cells} cells for {@code seconds}. */
  public static long storageFee(long seconds, long bits, long cells) {
    return ceilDiv((bits * STORAGE_BIT_PRICE + cells * STORAGE_CELL_PRICE) * seconds, UNIT);
  }

  private static void count(TonCell cell, Set<TonCell> seen, long[] size) {
    if (!seen.add(cell)) {
      return;
    }
    size[0]++;
    size[1] += cell.bitLength();
    for (TonCell ref : cell.refs()) {
      count(ref, seen, size);
    }
  }

  private static long ceilDiv(long a, long b) {
    return -Math.floorDiv(-a, b);
  }
}
