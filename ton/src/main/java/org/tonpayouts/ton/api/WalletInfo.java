package org.tonpayouts.ton.api;

/**
 * A wallet's state as {@code getWalletInformation} reports it; the source of the fresh seqno
 * read before signing.
 *
 * @param wallet         true when the server recognised the code as a known wallet
 * @param balance        nanotons
 * @param accountState   {@code active}, {@code uninitialized} or {@code frozen}
 * @param seqno          the wallet's stored seqno; null when the server did not report one
 *                       (uninitialized account or unknown contract)
 * @param walletId       the stored subwallet id, null when not reported
 * @param walletType     e.g. {@code wallet v4 r2}, null when not a known wallet
 * @param lastTransaction the account's last transaction, null when it never had one
 */
public record WalletInfo(
    boolean wallet,
    long balance,
    String accountState,
    Long seqno,
    Long walletId,
    String walletType,
    TransactionId lastTransaction) {

  public boolean isUninitialized() {
    return "uninitialized".equals(accountState);
  }

  public boolean isActive() {
    return "active".equals(accountState);
  }
}
