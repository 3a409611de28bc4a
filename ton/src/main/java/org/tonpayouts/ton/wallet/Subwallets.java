package org.tonpayouts.ton.wallet;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.HexFormat;
import org.ton.ton4j.smartcontract.types.WalletCodes;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.MessageCells;
import org.tonpayouts.ton.cell.TonCell;
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
  private static final TonCell CODE = TonCell.fromBoc(HexFormat.of().parseHex(WalletCodes.V4R2.getValue()));

  /** Payout setups use a handful of subwallets; the bound only stops a runaway caller from growing it. */
  private static final int ADDRESS_CACHE_LIMIT = 10_000;

  private final WalletKey key;
  private final int workchain;
  // A StateInit costs two SHA-256 runs now, but a round asks for the address of every wallet it serves.
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
  public TonCell stateInit(long subwalletId) {
    checkSubwalletId(subwalletId);
    TonCell data = TonCell.builder()
        .storeUint(0L, 32)
        .storeUint(subwalletId, 32)
        .storeBytes(key.publicKey())
        .storeBit(false)
        .endCell();
    return MessageCells.stateInit(CODE, data);
  }

  /** The WalletV4R2 code cell. */
  public static TonCell code() {
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
