package org.tonpayouts.ton.api;

import java.util.ArrayList;
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

  /**
   * This transaction with only what matching it against transfers needs: hashes, amounts,
   * addresses, fees, and an inbound internal message's body (a bounce's evidence, {@link
   * ChainMessage#isBounce}); without its BOC and the bodies and init states of its external
   * inbound and its outbound messages. The chain poller's block feed keeps every transaction of the
   * last minute: with those, about 3 KB per payout, most of the poller's heap at 500 payouts/s.
   */
  public ChainTransaction forMatching() {
    List<ChainMessage> outs = new ArrayList<>(outMsgs.size());
    for (ChainMessage m : outMsgs) {
      outs.add(m.withoutPayload());
    }
    ChainMessage in = inMsg == null || !inMsg.isExternalIn() ? inMsg : inMsg.withoutPayload();
    return new ChainTransaction(account, id, utime, fee, storageFee, otherFee, in, outs, null);
  }
}
