package org.tonpayouts.ton.jetton;

import java.util.Optional;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.CellReader;
import org.tonpayouts.ton.cell.MessageCells;
import org.tonpayouts.ton.cell.TonCell;

/**
 * The jetton transfer a signed WalletV4R2 message carries, read back from its BOC: what the wallet
 * will send to which jetton wallet. Events about a jetton transfer name exactly what was signed,
 * whatever the configuration says now.
 *
 * @param jettonWallet where the wallet's (first) internal message goes: our own jetton wallet
 * @param attachNano the TON it carries
 * @param transfer its body, the TEP-74 transfer
 */
public record SignedJettonTransfer(TonAddress jettonWallet, long attachNano, JettonTransfer transfer) {
  /** Bits of a WalletV4R2 body before its first order: signature, subwallet_id, valid_until, seqno, op. */
  private static final int HEADER_BITS = 512 + 32 + 32 + 32 + 8;

  /** The jetton transfer of a signed wallet message (base64 BOC); empty when its first order is none. */
  public static Optional<SignedJettonTransfer> read(String bocBase64) {
    try {
      CellReader body = MessageCells.readExternalIn(TonCell.fromBase64(bocBase64)).body().parse();
      if (body.remainingBits() < HEADER_BITS + 8 || body.remainingRefs() == 0) {
        return Optional.empty();
      }
      MessageCells.Internal order = MessageCells.readInternal(body.skipBits(HEADER_BITS).loadRef());
      return JettonTransfer.read(order.body())
          .map(transfer -> new SignedJettonTransfer(order.destination(), order.value(), transfer));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
