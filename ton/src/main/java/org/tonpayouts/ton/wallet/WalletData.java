package org.tonpayouts.ton.wallet;

import org.tonpayouts.ton.cell.CellReader;
import org.tonpayouts.ton.cell.TonCell;

/**
 * The head of a WalletV4R2 data cell ({@code seqno(32) | subwallet_id(32) | public_key(256) |
 * plugins}), read from the {@code data} BOC that {@code getAddressInformation} returns. Reading
 * the seqno from the same answer as {@code sync_utime} and the balance gives one consistent view
 * of the wallet, which is what the safe-retry rule needs (DESIGN.md).
 *
 * @param seqno the wallet's stored seqno
 * @param subwalletId the stored subwallet id
 */
public record WalletData(long seqno, long subwalletId) {
  private static final int HEAD_BITS = 32 + 32 + 256;

  /**
   * Parses the data BOC (base64).
   *
   * @throws IllegalArgumentException when the BOC is malformed or too short for a WalletV4R2 data cell
   */
  public static WalletData parse(String dataBocBase64) {
    if (dataBocBase64 == null || dataBocBase64.isBlank()) {
      throw new IllegalArgumentException("wallet data BOC is empty");
    }
    CellReader cs;
    try {
      cs = TonCell.fromBase64(dataBocBase64).parse();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("malformed wallet data BOC: " + e.getMessage(), e);
    }
    if (cs.remainingBits() < HEAD_BITS) {
      throw new IllegalArgumentException(
          "wallet data has " + cs.remainingBits() + " bits, a WalletV4R2 data cell has at least " + HEAD_BITS);
    }
    long seqno = cs.loadUint(32);
    long subwalletId = cs.loadUint(32);
    return new WalletData(seqno, subwalletId);
  }
}
