package org.tonpayouts.streams.wallet;

import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.TransferRequest;
import org.tonpayouts.ton.address.TonAddress;

/**
 * One wallet's share of an issuing round: the transfer to put on chain next and what the round
 * needs to know to do it safely.
 *
 * @param wallet the subwallet's address
 * @param request the request at the head of the wallet's queue
 * @param transferIndex which of its transfers
 * @param attempt the attempt number a freshly signed message would carry
 * @param lastAppliedSeqno floor of the stale-read guard (null: unknown)
 */
public record IssueTask(
    TonAddress wallet, PayoutRequest request, int transferIndex, int attempt, Long lastAppliedSeqno) {

  public static IssueTask of(WalletState state, TonAddress wallet) {
    return new IssueTask(wallet, state.currentRequest(), state.transferIndex(), state.attempts() + 1,
        state.lastAppliedSeqno());
  }

  public long subwalletId() {
    return request.subwalletId();
  }

  public String requestId() {
    return request.requestId();
  }

  public TransferRequest transfer() {
    return request.transfer(transferIndex);
  }

  public String transferId() {
    return transfer().transferId();
  }
}
