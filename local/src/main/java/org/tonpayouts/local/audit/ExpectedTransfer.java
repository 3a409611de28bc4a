package org.tonpayouts.local.audit;

import org.tonpayouts.ton.address.TonAddress;

/**
 * A transfer a run asked for, with what the chain should show once it is paid: from which wallet,
 * to whom, how much, and with which comment (unique in the run, so the auditor can tell every
 * payment apart).
 */
public record ExpectedTransfer(String requestId, String transferId, int transferIndex, long subwalletId,
                               TonAddress destination, long amountNano, String comment) {
  public TransferRef ref() {
    return new TransferRef(requestId, transferId);
  }
}
