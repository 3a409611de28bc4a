package org.tonpayouts.ton.wallet;

import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.keys.WalletKey;

/**
 * A WalletV4R2 external message read back from its BOC: what the wallet contract will check
 * (signature, subwallet, valid_until, seqno) and what it will send. Hashes and signature are
 * lowercase hex.
 *
 * @param stateInitHash hex hash of the attached StateInit, or null when none is attached
 * @param signedHash hex hash of the signed part of the body (what the signature covers)
 */
public record ParsedTransfer(TonAddress wallet, String stateInitHash, long subwalletId, long validUntil, long seqno,
                             int op, List<ParsedOrder> orders, String signature, String signedHash,
                             String messageHash, String normalizedHash) {

  /** One internal message of the body, with the send mode the wallet will use for it. */
  public record ParsedOrder(int mode, TonAddress destination, long amountNano, boolean bounce, String comment) {}

  public ParsedTransfer {
    Objects.requireNonNull(wallet, "wallet");
    orders = List.copyOf(orders);
  }

  /** True when a StateInit is attached (needed while the wallet is not deployed). */
  public boolean hasStateInit() {
    return stateInitHash != null;
  }

  /** True when the signature is {@code publicKey}'s signature of the signed part, as the contract checks it. */
  public boolean signatureValidFor(byte[] publicKey) {
    return WalletKey.verify(publicKey, HexFormat.of().parseHex(signedHash), HexFormat.of().parseHex(signature));
  }
}
