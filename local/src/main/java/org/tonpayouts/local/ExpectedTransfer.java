package org.tonpayouts.local;

import org.tonpayouts.ton.address.TonAddress;

/** A transfer the launcher asked for, with what the chain should show once it is paid. */
public record ExpectedTransfer(String requestId, String transferId, int transferIndex, long subwalletId,
                               TonAddress destination, long amountNano) {
  public TransferRef ref() {
    return new TransferRef(requestId, transferId);
  }
}
