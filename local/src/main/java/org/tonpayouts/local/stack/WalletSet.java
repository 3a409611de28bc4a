package org.tonpayouts.local.stack;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.wallet.Subwallets;

/**
 * The accounts of one local run: the paying subwallets, the recipients of payouts and the treasury
 * that commission sweeps go to.
 *
 * <p>Recipients and the treasury are subwallets of the same key with small ids, outside the payout
 * range, so they are distinct from the paying wallets, fresh on devnet (uninitialized, which makes
 * their balances exact sums of what they were sent) and, on testnet, still under the operator's key.
 */
public final class WalletSet {
  /** Subwallet id of the treasury; recipients are 1..n. */
  public static final long TREASURY_SUBWALLET = 0;

  private final Subwallets subwallets;
  private final long firstSubwallet;
  private final int count;
  private final int recipientCount;

  public WalletSet(Subwallets subwallets, long firstSubwallet, int count, int recipientCount) {
    if (count < 1) {
      throw new IllegalArgumentException("at least one wallet is needed, got " + count);
    }
    if (recipientCount < 1) {
      throw new IllegalArgumentException("at least one recipient is needed, got " + recipientCount);
    }
    if (firstSubwallet <= recipientCount) {
      throw new IllegalArgumentException("paying subwallets must start above the recipients' ids 0.." + recipientCount);
    }
    this.subwallets = subwallets;
    this.firstSubwallet = firstSubwallet;
    this.count = count;
    this.recipientCount = recipientCount;
  }

  public int count() {
    return count;
  }

  public long firstSubwallet() {
    return firstSubwallet;
  }

  public long lastSubwallet() {
    return firstSubwallet + count - 1;
  }

  /** Subwallet id of paying wallet {@code index} (0-based). */
  public long subwalletId(int index) {
    if (index < 0 || index >= count) {
      throw new IndexOutOfBoundsException("wallet index " + index + " of " + count);
    }
    return firstSubwallet + index;
  }

  public List<Long> subwalletIds() {
    List<Long> ids = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      ids.add(firstSubwallet + i);
    }
    return ids;
  }

  public TonAddress address(long subwalletId) {
    return subwallets.address(subwalletId);
  }

  /** Every paying wallet's address by its subwallet id, in id order (what an auditor scans). */
  public Map<Long, TonAddress> addresses() {
    Map<Long, TonAddress> all = new LinkedHashMap<>();
    for (long id : subwalletIds()) {
      all.put(id, address(id));
    }
    return Collections.unmodifiableMap(all);
  }

  public int recipientCount() {
    return recipientCount;
  }

  /** Recipient {@code index} modulo the recipient count. */
  public TonAddress recipient(int index) {
    return subwallets.address(1 + Math.floorMod(index, recipientCount));
  }

  public List<TonAddress> recipients() {
    List<TonAddress> all = new ArrayList<>(recipientCount);
    for (int i = 0; i < recipientCount; i++) {
      all.add(recipient(i));
    }
    return all;
  }

  public TonAddress treasury() {
    return subwallets.address(TREASURY_SUBWALLET);
  }
}
