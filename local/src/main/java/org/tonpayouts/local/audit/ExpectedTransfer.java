package org.tonpayouts.local.audit;

import org.tonpayouts.schemas.JettonAmount;
import org.tonpayouts.ton.address.TonAddress;

/**
 * A transfer a run asked for, with what the chain should show once it is paid: from which wallet,
 * to whom, how much, and with which comment (unique in the run, so the auditor can tell every
 * payment apart).
 *
 * @param destination who is paid: for a jetton transfer the owner whose jetton wallet receives it
 * @param amountNano nanotons paid; 0 for a jetton transfer (intake attaches the TON its message carries)
 * @param jetton the jetton and amount a jetton transfer pays; null for a TON transfer
 */
public record ExpectedTransfer(String requestId, String transferId, int transferIndex, long subwalletId,
                               TonAddress destination, long amountNano, String comment, JettonAmount jetton) {
  /** A TON transfer. */
  public ExpectedTransfer(String requestId, String transferId, int transferIndex, long subwalletId,
      TonAddress destination, long amountNano, String comment) {
    this(requestId, transferId, transferIndex, subwalletId, destination, amountNano, comment, null);
  }

  public TransferRef ref() {
    return new TransferRef(requestId, transferId);
  }

  /** True for a jetton transfer. */
  public boolean paysJetton() {
    return jetton != null;
  }
}
