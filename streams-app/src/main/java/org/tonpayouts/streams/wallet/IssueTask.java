package org.tonpayouts.streams.wallet;

import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.schemas.TransferRequest;
import org.tonpayouts.streams.ledger.record.LedgerQueries.TransferRef;
import org.tonpayouts.streams.ledger.record.Ownership;
import org.tonpayouts.ton.address.TonAddress;

/**
 * One wallet's share of an issuing round: the transfer to put on chain next and what the round
 * needs to know to do it safely.
 *
 * @param head the wallet's state when the round started
 * @param queued the request at the head of the wallet's queue
 * @param wallet the subwallet's address
 * @param floor seqno of our newest message known to have applied (a fresh read must be above it); null: unknown
 * @param fence the issuing task's claim on its partition, carried by every intent it records
 */
public record IssueTask(WalletHead head, QueuedRequest queued, TonAddress wallet, Long floor, Ownership fence) {

  public PayoutRequest request() {
    return queued.request();
  }

  public int transferIndex() {
    return head.transferIndex();
  }

  public TransferRequest transfer() {
    return request().transfer(transferIndex());
  }

  public long subwalletId() {
    return head.subwalletId();
  }

  public String key() {
    return Topics.walletKey(subwalletId());
  }

  public String requestId() {
    return request().requestId();
  }

  public String transferId() {
    return transfer().transferId();
  }

  TransferRef ref() {
    return new TransferRef(request(), transferIndex());
  }
}
