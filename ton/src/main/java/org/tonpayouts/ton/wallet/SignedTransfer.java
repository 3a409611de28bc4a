package org.tonpayouts.ton.wallet;

import java.util.List;
import java.util.Objects;
import org.tonpayouts.ton.address.TonAddress;

/**
 * A signed WalletV4R2 external message, ready for {@code sendBoc}. It is built and persisted before
 * any network call; re-sending the same {@code boc} is always safe (same seqno, same hash).
 *
 * @param validUntil unix seconds after which the wallet rejects the message
 * @param boc base64 BOC of the full external message
 * @param messageHash lowercase hex hash of the external message cell (what toncenter reports as the in_msg hash)
 * @param normalizedHash lowercase hex TEP-467 normalized hash (independent of how the message was serialized)
 */
public record SignedTransfer(long subwalletId, TonAddress wallet, long seqno, long validUntil,
                             List<TransferOrder> orders, String boc, String messageHash, String normalizedHash) {
  public SignedTransfer {
    Objects.requireNonNull(wallet, "wallet");
    orders = List.copyOf(orders);
    Objects.requireNonNull(boc, "boc");
    Objects.requireNonNull(messageHash, "messageHash");
    Objects.requireNonNull(normalizedHash, "normalizedHash");
  }

  /** Everything but the BOC, so a log line stays one short line. */
  @Override
  public String toString() {
    return "SignedTransfer[subwallet=" + subwalletId + ", wallet=" + wallet + ", seqno=" + seqno
        + ", validUntil=" + validUntil + ", orders=" + orders.size() + ", hash=" + messageHash
        + ", normalizedHash=" + normalizedHash + "]";
  }
}
