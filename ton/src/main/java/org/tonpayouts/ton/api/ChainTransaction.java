package org.tonpayouts.ton.api;

import java.util.List;
import org.tonpayouts.ton.address.TonAddress;

/**
 * One transaction of an account as {@code getTransactions} reports it; what the chain poller
 * matches our sent messages against.
 *
 * @param account    the account the transaction belongs to
 * @param utime      unix time of the transaction
 * @param fee        total fee, nanotons
 * @param inMsg      the inbound message, null when the transaction had none (e.g. tick-tock)
 * @param outMsgs    outbound messages in order; empty when none
 * @param data       the transaction BOC, base64
 */
public record ChainTransaction(
    TonAddress account,
    TransactionId id,
    long utime,
    long fee,
    long storageFee,
    long otherFee,
    ChainMessage inMsg,
    List<ChainMessage> outMsgs,
    String data) {

  public ChainTransaction {
    outMsgs = outMsgs == null ? List.of() : List.copyOf(outMsgs);
  }
}
