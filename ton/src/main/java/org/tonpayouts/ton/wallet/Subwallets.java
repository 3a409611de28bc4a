package org.tonpayouts.ton.wallet;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.ton.ton4j.cell.Cell;
import org.ton.ton4j.cell.CellBuilder;
import org.ton.ton4j.smartcontract.types.WalletCodes;
import org.ton.ton4j.tlb.StateInit;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.keys.WalletKey;

/**
 * WalletV4R2 subwallets of one key: the address and StateInit of any uint32 {@code subwallet_id}.
 * Payout requests name a subwallet id; this is where it becomes an account on chain.
 *
 * <p>Pure computation (no network): ton4j's wallet objects are avoided because several of their
 * getters are network calls and their builder invents a random key when none is given.
 */
public final class Subwallets {
  /** The default {@code subwallet_id} of wallet apps on workchain 0 (the JS SDK uses 698983191 + workchain). */
  public static final long DEFAULT_SUBWALLET_ID = 698983191L;
  public static final long MAX_SUBWALLET_ID = 0xFFFF_FFFFL;

  /** ton4j's copy of the WalletV4R2 code; its hash is the well-known V4R2 code hash (tested). */
  private static final Cell CODE = CellBuilder.beginCell().fromBoc(WalletCodes.V4R2.getValue()).endCell();

  /** Payout setups use a handful of subwallets; the bound only stops a runaway caller from growing it. */
  private static final int ADDRESS_CACHE_LIMIT = 10_000;

  private final WalletKey key;
  private final int workchain;
  // ton4j rehashes the whole code tree for every StateInit (about 0.3 ms): addresses are computed once.
  private final Map<Long, TonAddress> addresses = new ConcurrentHashMap<>();

  public Subwallets(WalletKey key, int workchain) {
    this.key = Objects.requireNonNull(key, "key");
    if (workchain != TonAddress.BASECHAIN && workchain != TonAddress.MASTERCHAIN) {
      throw new IllegalArgumentException("workchain " + workchain + " is not supported (only 0 and -1 exist)");
    }
    this.workchain = workchain;
  }

  /** The address of subwallet {@code subwalletId}: hash of its StateInit on this workchain. */
  public TonAddress address(long subwalletId) {
    TonAddress cached = addresses.get(subwalletId);
    if (cached != null) {
      return cached;
    }
    TonAddress address = TonAddress.of(workchain, stateInit(subwalletId).hash());
    if (addresses.size() < ADDRESS_CACHE_LIMIT) {
      addresses.put(subwalletId, address);
    }
    return address;
  }

  /**
   * The StateInit that deploys subwallet {@code subwalletId}: WalletV4R2 code, data
   * {@code seqno 0 | subwallet_id | public key | empty plugins}.
   */
  public Cell stateInit(long subwalletId) {
    return stateInitOf(subwalletId).toCell();
  }

  StateInit stateInitOf(long subwalletId) {
    checkSubwalletId(subwalletId);
    Cell data = CellBuilder.beginCell()
        .storeUint(0L, 32)
        .storeUint(subwalletId, 32)
        .storeBytes(key.publicKey())
        .storeBit(false)
        .endCell();
    return StateInit.builder().code(CODE).data(data).build();
  }

  /** The WalletV4R2 code cell. */
  public static Cell code() {
    return CODE;
  }

  public WalletKey key() {
    return key;
  }

  public int workchain() {
    return workchain;
  }

  static void checkSubwalletId(long subwalletId) {
    if (subwalletId < 0 || subwalletId > MAX_SUBWALLET_ID) {
      throw new IllegalArgumentException("subwallet id " + subwalletId + " is outside uint32 (0.." + MAX_SUBWALLET_ID + ")");
    }
  }

  @Override
  public String toString() {
    return "Subwallets[workchain=" + workchain + ", key=" + key + "]";
  }
}
