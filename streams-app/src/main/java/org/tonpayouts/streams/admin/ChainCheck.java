package org.tonpayouts.streams.admin;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.tonpayouts.streams.ledger.operator.ChainPayment;
import org.tonpayouts.streams.ledger.sql.TransferRow;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.ChainMessage;
import org.tonpayouts.ton.api.ChainTransaction;

/**
 * Verifies on chain the transaction an operator names to resolve a transfer as settled: it must be
 * a transaction of the transfer's wallet, and one of its out-messages must pay the transfer's
 * destination exactly its amount. Found by its lt when the operator gives it (one call), else by
 * reading the wallet's transactions back, newest first, to the time the transfer was recorded.
 *
 * <p>Then the evidence that it can be this transfer's payment, whichever way it was found: it is
 * not older than the transfer's recording (less the clock-skew margin), and it took the transfer's
 * seqno N or a later one (an older payment of the same amount to the same destination paid
 * something else). Having taken N or later, it also shows that no message at N can apply any more.
 */
final class ChainCheck {
  /** The outcome: the verified payment, why the transaction is not one, or what evidence is missing. */
  sealed interface Outcome {}

  record Verified(ChainPayment payment) implements Outcome {}

  /** The named transaction does not exist or does not pay the transfer (answered 422). */
  record NotVerified(String why) implements Outcome {}

  /** It pays the transfer's destination its amount, but the chain does not show that it paid this transfer (409). */
  record Unproven(String missing) implements Outcome {}

  private final ChainReads chain;
  private final Duration clockSkew;

  ChainCheck(ChainReads chain, Duration clockSkew) {
    this.chain = chain;
    this.clockSkew = clockSkew;
  }

  Outcome verify(TransferRow transfer, String txHash, Long lt) throws InterruptedException {
    TonAddress wallet = TonAddress.parse(transfer.walletAddress());
    long recordedFloor = transfer.createdAt().minus(clockSkew).getEpochSecond();
    ChainTransaction tx = lt != null ? chain.byLt(wallet, txHash, lt) : search(wallet, txHash, recordedFloor);
    if (tx == null) {
      return new NotVerified("wallet " + wallet.toRaw() + " has no transaction " + txHash
          + (lt != null ? " at lt " + lt : " since the transfer was recorded (searched " + ChainReads.MAX_PAGES
              * ChainReads.PAGE + " transactions at most; give its lt to look it up directly)"));
    }
    TonAddress destination = TonAddress.parse(transfer.destination());
    ChainPayment payment = payment(tx, destination, transfer.amountNano());
    if (payment == null) {
      return new NotVerified("transaction " + txHash + " of wallet " + wallet.toRaw() + " does not pay "
          + transfer.amountNano() + " nanotons to " + destination.toRaw() + "; its out-messages: "
          + describe(tx.outMsgs()));
    }
    List<String> missing = new ArrayList<>();
    if (tx.utime() < recordedFloor) {
      missing.add("transaction " + txHash + " (utime " + Instant.ofEpochSecond(tx.utime()) + ") is older than the"
          + " transfer, recorded at " + transfer.createdAt() + " (less the clock-skew margin of "
          + clockSkew.toSeconds() + " s): it paid something else");
    }
    ChainMessage in = tx.inMsg();
    OptionalLong took = in == null ? OptionalLong.empty() : in.walletSeqno();
    if (transfer.seqno() == null) {
      missing.add("transfer " + transfer.requestId() + "/" + transfer.transferId() + " has no seqno (no message was"
          + " signed for it): the chain cannot show that transaction " + txHash + " is at or after it");
    } else {
      if (took.isEmpty()) {
        missing.add("transaction " + txHash + " has no inbound external message with a readable wallet seqno: the"
            + " chain cannot show that it is the wallet's seqno-" + transfer.seqno() + " transaction or a later one");
      } else if (took.getAsLong() < transfer.seqno()) {
        missing.add("transaction " + txHash + " took the wallet's seqno " + took.getAsLong() + ", before the"
            + " transfer's seqno " + transfer.seqno() + ": it paid something older");
      }
    }
    if (!missing.isEmpty()) {
      return new Unproven(String.join("; ", missing));
    }
    return new Verified(payment);
  }

  /**
   * {@code tx} as a payment of {@code amount} nanotons to {@code destination} (how many of its
   * out-messages pay exactly that); null when none does.
   */
  static ChainPayment payment(ChainTransaction tx, TonAddress destination, long amount) {
    int paying = (int) tx.outMsgs().stream()
        .filter(m -> destination.equals(m.destination()) && m.value() == amount).count();
    if (paying == 0) {
      return null;
    }
    ChainMessage in = tx.inMsg();
    return new ChainPayment(tx.id().hash(), tx.id().lt(), tx.utime(), tx.fee(),
        in != null && in.isExternalIn() ? in.hash() : null, paying);
  }

  private ChainTransaction search(TonAddress wallet, String txHash, long floorUtime) throws InterruptedException {
    ChainReads.Back back = chain.back(wallet, floorUtime, t -> t.id().hash().equals(txHash));
    return back.newestFirst().stream().filter(t -> t.id().hash().equals(txHash)).findFirst().orElse(null);
  }

  static String describe(List<ChainMessage> outs) {
    if (outs.isEmpty()) {
      return "none";
    }
    return String.join(", ", outs.stream().map(m -> m.value() + " to "
        + (m.destination() == null ? "(external)" : m.destination().toRaw())).toList());
  }
}
